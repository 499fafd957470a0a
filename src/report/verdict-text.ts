import type { ArmSummary, Outcome } from '../model/index.js';
import { formatSampleReason, sampleReasons } from './sample-reasons.js';
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

/** One line per trial: verdict, each arm's rate and interval. Used for annotations and compact listings. */
export function summaryLine(outcome: Outcome): string {
  const arms = outcome.arms
    .map(
      (arm) =>
        `${arm.arm} ${arm.verdict} ${arm.decision.successes}/${arm.decision.attempts} [${pct(arm.decision.lower)}, ${pct(arm.decision.upper)}]`,
    )
    .join('; ');
  return neutraliseText(`${outcome.judgment.verdict} — ${arms}`);
}

/** Up to three sample reasons why attempts did not pass, each with its attempt reference. */
function sampleLines(outcome: Outcome): string[] {
  const samples = sampleReasons(outcome, 3);
  return samples.length
    ? ['  why attempts did not pass (samples):', ...samples.map((r) => `    ${formatSampleReason(r)}`)]
    : [];
}

/** The failure message of a trial's test: the verdict, why, and each arm's distribution. */
export function formatVerdictFailure(outcome: Outcome): string {
  const lines = [
    `trial verdict ${outcome.judgment.verdict}: ${outcome.judgment.reason}`,
    ...outcome.arms.map(
      (arm) =>
        `  ${arm.role} "${arm.arm}": ${arm.verdict} — ${armTally(arm)}; exact one-sided bounds [${pct(arm.decision.lower)}, ${pct(arm.decision.upper)}] vs τ ${arm.decision.threshold}`,
    ),
    ...sampleLines(outcome),
    ...outcome.warnings.map((w) => `  warning: ${w}`),
    `  (the test passes on ${outcome.records.suite.aggregation.passOn.join(', ')}; set passOn to change that)`,
  ];
  return neutraliseText(lines.join('\n'));
}
