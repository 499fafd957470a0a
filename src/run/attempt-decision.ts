import type { AttemptReason, AttemptStatus, Verdict } from '../model/index.js';
import { attemptVerdict, type AttemptVerdictInput } from '../aggregate/index.js';
import { attemptReasonText } from '../report/reasons.js';

/**
 * An attempt's verdict as its record keeps it: the decision as data (`why`, aggregate/attempt-verdict) and, once,
 * its words (`reason`, report/reasons). Every place that builds or re-judges an attempt goes through here, so the two
 * always agree.
 */
export function decideAttempt(input: AttemptVerdictInput & { status: Exclude<AttemptStatus, 'completed'> }): {
  verdict: 'UNKNOWN';
  why: AttemptReason;
  reason: string;
};
export function decideAttempt(input: AttemptVerdictInput): { verdict: Verdict; why: AttemptReason; reason: string };
export function decideAttempt(input: AttemptVerdictInput): { verdict: Verdict; why: AttemptReason; reason: string } {
  const { verdict, why } = attemptVerdict(input);
  return { verdict, why, reason: attemptReasonText(why) };
}
