import { policyChangesText } from './policy-changes-text.js';
import type { ArmSummary, Outcome } from '../model/index.js';
import { armDigest, roleText, unquotedText } from './arm-digest.js';
import { formatSampleReason, sampleReasons, type SampleReason } from './sample-reasons.js';
import { neutraliseText } from './safe-text.js';

const pct = (x: number | null) => (x === null ? '—' : x.toFixed(2));

/** `PASS 20/20` style tally of an arm's attempt verdicts, errors named apart. */
export function armTally(arm: ArmSummary): string {
  const parts = Object.entries(arm.verdicts)
    .filter(([, count]) => count > 0)
    .map(([verdict, count]) => `${count} ${verdict}`);
  const errors = Object.entries(arm.statuses)
    .filter(([status, count]) => status !== 'completed' && count > 0)
    .map(([status, count]) => `${count} ${status}`);
  const notRun = arm.notRun.count > 0 ? [`${arm.notRun.count} not run`] : [];
  return [...parts, ...(errors.length ? [`(${errors.join(', ')})`] : []), ...notRun].join(' · ') || 'no attempts';
}

/**
 * An arm's rate as the decision counts it: `7/10 = 0.70 [0.40, 0.89]`, on the decision's denominator, with the
 * attempts in it that had no verdict named (errors counted as not passing), the exclusions of the `exclude` policy
 * named beside it (`14/14 = 1.00 …, 6 subject_error excluded`), and the required-criteria share when it differs.
 */
export function armRate(arm: ArmSummary): string {
  const { successes, attempts } = arm.decision;
  if (attempts === 0 && arm.exclusions.length === 0) return 'rate —';
  const interval = arm.wilson ? ` [${pct(arm.wilson.lower)}, ${pct(arm.wilson.upper)}]` : '';
  const parts = [`${successes}/${attempts} = ${pct(arm.rate)}${interval}`];
  const counted = arm.exclusions.length === 0 ? arm.verdicts.UNKNOWN : 0;
  if (counted > 0) parts.push(`${counted} without a verdict counted as not passing`);
  if (arm.exclusions.length > 0) {
    const byStatus = new Map<string, number>();
    for (const e of arm.exclusions) byStatus.set(e.status, (byStatus.get(e.status) ?? 0) + 1);
    parts.push(
      `${[...byStatus].map(([status, n]) => `${n} ${status === 'completed' ? 'uncovered' : status}`).join(', ')} excluded`,
    );
  }
  if (arm.required && arm.required.successes !== successes)
    parts.push(`${arm.required.successes}/${arm.required.attempts} met every required criterion`);
  return parts.join(', ');
}

const armBounds = (arm: ArmSummary) =>
  `${arm.arm} ${arm.verdict} ${arm.decision.successes}/${arm.decision.attempts} [${pct(arm.decision.lower)}, ${pct(arm.decision.upper)}]`;

/**
 * One line per trial: verdict, each arm's rate and interval. Used for annotations and compact listings. A trial of many
 * arms gives its arms per role and quotes a few with its verdict (report/arm-digest), so the line stays short.
 */
export function summaryLine(outcome: Outcome): string {
  const digest = armDigest(outcome);
  const arms = digest
    ? [
        ...digest.roles.map(roleText),
        ...digest.quoted.map(({ arm }) => armBounds(arm)),
        unquotedText(digest, outcome.judgment.verdict),
      ]
    : outcome.arms.map(armBounds);
  return neutraliseText(`${outcome.judgment.verdict} — ${arms.join('; ')}`);
}

/** Up to three sample reasons why attempts did not pass, each with its attempt reference. */
function sampleLines(samples: readonly SampleReason[]): string[] {
  return samples.length
    ? ['  why attempts did not pass (samples):', ...samples.map((r) => `    ${formatSampleReason(r)}`)]
    : [];
}

const failureArmLine = (arm: ArmSummary) =>
  `  ${arm.role} "${arm.arm}": ${arm.verdict} — ${armTally(arm)}; ${armRate(arm)}; exact one-sided bounds [${pct(arm.decision.lower)}, ${pct(arm.decision.upper)}] vs τ ${arm.decision.threshold}`;

/** Each arm's line, or for a trial of many arms its tallies per role and a few arms with its verdict. */
function failureArmLines(outcome: Outcome): string[] {
  const digest = armDigest(outcome);
  if (!digest) return outcome.arms.map(failureArmLine);
  return [
    ...digest.roles.map((tally) => `  ${roleText(tally)}`),
    ...digest.quoted.map(({ arm }) => failureArmLine(arm)),
    `  ${unquotedText(digest, outcome.judgment.verdict)}`,
  ];
}

/**
 * The failure message of a trial's test: the verdict, why, and each arm's distribution (per role past `MAX_LISTED`
 * arms). `samples`: why attempts did not pass, when the attempts are not in the Outcome (read from its attempts file a
 * line at a time); else taken from its attempts.
 */
export function formatVerdictFailure(
  outcome: Outcome,
  samples: readonly SampleReason[] = sampleReasons(outcome, 3),
): string {
  // A verdict the test would pass on fails it only because the declared policy changed after results were seen
  // (model/test-result trialTestResult): the message leads with that, not with a verdict that reads as a pass.
  const policyChanged = outcome.registration?.status === 'changed' && outcome.judgment.testOutcome !== 'fail';
  const lines = [
    ...(policyChanged
      ? [
          `the declared policy changed after results were seen${outcome.registration?.changes?.length ? ` (${policyChangesText(outcome.registration.changes)})` : ''} (earlier Outcome ${outcome.registration?.earlierOutcome}): the test fails until the new policy is accepted on purpose with RIDDLE_ACCEPT_POLICY=1, or the registered one is declared again`,
        ]
      : []),
    `trial verdict ${outcome.judgment.verdict}: ${outcome.judgment.reason}`,
    ...failureArmLines(outcome),
    ...sampleLines(samples),
    ...outcome.warnings.map((w) => `  warning: ${w}`),
    ...(policyChanged
      ? []
      : [`  (the test passes on ${outcome.records.suite.aggregation.passOn.join(', ')}; set passOn to change that)`]),
  ];
  return neutraliseText(lines.join('\n'));
}
