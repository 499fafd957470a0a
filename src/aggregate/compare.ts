import {
  jsonDifferences,
  COMPARISON_SCHEMA,
  fingerprint,
  type ArmComparison,
  type ArmSide,
  type ArmSummary,
  type AttemptRecord,
  type CaseDifference,
  type CompositionComparison,
  type Comparison,
  type DecidedSuiteCheck,
  type DiscordantPairs,
  type GroupRate,
  type Outcome,
  type PinnedChange,
  type RunSide,
  type SuiteCheckComparison,
  type SuiteCheckSide,
  type SuiteRuleComparison,
  type TrialComparison,
  type TrialSuite,
  type Verdict,
} from '../model/index.js';
import { mcnemarExact, pairedDifference } from '../statistics/index.js';
import { groupRate, rateDifference } from './suite.js';

/** How a compared run is named in the record. */
export interface RunLabel {
  /** What the run was given as (a path, a label). */
  label: string;
  /** The run index's id, when the Outcomes came from one. */
  runId: string | null;
}

export interface CompareOptions {
  /** Default `{ label: 'A', runId: null }`. */
  a?: RunLabel;
  /** Default `{ label: 'B', runId: null }`. */
  b?: RunLabel;
  /** Error of every two-sided interval, in (0, 1). Default 0.05. */
  alpha?: number;
}

/** With 2 cases the paired t interval has 1 degree of freedom (t = 12.7): too wide to say anything. */
const MIN_CASES_FOR_INTERVAL = 3;

const DECIDED: ReadonlySet<Verdict> = new Set(['PASS', 'FAIL', 'PARTIAL', 'CONTRADICTED']);
const isDecided = (attempt: AttemptRecord) => DECIDED.has(attempt.verdict);
const SIDE_NAME: Record<RunSide, string> = { a: 'A', b: 'B' };

type Unmatched = Comparison['unmatched'][number];
type Tally = Omit<DiscordantPairs, 'unit' | 'pValue'>;

const byCodeUnit = (x: string, y: string) => (x < y ? -1 : x > y ? 1 : 0);

/** An arm's side on the decision's denominator, as the arm rule counted it (DESIGN.md contract 8). */
function armSide(summary: ArmSummary): ArmSide {
  const { successes, attempts } = summary.decision;
  return {
    verdict: summary.verdict,
    attempts: summary.run,
    decided: attempts,
    successes,
    rate: attempts > 0 ? successes / attempts : null,
  };
}

/** One run's attempts without a verdict over the compared arms: how many, in how many arms, and how its rates took them. */
function withoutVerdictNotes(side: RunSide, summaries: readonly ArmSummary[], paired: boolean): string[] {
  let counted = 0;
  let excluded = 0;
  let arms = 0;
  for (const summary of summaries) {
    const { UNKNOWN } = summary.verdicts;
    const out = summary.run - summary.decision.attempts;
    if (UNKNOWN > 0) arms += 1;
    excluded += out;
    counted += Math.max(0, UNKNOWN - out);
  }
  const inArms = `(in ${arms} arm${arms === 1 ? '' : 's'})`;
  const mcnemar = paired ? '; McNemar leaves them out, never imputed' : '';
  const notes: string[] = [];
  if (counted > 0)
    notes.push(
      `run ${SIDE_NAME[side]}: ${counted} attempt${counted === 1 ? '' : 's'} without a verdict ${inArms} count in its rates as not passing (the Rubric's missingEvidence: bound)${mcnemar}`,
    );
  if (excluded > 0)
    notes.push(
      `run ${SIDE_NAME[side]}: ${excluded} attempt${excluded === 1 ? '' : 's'} without a verdict ${inArms} are excluded from its rates (the Rubric's missingEvidence: exclude)${mcnemar}`,
    );
  return notes;
}

/** Dotted paths (at most two deep) at which two JSON records differ; arrays are compared whole. */
const differingFields = (a: unknown, b: unknown): string[] =>
  jsonDifferences(a, b, { depth: 2 }).map((difference) => difference.path);

/** The suite without its cases' content: cases are compared one by one on their own. */
function suiteFrame(suite: TrialSuite) {
  return { ...suite, arms: suite.arms.map(({ id, role, group }) => ({ id, role, group })) };
}

function environmentWithoutSubject(outcome: Outcome) {
  const { subject: _subject, ...rest } = outcome.records.environment;
  return rest;
}

/** Each pinned record that differs, subject first, then suite, cases, rubric, evaluators, environment. */
function pinnedChanges(a: Outcome, b: Outcome): PinnedChange[] {
  const changes: PinnedChange[] = [];
  const subjectA = a.records.environment.subject;
  const subjectB = b.records.environment.subject;
  const subjectFields = differingFields(subjectA, subjectB);
  if (subjectFields.length > 0) {
    changes.push({
      record: 'subject',
      id: null,
      a: `${subjectA.name}@${subjectA.revision}`,
      b: `${subjectB.name}@${subjectB.revision}`,
      fields: subjectFields,
    });
  }
  const suiteFields = differingFields(suiteFrame(a.records.suite), suiteFrame(b.records.suite));
  if (suiteFields.length > 0)
    changes.push({ record: 'suite', id: null, a: a.pinned.suite, b: b.pinned.suite, fields: suiteFields });

  const casesA = new Map(a.records.suite.arms.map((arm) => [arm.id, arm.case]));
  const casesB = new Map(b.records.suite.arms.map((arm) => [arm.id, arm.case]));
  for (const id of [...casesA.keys(), ...[...casesB.keys()].filter((k) => !casesA.has(k))]) {
    const caseA = casesA.get(id);
    const caseB = casesB.get(id);
    const fields = caseA && caseB ? differingFields(caseA, caseB) : [];
    if (fields.length > 0 || !caseA || !caseB) {
      changes.push({
        record: 'case',
        id,
        a: caseA ? (a.pinned.cases[id] ?? null) : null,
        b: caseB ? (b.pinned.cases[id] ?? null) : null,
        fields,
      });
    }
  }

  const rubricFields = differingFields(a.records.rubric, b.records.rubric);
  if (rubricFields.length > 0)
    changes.push({ record: 'rubric', id: null, a: a.pinned.rubric, b: b.pinned.rubric, fields: rubricFields });

  const evaluatorsOf = (o: Outcome) =>
    new Map(
      o.records.evaluators.map((record, i) => [
        record.id,
        { record, pinned: o.pinned.evaluators[i] ?? fingerprint(record) },
      ]),
    );
  const evaluatorsA = evaluatorsOf(a);
  const evaluatorsB = evaluatorsOf(b);
  for (const id of [...evaluatorsA.keys(), ...[...evaluatorsB.keys()].filter((k) => !evaluatorsA.has(k))]) {
    const evaluatorA = evaluatorsA.get(id);
    const evaluatorB = evaluatorsB.get(id);
    const fields = evaluatorA && evaluatorB ? differingFields(evaluatorA.record, evaluatorB.record) : [];
    if (fields.length > 0 || !evaluatorA || !evaluatorB) {
      changes.push({ record: 'evaluator', id, a: evaluatorA?.pinned ?? null, b: evaluatorB?.pinned ?? null, fields });
    }
  }

  const environmentA = environmentWithoutSubject(a);
  const environmentB = environmentWithoutSubject(b);
  const environmentFields = differingFields(environmentA, environmentB);
  if (environmentFields.length > 0) {
    changes.push({
      record: 'environment',
      id: null,
      a: fingerprint(environmentA),
      b: fingerprint(environmentB),
      fields: environmentFields,
    });
  }
  return changes;
}

function emptyTally(): Tally {
  return { pairs: 0, bothPass: 0, bothFail: 0, aOnly: 0, bOnly: 0, leftOut: { undecided: 0, oneRunOnly: 0 } };
}

function attemptsByIndex(outcome: Outcome, arm: string): Map<number, AttemptRecord> {
  return new Map(outcome.attempts.filter((x) => x.arm === arm).map((x) => [x.index, x]));
}

/** Pair one arm's attempts by index; attempts undecided in either run, or run in one only, are counted apart. */
function tallyArm(a: Outcome, b: Outcome, arm: string): Tally {
  const tally = emptyTally();
  const attemptsA = attemptsByIndex(a, arm);
  const attemptsB = attemptsByIndex(b, arm);
  const indices = [...new Set([...attemptsA.keys(), ...attemptsB.keys()])].sort((x, y) => x - y);
  for (const index of indices) {
    const x = attemptsA.get(index);
    const y = attemptsB.get(index);
    if (!x || !y) tally.leftOut.oneRunOnly += 1;
    else if (!isDecided(x) || !isDecided(y)) tally.leftOut.undecided += 1;
    else {
      const passA = x.verdict === 'PASS';
      const passB = y.verdict === 'PASS';
      tally.pairs += 1;
      if (passA && passB) tally.bothPass += 1;
      else if (passA) tally.aOnly += 1;
      else if (passB) tally.bOnly += 1;
      else tally.bothFail += 1;
    }
  }
  return tally;
}

function addTallies(tallies: readonly Tally[]): Tally {
  return tallies.reduce(
    (sum, t) => ({
      pairs: sum.pairs + t.pairs,
      bothPass: sum.bothPass + t.bothPass,
      bothFail: sum.bothFail + t.bothFail,
      aOnly: sum.aOnly + t.aOnly,
      bOnly: sum.bOnly + t.bOnly,
      leftOut: {
        undecided: sum.leftOut.undecided + t.leftOut.undecided,
        oneRunOnly: sum.leftOut.oneRunOnly + t.leftOut.oneRunOnly,
      },
    }),
    emptyTally(),
  );
}

function discordant(unit: DiscordantPairs['unit'], tally: Tally): DiscordantPairs {
  return { unit, ...tally, pValue: mcnemarExact(tally.aOnly, tally.bOnly).pValue };
}

/**
 * How the two runs' binary outcomes pair, and why. One attempt per case in both runs: the case is the unit (its
 * seed does not matter). Otherwise attempts pair by (arm, index) when both runs ran the same n with the same attempt
 * seeds (the same declared seed gives them), so each pair shared its seed; the exact test is valid either way and
 * gains power when the subject draws its randomness from the seed. Else nothing pairs.
 */
function pairing(
  a: Outcome,
  b: Outcome,
  arms: readonly string[],
): { unit: DiscordantPairs['unit'] | null; note: string } {
  const repeatA = a.records.suite.repeat;
  const repeatB = b.records.suite.repeat;
  if (repeatA.n === 1 && repeatB.n === 1) {
    return {
      unit: 'case',
      note: 'McNemar over cases: each case ran once in both runs, so its one outcome is a binary paired unit',
    };
  }
  if (repeatA.n !== repeatB.n) {
    return {
      unit: null,
      note: `attempts do not pair (n = ${repeatA.n} in A, ${repeatB.n} in B): the per-arm differences compare independent samples`,
    };
  }
  const seedsAgree = arms.every((arm) => {
    const attemptsB = attemptsByIndex(b, arm);
    return [...attemptsByIndex(a, arm).values()].every((x) => {
      const y = attemptsB.get(x.index);
      return y === undefined || y.seed === x.seed;
    });
  });
  if (!seedsAgree) {
    return {
      unit: null,
      note: `attempts do not pair (attempt seeds differ; declared seed ${repeatA.seed} in A, ${repeatB.seed} in B): the per-arm differences compare independent samples`,
    };
  }
  return {
    unit: 'attempt',
    note: `McNemar over attempts paired by (arm, index): both runs ran n = ${repeatA.n} with the same attempt seeds`,
  };
}

function caseDifference(
  sides: readonly { a: ArmSide; b: ArmSide }[],
  alpha: number,
): { cases: CaseDifference | null; notes: string[] } {
  const units = sides.flatMap((s) => (s.a.rate !== null && s.b.rate !== null ? [{ a: s.a.rate, b: s.b.rate }] : []));
  const leftOut = sides.length - units.length;
  const notes =
    leftOut > 0
      ? [
          `${leftOut} case${leftOut === 1 ? '' : 's'} without a rate in a run (nothing left in ${leftOut === 1 ? 'its' : 'their'} denominator) ${leftOut === 1 ? 'is' : 'are'} left out of the per-case difference`,
        ]
      : [];
  if (units.length < MIN_CASES_FOR_INTERVAL) {
    notes.push(
      `${units.length} case${units.length === 1 ? '' : 's'} with a rate in both runs: a per-case paired interval needs at least ${MIN_CASES_FOR_INTERVAL}; read the per-arm differences`,
    );
    return { cases: null, notes };
  }
  const ratesA = units.map((u) => u.a);
  const ratesB = units.map((u) => u.b);
  const d = pairedDifference(ratesA, ratesB, { alpha });
  const mean = (xs: readonly number[]) => xs.reduce((s, x) => s + x, 0) / xs.length;
  const cases = {
    units: d.pairs,
    meanA: mean(ratesA),
    meanB: mean(ratesB),
    mean: d.mean,
    se: d.se,
    lower: d.lower,
    upper: d.upper,
  };
  if (d.se === 0)
    notes.push(
      'every case changed by the same amount: the per-case t interval has zero width and understates the uncertainty; read McNemar and the per-arm intervals',
    );
  return { cases, notes };
}

function compareTrial(a: Outcome, b: Outcome, alpha: number): TrialComparison {
  const armsB = new Map(b.arms.map((s) => [s.arm, s]));
  const armsA = new Map(a.arms.map((s) => [s.arm, s]));
  const matched = a.arms.flatMap((summaryA) => {
    const summaryB = armsB.get(summaryA.arm);
    return summaryB ? [{ summaryA, summaryB }] : [];
  });
  const unmatchedArms = [
    ...a.arms.filter((s) => !armsB.has(s.arm)).map((s) => ({ run: 'a' as const, arm: s.arm })),
    ...b.arms.filter((s) => !armsA.has(s.arm)).map((s) => ({ run: 'b' as const, arm: s.arm })),
  ];
  const { unit, note: pairingNote } = pairing(
    a,
    b,
    matched.map((m) => m.summaryA.arm),
  );
  const tallies = matched.map(({ summaryA }) => tallyArm(a, b, summaryA.arm));
  const arms: ArmComparison[] = matched.map(({ summaryA, summaryB }, i) => {
    const sideA = armSide(summaryA);
    const sideB = armSide(summaryB);
    const rate = (side: ArmSide) =>
      groupRate(side.decided > 0 ? [{ successes: side.successes, attempts: side.decided }] : [], alpha);
    const tally = tallies[i];
    return {
      arm: summaryA.arm,
      role: summaryA.role,
      a: sideA,
      b: sideB,
      difference: rateDifference(rate(sideA), rate(sideB)),
      pairs: unit === 'attempt' && tally ? discordant('attempt', tally) : null,
    };
  });
  const { cases, notes: casesNotes } = caseDifference(arms, alpha);
  const notes = [
    pairingNote,
    ...withoutVerdictNotes(
      'a',
      matched.map((m) => m.summaryA),
      unit !== null,
    ),
    ...withoutVerdictNotes(
      'b',
      matched.map((m) => m.summaryB),
      unit !== null,
    ),
    ...casesNotes,
  ];
  for (const [side, outcome] of [
    ['a', a],
    ['b', b],
  ] as const) {
    if (!outcome.execution.independentAttempts) {
      notes.push(
        `run ${SIDE_NAME[side]}'s attempts are not independent samples (replayed or cached subject): the tests describe the recordings, not the subject`,
      );
    }
  }
  const changes = pinnedChanges(a, b);
  return {
    trial: a.trial,
    outcomes: { a: a.id, b: b.id },
    verdict: { a: a.judgment.verdict, b: b.judgment.verdict },
    scope:
      changes.length === 0
        ? 'identical'
        : changes.every((c) => c.record === 'subject')
          ? 'subject-only'
          : 'beyond-subject',
    changes,
    arms,
    unmatchedArms,
    cases,
    mcnemar: unit === null ? null : discordant(unit, addTallies(tallies)),
    notes,
    compositions: compareCompositions(a, b),
    suiteRule: compareSuiteRules(a, b),
  };
}

/** One run's check as the comparison keeps it: the figures its decision rests on, read from the Outcome as recorded. */
function checkSide(check: DecidedSuiteCheck): SuiteCheckSide {
  const missing = check.withoutVerdict;
  return {
    threshold: check.threshold,
    value: check.value,
    cases: check.cases,
    interval: check.interval,
    decision: check.decision,
    withoutVerdict:
      missing === null
        ? null
        : {
            policy: missing.policy,
            attempts: missing.attempts,
            cases: missing.cases,
            ifFailing: missing.ifFailing,
            ifPassing: missing.ifPassing,
          },
  };
}

/** A check's value and interval as the group rate `rateDifference` reads (it reads only those: a check keeps no counts). */
function asGroupRate(side: SuiteCheckSide | null): GroupRate | null {
  if (side === null) return null;
  return {
    count: 0,
    attempts: 0,
    cases: side.cases,
    rate: side.value,
    lower: side.interval?.lower ?? null,
    upper: side.interval?.upper ?? null,
    method: 'korn-graubard',
    designEffect: null,
  };
}

/**
 * A check's A − B. Unpaired MOVER (Newcombe 1998, method 10), built from each run's own case-clustered interval, as the
 * rule builds discrimination from its two sides: those intervals are what each run decided on (Korn–Graubard over
 * cases, or pass^k's), and under `bound` they already span its attempts without a verdict held either way, so the
 * difference carries that too and never re-derives a rule the Outcome records. A paired t over shared cases (as
 * `cases`) would be narrower when the same rows are hard in both runs, but it has zero width wherever no row changed
 * (over-refusal 0.000 in both runs, just where an `atMost` check sits) and would need each check's per-row counts,
 * which no record keeps; the pairing is read by McNemar and the per-case difference beside it.
 */
function checkDifference(a: SuiteCheckSide | null, b: SuiteCheckSide | null, sameConfidence: boolean) {
  const rateA = asGroupRate(a);
  const rateB = asGroupRate(b);
  if (!sameConfidence || rateA === null || rateB === null) return { value: null, lower: null, upper: null };
  return rateDifference(rateA, rateB);
}

/**
 * The declared suite rule's checks of both runs side by side, matched by rate, group and bound (the nth such check of
 * A with the nth of B); null when neither Outcome was decided by a rule.
 */
function compareSuiteRules(a: Outcome, b: Outcome): SuiteRuleComparison | null {
  const ruleA = a.suiteRule;
  const ruleB = b.suiteRule;
  if (ruleA === null && ruleB === null) return null;
  const keyed = (checks: readonly DecidedSuiteCheck[]) => {
    const seen = new Map<string, number>();
    return checks.map((check) => {
      const base = JSON.stringify([check.rate, check.group, check.bound]);
      const nth = seen.get(base) ?? 0;
      seen.set(base, nth + 1);
      return { key: `${base}#${nth}`, check };
    });
  };
  const checksA = keyed(ruleA?.checks ?? []);
  const checksB = keyed(ruleB?.checks ?? []);
  const byKeyB = new Map(checksB.map(({ key, check }) => [key, check]));
  const inA = new Set(checksA.map(({ key }) => key));
  const sameConfidence = ruleA !== null && ruleB !== null && ruleA.confidence === ruleB.confidence;
  const pair = (check: DecidedSuiteCheck, x: DecidedSuiteCheck | null, y: DecidedSuiteCheck | null) => {
    const sideA = x === null ? null : checkSide(x);
    const sideB = y === null ? null : checkSide(y);
    const { rate, group, bound } = check;
    const difference = checkDifference(sideA, sideB, sameConfidence);
    return { rate, group, bound, a: sideA, b: sideB, difference } satisfies SuiteCheckComparison;
  };
  return {
    verdict: { a: ruleA?.verdict ?? null, b: ruleB?.verdict ?? null },
    confidence: { a: ruleA?.confidence ?? null, b: ruleB?.confidence ?? null },
    checks: [
      ...checksA.map(({ key, check }) => pair(check, check, byKeyB.get(key) ?? null)),
      ...checksB.filter(({ key }) => !inA.has(key)).map(({ check }) => pair(check, null, check)),
    ],
  };
}

/** Whether a composition met its type and every own criterion in an attempt; null where it did not run. */
function compositionSucceeded(attempt: AttemptRecord, name: string): boolean | null {
  const steps = attempt.observation?.composition?.steps.filter((s) => s.composition === name) ?? [];
  if (steps.length === 0) return null;
  return steps.every(
    (s) => s.status === 'completed' && s.outputCheck?.result === 'valid' && s.criteria.every((c) => c.result === 'met'),
  );
}

/**
 * Per composition of either run's Composition Suite: which versions changed, its own verdict on each side, and its
 * attempts paired by (arm, index) with an exact McNemar test, so a diff says which composition changed and how each
 * one's results moved.
 */
function compareCompositions(a: Outcome, b: Outcome): CompositionComparison[] {
  const nodesA = a.compositions?.suite.compositions ?? [];
  const nodesB = b.compositions?.suite.compositions ?? [];
  const names = [...new Set([...nodesA.map((n) => n.name), ...nodesB.map((n) => n.name)])];
  return names.map((name) => {
    const nodeA = nodesA.find((n) => n.name === name) ?? null;
    const nodeB = nodesB.find((n) => n.name === name) ?? null;
    const resultA = a.compositions?.results.find((r) => r.composition === name) ?? null;
    const resultB = b.compositions?.results.find((r) => r.composition === name) ?? null;
    const tally = emptyTally();
    const byKey = new Map(b.attempts.map((y) => [`${y.arm}#${y.index}`, y]));
    for (const x of a.attempts) {
      const y = byKey.get(`${x.arm}#${x.index}`);
      const passA = compositionSucceeded(x, name);
      const passB = y ? compositionSucceeded(y, name) : null;
      if (!y) tally.leftOut.oneRunOnly += 1;
      else if (passA === null || passB === null) tally.leftOut.undecided += 1;
      else {
        tally.pairs += 1;
        if (passA && passB) tally.bothPass += 1;
        else if (passA) tally.aOnly += 1;
        else if (passB) tally.bOnly += 1;
        else tally.bothFail += 1;
      }
    }
    return {
      composition: name,
      owner: (nodeB ?? nodeA)?.owner ?? '',
      version: { a: nodeA?.version ?? null, b: nodeB?.version ?? null },
      changed: fingerprint(nodeA) !== fingerprint(nodeB),
      verdict: { a: resultA?.verdict ?? null, b: resultB?.verdict ?? null },
      successes: { a: resultA?.successes ?? 0, b: resultB?.successes ?? 0 },
      ran: { a: resultA?.ran ?? 0, b: resultB?.ran ?? 0 },
      pairs: tally.pairs > 0 ? discordant('attempt', tally) : null,
    };
  });
}

/** Index a run's Outcomes by trial id; a second Outcome of one id is listed as unmatched, never dropped silently. */
function indexByTrial(outcomes: readonly Outcome[], side: RunSide, unmatched: Unmatched[]): Map<string, Outcome> {
  const byId = new Map<string, Outcome>();
  for (const outcome of outcomes) {
    if (byId.has(outcome.trial.id)) {
      unmatched.push({
        run: side,
        trial: outcome.trial,
        reason: `another Outcome of this trial in run ${SIDE_NAME[side]} (${outcome.id}); only the first is compared`,
      });
    } else byId.set(outcome.trial.id, outcome);
  }
  return byId;
}

/**
 * Compare two runs' Outcomes: pair them by trial id, then arms by arm (case) id. Per trial: the verdicts, every
 * pinned record that differs (and whether more than the subject does), each arm's rates and their difference, a
 * per-case paired difference (cases as units) and an exact McNemar test where the outcomes pair. Trials and arms in
 * one run only are listed. Differences are A − B.
 */
export function compareRuns(a: readonly Outcome[], b: readonly Outcome[], options: CompareOptions = {}): Comparison {
  const alpha = options.alpha ?? 0.05;
  if (!(alpha > 0 && alpha < 1)) throw new RangeError(`compareRuns: alpha must be in (0, 1), got ${alpha}`);
  const unmatched: Unmatched[] = [];
  const byIdA = indexByTrial(a, 'a', unmatched);
  const byIdB = indexByTrial(b, 'b', unmatched);
  const trials: TrialComparison[] = [];
  const ids = [...new Set([...byIdA.keys(), ...byIdB.keys()])].sort(byCodeUnit);
  for (const id of ids) {
    const outcomeA = byIdA.get(id);
    const outcomeB = byIdB.get(id);
    if (outcomeA && outcomeB) trials.push(compareTrial(outcomeA, outcomeB, alpha));
    else if (outcomeA) unmatched.push({ run: 'a', trial: outcomeA.trial, reason: 'no Outcome of this trial in run B' });
    else if (outcomeB) unmatched.push({ run: 'b', trial: outcomeB.trial, reason: 'no Outcome of this trial in run A' });
  }
  unmatched.sort((x, y) => byCodeUnit(x.trial.id, y.trial.id) || byCodeUnit(x.run, y.run));
  const run = (side: RunSide, outcomes: readonly Outcome[]) => ({
    label: options[side]?.label ?? SIDE_NAME[side],
    runId: options[side]?.runId ?? null,
    outcomes: outcomes.length,
  });
  return {
    schema: COMPARISON_SCHEMA,
    a: run('a', a),
    b: run('b', b),
    confidence: 1 - alpha,
    trials,
    unmatched,
    summary: {
      compared: trials.length,
      verdictChanges: trials.filter((t) => t.verdict.a !== t.verdict.b).length,
      beyondSubject: trials.filter((t) => t.scope === 'beyond-subject').length,
      unmatchedTrials: unmatched.length,
      unmatchedArms: trials.reduce((sum, t) => sum + t.unmatchedArms.length, 0),
    },
  };
}
