import { AnswersKept } from './answers-kept.js';
import { binomialVerdict } from './binomial-verdict.js';
import type { AttemptsToSettle } from './types.js';
import { atMost } from './tie.js';
import { assertCounts, assertOpenUnit } from './validate.js';

/** Largest number of additional attempts `attemptsToSettle` looks at. */
const SETTLE_SEARCH_CAP = 100_000;

/**
 * Smallest n such that n successes out of n attempts give a one-sided (1 − alpha) Clopper–Pearson lower
 * bound ≥ threshold: with x = n the lower bound is alpha^(1/n) (Clopper & Pearson 1934), so
 * n = ⌈ln alpha / ln τ⌉ (τ = .8 → 14, .9 → 29, .95 → 59 at alpha = .05). The float ceiling is checked
 * against the defining inequality τⁿ ≤ alpha with the tie tolerance `binomialVerdict` uses, so the n it returns
 * is exactly the n at which n of n attempts PASS (τ = .05, alpha = .05: 1).
 */
export function attemptsToCertify(threshold: number, alpha = 0.05): number {
  assertOpenUnit('attemptsToCertify', 'threshold', threshold);
  assertOpenUnit('attemptsToCertify', 'alpha', alpha);
  const certifies = (n: number) => atMost(threshold ** n, alpha);
  let n = Math.max(1, Math.ceil(Math.log(alpha) / Math.log(threshold)));
  while (n > 1 && certifies(n - 1)) n--;
  while (!certifies(n)) n++;
  return n;
}

/** Smallest m in [0, cap] with holds(m), for a predicate that stays true once true; null if none. */
function firstTrue(holds: (m: number) => boolean, cap: number): number | null {
  if (!holds(cap)) return null;
  let lo = 0;
  let hi = cap;
  while (lo < hi) {
    const mid = Math.floor((lo + hi) / 2);
    if (holds(mid)) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

/**
 * How many more attempts would settle the verdict of x successes in n attempts against threshold τ,
 * judged by the one-sided (1 − alpha) Clopper–Pearson interval (PASS iff L ≥ τ, FAIL iff U < τ):
 * - toPass: fewest additional attempts, all successes, after which L(x + m, n + m) ≥ τ;
 * - toFail: fewest additional attempts, all failures, after which U(x, n + m) < τ.
 * 0 when the verdict already holds. Both bounds move monotonically with m (a success never lowers L, a
 * failure never raises U), so each is found by binary search over m ≤ 100,000; null beyond that.
 */
export function attemptsToSettle(x: number, n: number, threshold: number, alpha = 0.05): AttemptsToSettle {
  return settled.get([x, n, threshold, alpha], () => searchToSettle(x, n, threshold, alpha));
}
const settled = new AnswersKept<AttemptsToSettle>();

function searchToSettle(x: number, n: number, threshold: number, alpha: number): AttemptsToSettle {
  assertCounts('attemptsToSettle', x, n);
  assertOpenUnit('attemptsToSettle', 'threshold', threshold);
  assertOpenUnit('attemptsToSettle', 'alpha', alpha);
  const toPass = firstTrue((m) => binomialVerdict(x + m, n + m, threshold, alpha) === 'pass', SETTLE_SEARCH_CAP);
  const toFail = firstTrue((m) => binomialVerdict(x, n + m, threshold, alpha) === 'fail', SETTLE_SEARCH_CAP);
  return { toPass, toFail };
}
