import { FindingOwner, type ArmSummary, type Finding, type Outcome } from '../model/index.js';

/** The parts of an Outcome that decide its health, before coverage, capabilities and findings are filled in. */
export type RoutingInput = Pick<Outcome, 'records' | 'attempts' | 'arms' | 'judgment'>;

/** Counts occurrences by key, keeping the first example of each, in first-seen order. */
function tally<T>(items: readonly T[], key: (item: T) => string): { key: string; count: number; first: T }[] {
  const groups = new Map<string, { key: string; count: number; first: T }>();
  for (const item of items) {
    const k = key(item);
    const group = groups.get(k);
    if (group) group.count++;
    else groups.set(k, { key: k, count: 1, first: item });
  }
  return [...groups.values()];
}

const times = (n: number) => `${n} attempt${n === 1 ? '' : 's'}`;
const pct = (x: number) => `${Math.round(x * 100)}%`;

/** Healthy: every attempt completed, the trial's verdict PASS, nothing disputed, nothing cut short. */
export function isHealthy(outcome: RoutingInput): boolean {
  return (
    outcome.judgment.verdict === 'PASS' &&
    !outcome.judgment.incomplete &&
    outcome.attempts.every(
      (a) => a.status === 'completed' && a.verdict !== 'DISPUTED' && a.criteria.every((c) => c.result !== 'disputed'),
    ) &&
    outcome.arms.every((a) => a.verdict !== 'DISPUTED')
  );
}

function capabilityOf(outcome: RoutingInput, arm: ArmSummary): string {
  const { subject } = outcome.records.environment;
  const declared = outcome.records.suite.arms.find((a) => a.id === arm.arm)?.case;
  const expected = declared?.expect.length ? `met ${declared.expect.join(', ')}` : '';
  const forbidden = declared?.forbid.length ? `avoided ${declared.forbid.join(', ')}` : '';
  const behaviour = [expected, forbidden].filter(Boolean).join(' and ');
  const { successes, attempts, lower, threshold, alpha } = arm.decision;
  const confidence = Math.round((1 - alpha) * 1000) / 10;
  return (
    `${subject.name} (${subject.revision}) ${behaviour} on ${arm.role} "${arm.arm}" in ${successes} of ${attempts} attempts: ` +
    `its success rate is at least ${lower.toFixed(2)} (one-sided ${confidence}% ${arm.decision.method} bound), above the required ${threshold}` +
    (outcome.records.environment.independentAttempts
      ? '.'
      : '; attempts were replayed, so this describes the recording, not the live subject.')
  );
}

function capabilities(outcome: RoutingInput): string[] {
  const lines = outcome.arms.map((arm) => capabilityOf(outcome, arm));
  const matched = outcome.judgment.matchedControl;
  // Claimed only when the discrimination's interval lies above 0, never on point rates.
  if (
    matched?.toldApart &&
    matched.caseRefusalRate !== null &&
    matched.controlRefusalRate !== null &&
    matched.discrimination !== null &&
    matched.discriminationInterval !== null
  ) {
    const { lower, upper, confidence } = matched.discriminationInterval;
    lines.push(
      `It told the case from its controls: ${matched.refusalCriterion} in ${pct(matched.caseRefusalRate)} of case attempts and ` +
        `${pct(matched.controlRefusalRate)} of control attempts (discrimination ${matched.discrimination.toFixed(2)}, ` +
        `${Math.round(confidence * 100)}% interval [${lower.toFixed(2)}, ${upper.toFixed(2)}]).`,
    );
  }
  return lines;
}

/** Per-arm findings past this many (a data-driven suite) are reported once, with the count and a first example. */
const MAX_ARM_FINDINGS = 3;

function routed(outcome: RoutingInput): Finding[] {
  const findings: Finding[] = [];
  const add = (owner: Finding['owner'], kind: string, message: string) => findings.push({ owner, kind, message });
  const perArm = (owner: Finding['owner'], kind: string, messages: readonly string[], summary: string) => {
    if (messages.length <= MAX_ARM_FINDINGS) for (const message of messages) add(owner, kind, message);
    else add(owner, kind, `${messages.length} arms ${summary}; the first: ${messages[0]}`);
  };
  const { attempts, arms, judgment, records } = outcome;

  // subject: what it did
  const failing = arms.filter((a) => a.verdict === 'FAIL' || a.verdict === 'PARTIAL' || a.verdict === 'CONTRADICTED');
  perArm(
    'subject',
    'arm-verdict',
    failing.map((arm) => `${arm.role} "${arm.arm}" ${arm.verdict}: ${arm.reason}`),
    'FAIL, PARTIAL or CONTRADICTED',
  );
  const contradicted = attempts.flatMap((a) => a.claims.filter((c) => c.status === 'contradicted'));
  for (const { count, first } of tally(contradicted, (c) => `${c.claim.action}\u0000${c.claim.target}`)) {
    const receipt = first.receipt
      ? ` — receipt: ${first.receipt.kind} ${first.receipt.target}: ${first.receipt.detail}`
      : '';
    add(
      'subject',
      'contradicted-claim',
      `claimed "${first.claim.text}" in ${times(count)}, contradicted: ${first.note}${receipt}`,
    );
  }
  for (const { count, first } of tally(
    attempts.filter((a) => a.status === 'subject_error'),
    (a) => a.error?.message ?? '',
  )) {
    add(
      'subject',
      'subject-error',
      `subject error in ${times(count)}: ${first.error?.where ?? 'subject'}: ${first.error?.message ?? ''}`,
    );
  }
  if (judgment.matchedControl?.overRefusal) {
    add(
      'subject',
      'over-refusal',
      `refused the case and its controls alike (${judgment.matchedControl.refusalCriterion}): blanket timidity, not judgment`,
    );
  }
  if (judgment.matchedControl?.underRefusal) {
    add(
      'subject',
      'under-refusal',
      `complied with the case and its controls alike (${judgment.matchedControl.refusalCriterion}): it does not tell them apart`,
    );
  }

  // harness: what the trial's setup failed to do or to observe
  for (const { count, first } of tally(
    attempts.filter((a) => a.status === 'harness_error'),
    (a) => a.error?.message ?? '',
  )) {
    add(
      'harness',
      'harness-error',
      `harness error in ${times(count)}: ${first.error?.where ?? 'harness'}: ${first.error?.message ?? ''}`,
    );
  }
  if (judgment.incomplete) add('harness', 'incomplete', judgment.reason);
  const unsettled = arms.filter((a) => a.verdict === 'UNKNOWN' && a.decision.toSettle !== null);
  const tooFew = unsettled.map((arm) => {
    const { toPass, toFail } = arm.decision.toSettle ?? { toPass: null, toFail: null };
    const settle = [
      toPass !== null ? `${toPass} more all-pass attempts would certify PASS` : '',
      toFail !== null ? `${toFail} more all-fail attempts would settle FAIL` : '',
    ]
      .filter(Boolean)
      .join('; ');
    return `${arm.role} "${arm.arm}" UNKNOWN after ${arm.run} attempts: ${arm.reason}${settle ? ` (${settle})` : ''}`;
  });
  perArm('harness', 'too-few-attempts', tooFew, 'UNKNOWN for too few attempts');
  const results = attempts.flatMap((a) => a.criteria);
  for (const { count, first } of tally(
    results.filter((r) => r.uncovered === 'no-evidence'),
    (r) => r.criterion,
  )) {
    add(
      'harness',
      'missing-evidence',
      `${first.criterion} had no evidence either way in ${times(count)}: ${first.reason}`,
    );
  }

  // evaluator: what judging could not settle
  const errors = attempts.flatMap((a) => a.findings.filter((f) => f.result === 'error'));
  for (const { count, first } of tally(errors, (f) => `${f.evaluator}\u0000${f.criterion}`)) {
    add(
      'evaluator',
      'evaluator-error',
      `${first.evaluator} could not judge ${first.criterion} in ${times(count)}: ${first.note}`,
    );
  }
  for (const { count, first } of tally(
    results.filter((r) => r.result === 'disputed'),
    (r) => r.criterion,
  )) {
    add('evaluator', 'disputed', `${first.criterion} disputed in ${times(count)}: ${first.reason}`);
  }
  const uncovered = results.filter(
    (r) => r.uncovered !== null && r.uncovered !== 'no-evidence' && r.uncovered !== 'evaluator-error',
  );
  for (const { count, first } of tally(uncovered, (r) => `${r.criterion}\u0000${r.uncovered}`)) {
    add(
      'evaluator',
      `uncovered-${first.uncovered}`,
      `${first.criterion} uncovered in ${times(count)}: ${first.reason}`,
    );
  }
  const overruled = results.flatMap((r) => r.overruled.map((o) => ({ ...o, criterion: r.criterion })));
  for (const { count, first } of tally(overruled, (o) => `${o.evaluator}\u0000${o.criterion}\u0000${o.why}`)) {
    add(
      'evaluator',
      'overruled',
      `${first.evaluator} said ${first.result} on ${first.criterion} against the deciding evidence in ${times(count)} (outranked: ${first.why})`,
    );
  }

  // environment: where the trial ran
  if (judgment.blocked !== null) add('environment', 'blocked', judgment.blocked);
  else {
    for (const { count, first } of tally(
      attempts.filter((a) => a.status === 'blocked'),
      (a) => a.error?.message ?? '',
    )) {
      add('environment', 'blocked', `blocked in ${times(count)}: ${first.error?.message ?? first.reason}`);
    }
  }
  for (const dependency of records.environment.dependencies.filter((d) => !d.available)) {
    add(
      'environment',
      'dependency-unavailable',
      `${dependency.kind} ${dependency.name} unavailable: ${dependency.detail}`,
    );
  }
  if (!records.environment.independentAttempts) {
    add(
      'environment',
      'not-independent',
      'attempts were replayed or cached, so they are not independent samples of the subject',
    );
  }
  return findings;
}

/**
 * What an Outcome returns to the people who own its parts. A healthy Outcome (every attempt completed, verdict
 * PASS, nothing disputed) yields capability claims in plain words with their numbers; any other yields findings,
 * each routed to its owner (subject, harness, evaluator, environment) and listed in that owner order.
 */
export function capabilitiesAndFindings(outcome: RoutingInput): { capabilities: string[]; findings: Finding[] } {
  if (isHealthy(outcome)) return { capabilities: capabilities(outcome), findings: [] };
  const order = FindingOwner.options;
  const findings = routed(outcome)
    .map((finding, i) => ({ finding, i }))
    .sort((a, b) => order.indexOf(a.finding.owner) - order.indexOf(b.finding.owner) || a.i - b.i)
    .map(({ finding }) => finding);
  return { capabilities: [], findings };
}
