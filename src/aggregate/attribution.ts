import {
  fingerprint,
  type Attribution,
  type AttributionLink,
  type AttemptRecord,
  type CompositionResult,
  type CompositionStep,
  type CompositionSuite,
  type CompositionSummary,
  type CompositionTrace,
  type Verdict,
} from '../model/index.js';
import { binomialVerdict, clopperPearson } from '../statistics/index.js';

function linkOf(step: CompositionStep): AttributionLink {
  const base = { composition: step.composition, iteration: step.iteration };
  if (step.status === 'crashed') return { ...base, state: 'crashed' };
  if (step.outputCheck?.result === 'invalid') return { ...base, state: 'invalid-output' };
  if (step.criteria.some((c) => c.result === 'unmet')) return { ...base, state: 'unmet-criterion' };
  if (step.criteria.some((c) => c.result === 'error')) return { ...base, state: 'criterion-error' };
  return { ...base, state: 'met' };
}

/** An attempt passed end to end when its verdict is PASS; anything else asks whose part failed. */
const passedEndToEnd = (verdict: Verdict) => verdict === 'PASS';

/**
 * Whose part an attempt's failure was, from the evidence along the path it took (the steps in the order run):
 * - a handoff that broke its type is the producer's (the attempt's own input breaking the entry's type: the harness's);
 * - a composition that crashed on a valid payload is that composition's (the graph only hands on valid payloads);
 * - an attempt unmet end to end is the first composition along the path whose own criterion failed;
 * - unmet end to end with every composition's criteria met stays unattributed, its path kept.
 * The chain holds every pass up to and including the one attributed (the whole path when none is).
 */
export function attribute(trace: CompositionTrace, verdict: Verdict): Attribution {
  const links = trace.steps.map(linkOf);
  const upTo = (i: number) => links.slice(0, i + 1);
  const { stopped } = trace;
  if (stopped.kind === 'invalid-handoff') {
    const at = trace.steps.findLastIndex(
      (s) => s.composition === stopped.producer && s.iteration === stopped.iteration,
    );
    const handoff = trace.handoffs.findLast(
      (h) => h.producer === stopped.producer && h.consumer === stopped.consumer && h.check.result === 'invalid',
    );
    const issues = handoff?.check.result === 'invalid' ? handoff.check.issues : [];
    return {
      kind: 'invalid-handoff',
      composition: stopped.producer,
      consumer: stopped.consumer,
      chain: at >= 0 ? upTo(at) : [],
      note: issues.map((i) => `${i.path}: ${i.message}`).join('; '),
    };
  }
  if (stopped.kind === 'crashed') {
    const at = trace.steps.findLastIndex(
      (s) => s.composition === stopped.composition && s.iteration === stopped.iteration,
    );
    return {
      kind: 'crash',
      composition: stopped.composition,
      chain: at >= 0 ? upTo(at) : links,
      note: trace.steps[at]?.error ?? '',
    };
  }
  if (passedEndToEnd(verdict)) return { kind: 'none' };
  const first = links.findIndex((l) => l.state === 'unmet-criterion');
  const step = trace.steps[first];
  if (step) {
    const unmet = step.criteria.find((c) => c.result === 'unmet');
    return {
      kind: 'criterion',
      composition: step.composition,
      criterion: unmet?.criterion ?? '',
      chain: upTo(first),
      note: unmet?.note ?? '',
    };
  }
  return {
    kind: 'unattributed',
    chain: links,
    note: `unmet end to end (${verdict}), yet every composition along the path met its own criteria`,
  };
}

const interval = (met: number, judged: number, alpha: number) => {
  if (judged === 0) return null;
  const { lower, upper, confidence } = clopperPearson(met, judged, { alpha, sided: 'two' });
  return { lower, upper, confidence };
};

/** Sum of the readings present; null when none was measured. */
const sumOf = (values: readonly (number | null)[]) =>
  values.some((v) => v !== null) ? values.reduce<number>((sum, v) => sum + (v ?? 0), 0) : null;

/** A composition's own observation over all its passes (every attempt, every round and loop iteration). */
function observedOf(steps: readonly CompositionStep[]): NonNullable<CompositionResult['observed']> {
  const watched = steps.filter((s) => s.observation.files !== null);
  const peaks = steps.map((s) => s.observation.resources.peakRssBytes).filter((v) => v !== null);
  return {
    passes: steps.length,
    files: watched.length === 0 ? null : watched.reduce((n, s) => n + (s.observation.files?.length ?? 0), 0),
    tools: steps.reduce((n, s) => n + s.observation.tools.length, 0),
    toolErrors: steps.reduce((n, s) => n + s.observation.tools.filter((t) => t.error !== null).length, 0),
    receipts: steps.reduce((n, s) => n + s.observation.receipts.length, 0),
    cpuMs: sumOf(steps.map((s) => s.observation.resources.cpuMs)),
    peakRssBytes: peaks.length === 0 ? null : Math.max(...peaks),
  };
}

function resultOf(
  node: CompositionSuite['compositions'][number],
  traced: readonly { trace: CompositionTrace; attribution: Attribution }[],
  threshold: number,
  alpha: number,
): CompositionResult {
  let ran = 0;
  let crashed = 0;
  let invalidOutputs = 0;
  let successes = 0;
  let attributed = 0;
  const criteria = new Map(node.criteria.map((c) => [c, { met: 0, judged: 0 }]));
  for (const { trace, attribution } of traced) {
    const steps = trace.steps.filter((s) => s.composition === node.name);
    if (attribution.kind !== 'none' && attribution.kind !== 'unattributed' && attribution.composition === node.name)
      attributed += 1;
    if (steps.length === 0) continue;
    ran += 1;
    if (steps.some((s) => s.status === 'crashed')) crashed += 1;
    if (steps.some((s) => s.outputCheck?.result === 'invalid')) invalidOutputs += 1;
    if (steps.every((s) => linkOf(s).state === 'met')) successes += 1;
    for (const [criterion, tally] of criteria) {
      const results = steps.flatMap((s) => s.criteria.filter((c) => c.criterion === criterion));
      // Judged only where every pass gave it valid output to judge; a criterion error is not a judgment.
      if (results.length === 0 || results.some((r) => r.result === 'error')) continue;
      tally.judged += 1;
      if (results.every((r) => r.result === 'met')) tally.met += 1;
    }
  }
  const decided = ran === 0 ? 'inconclusive' : binomialVerdict(successes, ran, threshold, alpha);
  const verdict: Verdict = decided === 'pass' ? 'PASS' : decided === 'fail' ? 'FAIL' : 'UNKNOWN';
  const share = `${successes} of ${ran} attempts it ran in`;
  const reason =
    ran === 0
      ? 'never reached: every attempt stopped before it'
      : verdict === 'PASS'
        ? `${share} met its type and own criteria: the share is certified at least ${threshold}`
        : verdict === 'FAIL'
          ? `${share} met its type and own criteria: the share is bounded below ${threshold}`
          : `${share} met its type and own criteria: too few to settle against ${threshold}`;
  return {
    composition: node.name,
    owner: node.owner,
    version: node.version,
    ran,
    notReached: traced.length - ran,
    crashed,
    invalidOutputs,
    criteria: [...criteria].map(([criterion, { met, judged }]) => ({
      criterion,
      met,
      judged,
      rate: judged > 0 ? met / judged : null,
      interval: interval(met, judged, alpha),
    })),
    successes,
    rate: ran > 0 ? successes / ran : null,
    interval: interval(successes, ran, alpha),
    verdict,
    reason,
    attributed,
    observed: observedOf(traced.flatMap(({ trace }) => trace.steps.filter((s) => s.composition === node.name))),
  };
}

/**
 * A trial through a Composition Suite, per attempt and per composition: each attempt's attribution, and each
 * composition's own share of attempts it ran in with valid output and every own criterion met, with exact
 * Clopper–Pearson intervals and a verdict on the Rubric's threshold and α. Null when no attempt ran through one.
 */
export function summarizeCompositions(
  suite: CompositionSuite | null,
  attempts: readonly AttemptRecord[],
  threshold: number,
  alpha: number,
): CompositionSummary | null {
  if (suite === null) return null;
  const traced = attempts.flatMap((attempt) => {
    const trace = attempt.observation?.composition ?? null;
    return trace === null ? [] : [{ attempt, trace, attribution: attribute(trace, attempt.verdict) }];
  });
  return {
    suite,
    fingerprint: fingerprint(suite),
    attempts: traced.map(({ attempt, trace, attribution }) => ({
      arm: attempt.arm,
      index: attempt.index,
      stopped: trace.stopped,
      attribution,
    })),
    results: suite.compositions.map((node) => resultOf(node, traced, threshold, alpha)),
  };
}
