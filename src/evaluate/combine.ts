import {
  gradeCovers,
  gradeRank,
  type Criterion,
  type CriterionFinding,
  type CriterionResult,
  type EvidenceGrade,
  type EvidencePointer,
  type EvidenceRef,
  type OverruledFinding,
  type Rubric,
  type UncoveredReason,
} from '../model/index.js';
import { refersTo } from './evidence.js';
import { gradeFor } from './findings.js';

/** A met, unmet or disputed finding with the grade of the evidence it rests on. */
interface Judged {
  finding: CriterionFinding & { result: 'met' | 'unmet' | 'disputed' };
  grade: EvidenceGrade | null;
}

/** A judged finding that answered met or unmet (not disputed): only these can be overruled or adjudicate. */
type Decided = Judged & { finding: { result: 'met' | 'unmet' } };
const decided = (j: Judged): j is Decided => j.finding.result !== 'disputed';

const targetName = (criterion: Criterion) =>
  criterion.target
    ? `${criterion.target.kind}${criterion.target.id === null ? '' : ` ${criterion.target.id}`}`
    : 'its target';

/** Why a judged finding cannot decide the criterion, or null when it can. */
function disqualified(
  criterion: Criterion,
  judged: Judged,
): Exclude<OverruledFinding['why'], 'dependent' | 'adjudicated'> | null {
  if (!judged.finding.trusted) return 'untrusted';
  if (judged.grade === null) return 'target';
  return gradeCovers(judged.grade, criterion.needs) ? null : 'grade';
}

function describeDisqualified(criterion: Criterion, judged: Judged): string {
  const { finding } = judged;
  switch (disqualified(criterion, judged)) {
    case 'untrusted':
      return `${finding.evaluator} (${finding.result}) is an untrusted judge for this criterion: calibrate it, or add a trusted evaluator`;
    case 'target': {
      const others = [...new Set(finding.evidence.map((ref) => `${ref.kind} ${ref.target}`))];
      return others.length
        ? `${finding.evaluator} (${finding.result}) rests on evidence about ${others.join(', ')}, not ${targetName(criterion)}`
        : `${finding.evaluator} (${finding.result}) read no evidence at all`;
    }
    case 'grade':
      return `${finding.evaluator} (${finding.result}) rests on ${judged.grade} evidence; ${criterion.name} needs ${criterion.needs}`;
    case null:
      return `${finding.evaluator} (${finding.result})`;
  }
}

/** The closest any finding came to deciding, for routing an uncovered criterion to its owner. */
const UNCOVERED_PRECEDENCE: readonly UncoveredReason[] = [
  'below-grade',
  'other-target',
  'untrusted',
  'nothing-read',
  'no-evidence',
  'evaluator-error',
];

function uncoveredResult(
  criterion: Criterion,
  mine: readonly CriterionFinding[],
  judged: readonly Judged[],
): CriterionResult {
  const reasons = new Set<UncoveredReason>();
  for (const j of judged) {
    const why = disqualified(criterion, j);
    if (why === 'grade') reasons.add('below-grade');
    else if (why === 'target') reasons.add(j.finding.evidence.length ? 'other-target' : 'nothing-read');
    else if (why === 'untrusted') reasons.add('untrusted');
  }
  if (mine.some((f) => f.result === 'unknown')) reasons.add('no-evidence');
  if (mine.some((f) => f.result === 'error')) reasons.add('evaluator-error');
  const uncovered = UNCOVERED_PRECEDENCE.find((r) => reasons.has(r)) ?? 'no-evidence';
  const parts = [
    ...judged.map((j) => describeDisqualified(criterion, j)),
    ...mine.filter((f) => f.result === 'unknown').map((f) => `${f.evaluator}: no evidence (${f.note})`),
    ...mine.filter((f) => f.result === 'error').map((f) => `${f.evaluator}: evaluator error (${f.note})`),
  ];
  return {
    criterion: criterion.name,
    result: 'unknown',
    label: null,
    grade: null,
    coveredBy: [],
    reason: `uncovered: ${parts.join('; ')}`,
    overruled: [],
    uncovered,
  };
}

/** Each finding's place in the attempt's `findings`, which `coveredBy` points into. */
type FindingPlaces = ReadonlyMap<CriterionFinding, number>;

/**
 * Pointers to the evidence of `judged` that `keep` accepts, each piece once (the same kind, target and detail read by
 * two evaluators is one piece): the evidence itself stays in the attempt's findings, stored once.
 */
function pointers(
  places: FindingPlaces,
  judged: readonly Judged[],
  keep: (ref: EvidenceRef) => boolean = () => true,
): EvidencePointer[] {
  const seen = new Set<string>();
  const kept: EvidencePointer[] = [];
  for (const { finding } of judged) {
    const at = places.get(finding);
    if (at === undefined) continue;
    finding.evidence.forEach((ref, evidence) => {
      const key = `${ref.kind}\u0000${ref.target}\u0000${ref.detail}`;
      if (!keep(ref) || seen.has(key)) return;
      seen.add(key);
      kept.push({ finding: at, evidence });
    });
  }
  return kept;
}

function combineCriterion(
  criterion: Criterion,
  mine: readonly CriterionFinding[],
  places: FindingPlaces,
): CriterionResult {
  if (mine.length === 0) {
    return {
      criterion: criterion.name,
      result: 'unknown',
      label: null,
      grade: null,
      coveredBy: [],
      reason: 'uncovered: no evaluator judges this criterion',
      overruled: [],
      uncovered: 'no-findings',
    };
  }
  const judged: Judged[] = mine
    .filter((f): f is Judged['finding'] => f.result === 'met' || f.result === 'unmet' || f.result === 'disputed')
    .map((finding) => ({ finding, grade: gradeFor(criterion, finding.evidence) }));
  const deciding = judged.filter((j) => disqualified(criterion, j) === null);
  if (deciding.length === 0) return uncoveredResult(criterion, mine, judged);

  // The most direct grade decides; at that grade, independent evaluators outrank dependent ones.
  // Loops where a list of one or two findings was mapped into arrays and sets: this runs for every criterion of every
  // attempt.
  let best = Number.NEGATIVE_INFINITY;
  for (const j of deciding) best = Math.max(best, gradeRank(j.grade ?? 'judgment'));
  const top = deciding.filter((j) => gradeRank(j.grade ?? 'judgment') === best);
  const independent = top.filter((j) => j.finding.independent);
  const pool = independent.length > 0 ? independent : top;
  const grade = pool[0]?.grade ?? null;
  const coveredBy = pointers(
    places,
    pool,
    (ref) => refersTo(ref, criterion.target) && gradeCovers(ref.grade, criterion.needs),
  );
  // Evidence of the deciding grade that conflicts about the target: DISPUTED, with every piece the check read kept.
  const conflicting = pool.filter((j) => j.finding.result === 'disputed');
  if (conflicting.length > 0) {
    return {
      criterion: criterion.name,
      result: 'disputed',
      label: null,
      grade,
      coveredBy: pointers(places, conflicting),
      reason: `disputed: conflicting ${grade} evidence about ${targetName(criterion)}: ${conflicting.map((j) => `${j.finding.evaluator}: ${j.finding.note}`).join('; ')}`,
      overruled: [],
      uncovered: null,
    };
  }
  const disagree = pool.some((j) => j.finding.result !== pool[0]?.finding.result);
  const adjudicator = pool.find((j) => j.finding.adjudicator === true);
  if (disagree && adjudicator && decided(adjudicator))
    return adjudicated(criterion, judged, pool, adjudicator, grade, coveredBy);
  if (disagree) {
    const sides = pool.map((j) => `${j.finding.evaluator}: ${j.finding.result} (${j.finding.note})`).join('; ');
    const who = independent.length > 0 ? 'independent evaluators' : 'evaluators (none independent of the subject)';
    return {
      criterion: criterion.name,
      result: 'disputed',
      label: null,
      grade,
      coveredBy,
      reason: `disputed: ${who} disagree on ${grade} evidence: ${sides}`,
      overruled: [],
      uncovered: null,
    };
  }
  const result = pool.filter(decided)[0]?.finding.result ?? 'unmet';
  const overruled: OverruledFinding[] = judged
    .filter(decided)
    .filter((j) => !pool.includes(j) && j.finding.result !== result)
    .map((j) => ({
      evaluator: j.finding.evaluator,
      result: j.finding.result,
      grade: j.grade,
      why: disqualified(criterion, j) ?? (gradeRank(j.grade ?? 'judgment') < best ? 'grade' : 'dependent'),
      note: j.finding.note,
    }));
  const labels: string[] = [];
  for (const { finding } of pool)
    if (finding.label !== null && !labels.includes(finding.label)) labels.push(finding.label);
  const parts = [
    `${result} on ${grade} evidence (${pool.map((j) => `${j.finding.evaluator}: ${j.finding.note}`).join('; ')})`,
  ];
  if (labels.length > 1)
    parts.push(
      `labels differ (${pool.map((j) => `${j.finding.evaluator}: ${j.finding.label}`).join(', ')}) but agree on ${result}`,
    );
  for (const o of overruled) {
    const because = {
      grade: `${grade} evidence outranks ${o.grade ?? 'none'}`,
      target: `its evidence is about another target`,
      untrusted: 'it is an untrusted judge',
      dependent: 'it is not independent of the subject',
      adjudicated: 'the adjudicator decided otherwise',
    }[o.why];
    parts.push(`disagreement recorded: ${o.evaluator} said ${o.result}, overruled because ${because}`);
  }
  return {
    criterion: criterion.name,
    result,
    label: labels.length === 1 ? (labels[0] ?? null) : null,
    grade,
    coveredBy,
    reason: parts.join('; '),
    overruled,
    uncovered: null,
  };
}

/** A disagreement at the deciding grade settled by a declared adjudicator; each dissent stays on record. */
function adjudicated(
  criterion: Criterion,
  judged: readonly Judged[],
  pool: readonly Judged[],
  adjudicator: Decided,
  grade: EvidenceGrade | null,
  coveredBy: EvidencePointer[],
): CriterionResult {
  const result = adjudicator.finding.result;
  const overruled: OverruledFinding[] = judged
    .filter(decided)
    .filter((j) => j !== adjudicator && j.finding.result !== result)
    .map((j) => ({
      evaluator: j.finding.evaluator,
      result: j.finding.result,
      grade: j.grade,
      why: pool.includes(j) ? 'adjudicated' : (disqualified(criterion, j) ?? 'grade'),
      note: j.finding.note,
    }));
  const dissent = overruled.filter((o) => o.why === 'adjudicated').map((o) => `${o.evaluator} said ${o.result}`);
  return {
    criterion: criterion.name,
    result,
    label: adjudicator.finding.label,
    grade,
    coveredBy,
    reason: `${result} on ${grade} evidence, adjudicated by ${adjudicator.finding.evaluator} (${adjudicator.finding.note}); disagreement recorded: ${dissent.join(', ')}`,
    overruled,
    uncovered: null,
  };
}

/**
 * Combine all findings on each criterion into one result:
 * - only trusted findings whose evidence about the criterion's target reaches the grade it needs can decide it;
 *   otherwise it is uncovered (UNKNOWN), with why;
 * - among those, the most direct grade wins: a receipt outranks text or judgment, and every outranked finding
 *   that disagrees is recorded in `overruled`;
 * - at the winning grade, disagreement between independent evaluators is DISPUTED. A dependent evaluator (e.g. a
 *   judge of the subject's own model family) does not dispute an independent one: it shares the subject's blind
 *   spots and self-preference, so its dissent is recorded as overruled rather than taken as genuine ambiguity.
 *   Only when no evaluator at that grade is independent does their disagreement make it DISPUTED;
 * - a declared adjudicator at the winning grade settles such a disagreement; the dissent is kept as overruled;
 * - untrusted (uncalibrated) judges never decide, so they can neither make a criterion met alone nor fail it.
 * Evaluator errors decide nothing here; the run turns them into the `evaluator_error` status.
 * `coveredBy` points into `findings` by position (evaluate/coverage `coveringEvidence` resolves it): store the
 * results beside the same findings, in the same order.
 */
export function combineFindings(rubric: Rubric, findings: readonly CriterionFinding[]): CriterionResult[] {
  const places: FindingPlaces = new Map(findings.map((finding, at) => [finding, at]));
  return rubric.criteria.map((criterion) =>
    combineCriterion(
      criterion,
      findings.filter((f) => f.criterion === criterion.name),
      places,
    ),
  );
}
