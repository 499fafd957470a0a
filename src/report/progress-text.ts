import type { TrialProgress, Verdict } from '../model/index.js';

const ORDER: readonly Verdict[] = ['PASS', 'PARTIAL', 'FAIL', 'CONTRADICTED', 'DISPUTED', 'UNKNOWN'];

/**
 * One line of a running trial's progress: attempts done of planned, the verdict tally so far, and per arm what the
 * stopping rule decided. `trial "x": 12/40 attempts · 10 PASS · 2 FAIL · curtail n=20 · case stopped: pass after 7`
 */
export function formatProgress(progress: TrialProgress): string {
  const done = progress.arms.reduce((sum, arm) => sum + arm.done, 0);
  const planned = progress.arms.reduce((sum, arm) => sum + arm.planned, 0);
  const tally = ORDER.flatMap((verdict) => {
    const count = progress.arms.reduce((sum, arm) => sum + (arm.verdicts[verdict] ?? 0), 0);
    return count > 0 ? [`${count} ${verdict}`] : [];
  });
  const stopped = progress.arms.filter((arm) => arm.stopped !== null);
  const stoppedText =
    stopped.length === 0
      ? []
      : stopped.length <= 3
        ? stopped.map((arm) => `${arm.arm} stopped: ${arm.stopped} after ${arm.done}`)
        : [`${stopped.length} of ${progress.arms.length} arms stopped`];
  return [`trial "${progress.trial}": ${done}/${planned} attempts`, ...tally, progress.rule, ...stoppedText].join(
    ' · ',
  );
}
