import {
  CASE_SCHEMA,
  type Case,
  type Criterion,
  type CriterionFinding,
  type EvidenceGrade,
  type EvidenceRef,
  type Evaluator,
  type Observation,
  type Rubric,
} from '../model/index.js';
import { createEvidenceRecorder, createObservationView, refersTo, weakestGrade } from './evidence.js';
import {
  NoEvidence,
  type CheckFinding,
  type EvaluatorDefinition,
  type ExpectFunction,
  type SoftAssertions,
} from './evaluator.js';
import { settleScore, type SettledFinding } from './scores.js';

/**
 * Assertion failures of the usual hosts: chai's AssertionError (Vitest's built-in matchers), Jest's
 * `matcherResult`, and the errors Vitest's `expect.extend` throws for custom matchers (they carry the matcher's
 * context). Anything else a check throws is the evaluator's own failure.
 */
function isAssertion(error: unknown): error is Error {
  if (!(error instanceof Error)) return false;
  return (
    error.name === 'AssertionError' ||
    error.name === 'JestAssertionError' ||
    'matcherResult' in error ||
    '__vitest_error_context__' in error
  );
}

function isNoEvidence(error: unknown): error is Error {
  return error instanceof NoEvidence || (error instanceof Error && error.name === 'NoEvidence');
}

function isCheckFinding(value: unknown): value is CheckFinding {
  if (typeof value !== 'object' || value === null) return false;
  // Asked with `in` before anything is read: a concise check `(o) => expect(o.reply).toMatch(…)` returns Vitest's
  // assertion, a proxy that throws on reading a property it does not know. Such an answer is a check that passed.
  if (!('result' in value) || !('note' in value)) return false;
  const { result, note } = value as Partial<CheckFinding>;
  return (
    (result === 'met' || result === 'unmet' || result === 'unknown' || result === 'disputed') &&
    typeof note === 'string'
  );
}

/**
 * The grade a check's finding rests on: the weakest grade of any evidence it read, since its answer may hang on
 * any of it (a check that reads the files and then decides on the reply text is a text finding, whatever else it
 * read); null when none of the evidence is about the criterion's target.
 */
export function gradeFor(criterion: Pick<Criterion, 'target'>, evidence: readonly EvidenceRef[]): EvidenceGrade | null {
  if (!evidence.some((ref) => refersTo(ref, criterion.target))) return null;
  return weakestGrade(evidence.map((ref) => ref.grade));
}

/**
 * Whether an evaluator's findings on a criterion may decide it: a calibration entry for the criterion says so
 * (its floors met or not); without one, a model judge is untrusted and mechanical, rubric and human evaluators
 * are trusted.
 */
export function trustedFor(record: Evaluator, criterion: string): boolean {
  const entry = record.calibration?.criteria.find((c) => c.criterion === criterion);
  if (entry) return entry.trusted;
  return record.kind !== 'model-judge';
}

type Settled = SettledFinding;

/** What a check's return value means for its criterion (scores: evaluate/scores `settleScore`). */
function settle(criterion: Criterion, returned: unknown, check: unknown): Settled {
  const scored = settleScore(criterion, returned, check);
  if (scored) return scored;
  const stated = isCheckFinding(returned) ? returned : null;
  if (criterion.labels) {
    const { vocabulary, met } = criterion.labels;
    if (stated?.result === 'unknown' || stated?.result === 'disputed')
      return { result: stated.result, label: null, note: stated.note, score: null };
    const label = stated ? stated.label : returned;
    if (typeof label !== 'string') {
      return {
        result: 'error',
        label: null,
        score: null,
        note: `multi-class criterion "${criterion.name}" needs a label from [${vocabulary.join(', ')}]; the check returned ${JSON.stringify(label ?? null)}`,
      };
    }
    if (!vocabulary.includes(label)) {
      return {
        result: 'error',
        label: null,
        score: null,
        note: `label ${JSON.stringify(label)} is outside the declared vocabulary [${vocabulary.join(', ')}]`,
      };
    }
    return {
      result: met.includes(label) ? 'met' : 'unmet',
      label,
      note: stated?.note ?? `labelled ${label}`,
      score: null,
    };
  }
  if (stated) return { result: stated.result, label: stated.label, note: stated.note, score: null };
  if (returned === undefined || isAssertionChain(returned))
    return { result: 'met', label: null, note: 'check passed', score: null };
  // A predicate's answer: `(o) => o.reply === 'done'` fails by returning false.
  if (typeof returned === 'boolean')
    return returned
      ? { result: 'met', label: null, note: 'check returned true', score: null }
      : { result: 'unmet', label: null, note: 'check returned false', score: null };
  if (typeof returned === 'string') {
    return {
      result: 'error',
      label: null,
      score: null,
      note: `criterion "${criterion.name}" has no label vocabulary, but the check returned the label ${JSON.stringify(returned)}: pass or throw instead, or declare labels on the criterion`,
    };
  }
  // Anything else is no answer riddle can read: taking it as met turned a check's `null` or a finding missing its note
  // into a PASS.
  const malformed =
    typeof returned === 'object' && returned !== null && 'result' in returned
      ? `a finding riddle cannot read (${findingProblem(returned)})`
      : describeAnswer(returned);
  return {
    result: 'error',
    label: null,
    score: null,
    note: `the check for criterion "${criterion.name}" returned ${malformed}: a check passes by returning nothing or true, fails by throwing an assertion or returning false, or returns a finding { result: 'met' | 'unmet' | 'unknown' | 'disputed', label, note }`,
  };
}

/**
 * The assertion a concise check returns, `(o) => expect(o.reply).toMatch(…)`: chai's Assertion (Vitest's matchers),
 * which keeps its flags in `__flags`. Asked with `in`: the assertion is a proxy that throws on reading a property it
 * does not know.
 */
function isAssertionChain(value: unknown): boolean {
  return typeof value === 'object' && value !== null && '__flags' in value;
}

/** What is wrong with an answer shaped like a finding (it has a `result`). */
function findingProblem(value: object): string {
  const { result, note } = value as { result?: unknown; note?: unknown };
  const problems: string[] = [];
  if (result !== 'met' && result !== 'unmet' && result !== 'unknown' && result !== 'disputed')
    problems.push(`result ${describeAnswer(result)} is not met, unmet, unknown or disputed`);
  if (typeof note !== 'string') problems.push(`note is ${describeAnswer(note)}, not a string`);
  return problems.join('; ');
}

function describeAnswer(value: unknown): string {
  if (value === null || value === undefined) return String(value);
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'object') return 'an object';
  if (typeof value === 'string') return JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value);
  if (typeof value === 'function') return 'a function';
  return `${typeof value} ${String(value)}`;
}

/**
 * The Case checks see when evaluators run outside a trial (calibration controls, evaluator tests): it expects the
 * criteria being judged and carries no input of its own.
 */
export function standInCase(id: string, expect: readonly string[]): Case {
  return {
    schema: CASE_SCHEMA,
    id,
    input: null,
    followUps: [],
    fixtures: null,
    expect: [...expect],
    forbid: [],
    oracle: null,
    effectClass: 'none',
    stop: { timeoutMs: 60_000, maxOutputBytes: 65_536, maxRounds: 1 },
    dependencies: [],
    sealed: false,
    tags: {},
    pressure: null,
    trap: null,
  };
}

export interface GatherInput {
  observation: Observation;
  case: Case;
  arm: string;
  /** 0-based repetition index within the arm. */
  attempt: number;
  rubric: Rubric;
  evaluators: readonly EvaluatorDefinition[];
  expect: ExpectFunction;
  /** Failures the host records without throwing (`expect.soft`); absent where the host has none. */
  softAssertions?: SoftAssertions;
}

/**
 * Checks under way in this process, and how many have started: an asynchronous check (a judge awaiting a model) may
 * run while another attempt's does, and a soft failure recorded meanwhile could be either's.
 */
const checksUnderWay = { running: 0, started: 0 };

/**
 * The finding a check's soft failures make of what it settled to: unmet, their messages its note (after an assertion
 * it threw), unless the check erred; an evaluator error when another check ran meanwhile and could have recorded them.
 */
function withSoftFailures(settled: Settled, failures: readonly string[], alone: boolean): Settled {
  if (!alone)
    return {
      result: 'error',
      label: null,
      score: null,
      note: `expect.soft recorded ${failures.length} failure${failures.length === 1 ? '' : 's'} while checks of other attempts ran, so riddle cannot tell whose (${failures[0]}): use expect, which throws, in checks`,
    };
  if (settled.result === 'error')
    return { ...settled, note: `${settled.note}; and expect.soft: ${failures.join('; ')}` };
  const earlier = settled.result === 'unmet' ? [settled.note] : [];
  return { result: 'unmet', label: null, score: null, note: [...failures, ...earlier].join('; ') };
}

/**
 * Run every evaluator's check on every criterion it judges, against the retained Observation only. Each check
 * yields one finding; nothing here decides a verdict.
 */
export async function gatherFindings(input: GatherInput): Promise<CriterionFinding[]> {
  const findings: CriterionFinding[] = [];
  for (const evaluator of input.evaluators) {
    const { record } = evaluator;
    for (const criterionName of record.criteria) {
      const criterion = input.rubric.criteria.find((c) => c.name === criterionName);
      if (!criterion) continue;
      const recorder = createEvidenceRecorder();
      const finish = ({ result, label, note, score }: Settled): CriterionFinding => ({
        criterion: criterionName,
        evaluator: record.id,
        result,
        label,
        grade:
          result === 'met' || result === 'unmet' || result === 'disputed' ? gradeFor(criterion, recorder.refs) : null,
        evidence: [...recorder.refs],
        note,
        trusted: trustedFor(record, criterionName),
        independent: record.independence.independent,
        adjudicator: record.adjudicator === true,
        judge: recorder.exchange,
        score,
      });
      const check = evaluator.checks[criterionName];
      if (!check) {
        findings.push(
          finish({
            result: 'error',
            label: null,
            note: `evaluator ${record.id} declares criterion "${criterionName}" but has no check for it`,
            score: null,
          }),
        );
        continue;
      }
      const soft = input.softAssertions;
      const softBefore = soft ? soft.count() : 0;
      const startedAfter = checksUnderWay.started;
      const othersRunning = checksUnderWay.running > 0;
      checksUnderWay.running += 1;
      checksUnderWay.started += 1;
      let settled: Settled;
      try {
        const checked = check(createObservationView(input.observation, recorder), {
          expect: input.expect,
          case: input.case,
          arm: input.arm,
          attempt: input.attempt,
          criterion: criterionName,
          unknown(reason: string): never {
            throw new NoEvidence(reason);
          },
          record: (ref) => recorder.record(ref),
          retain: (exchange) => recorder.retain(exchange),
        });
        // Only a promise (or thenable) is awaited: a check that returns at once makes no promise for every attempt.
        const returned = typeof (checked as PromiseLike<unknown> | null)?.then === 'function' ? await checked : checked;
        settled = settle(criterion, returned, check);
      } catch (error) {
        if (isNoEvidence(error)) settled = { result: 'unknown', label: null, note: error.message, score: null };
        else if (isAssertion(error)) settled = { result: 'unmet', label: null, note: error.message, score: null };
        else {
          const note = `${record.id} failed on ${criterionName}: ${error instanceof Error ? error.message : String(error)}`;
          settled = { result: 'error', label: null, note, score: null };
        }
      } finally {
        checksUnderWay.running -= 1;
      }
      const softFailures = soft ? soft.takeSince(softBefore) : [];
      if (softFailures.length > 0) {
        const alone = !othersRunning && checksUnderWay.started === startedAfter + 1;
        settled = withSoftFailures(settled, softFailures, alone);
      }
      findings.push(finish(settled));
    }
  }
  return findings;
}
