import { betaTails } from './incomplete-beta.js';
import { atMost, clearlyBelow } from './tie.js';

/** Verdict of x successes in n attempts against a declared threshold. */
export type BinomialVerdict = 'pass' | 'fail' | 'inconclusive';

/**
 * P(X ≥ x) for X ~ Bin(n, p), 1 ≤ x ≤ n, through I_p(x, n − x + 1) (Abramowitz & Stegun 26.5.24).
 */
function upperBinomialTail(x: number, n: number, p: number): number {
  return betaTails(p, x, n - x + 1).lower;
}

/** P(X ≤ x) for X ~ Bin(n, p), 0 ≤ x < n, as 1 − I_p(x + 1, n − x) (Abramowitz & Stegun 26.5.24). */
function lowerBinomialTail(x: number, n: number, p: number): number {
  return betaTails(p, x + 1, n - x).upper;
}

/**
 * Verdict of the one-sided (1 − alpha) Clopper–Pearson interval against threshold τ:
 * PASS iff the lower bound L ≥ τ, FAIL iff the upper bound U < τ, otherwise inconclusive.
 *
 * Evaluated without root finding: the binomial tails are monotone in p, so
 *   L ≥ τ ⇔ P(X ≥ x | n, τ) ≤ alpha (x ≥ 1)   and   U < τ ⇔ P(X ≤ x | n, τ) < alpha (x < n)
 * (Clopper & Pearson 1934: L and U are where those tails equal alpha). A tail equal to alpha within
 * `TIE_TOLERANCE` is a tie, decided as the bound reaching τ: PASS, and not FAIL (see tie.ts). Arguments are
 * assumed valid, with 0 < τ < 1.
 */
export function binomialVerdict(x: number, n: number, threshold: number, alpha: number): BinomialVerdict {
  if (x >= 1 && atMost(upperBinomialTail(x, n, threshold), alpha)) return 'pass';
  if (x < n && clearlyBelow(lowerBinomialTail(x, n, threshold), alpha)) return 'fail';
  return 'inconclusive';
}

/** The success counts that decide a fixed-n verdict. */
export interface VerdictThresholds {
  /** Smallest x that gives PASS; n + 1 if none does. */
  readonly minPass: number;
  /** Largest x that gives FAIL; −1 if none does. */
  readonly maxFail: number;
}

const thresholdCache = new Map<string, VerdictThresholds>();
const THRESHOLD_CACHE_LIMIT = 4096;

/**
 * Success counts that decide the fixed-n one-sided Clopper–Pearson verdict. The PASS set is closed
 * upwards in x and the FAIL set downwards (the CP bounds increase with x), so each boundary is found by
 * binary search. Memoised, because stopping rules ask the same question after every attempt.
 */
export function verdictThresholds(n: number, threshold: number, alpha: number): VerdictThresholds {
  const key = `${n}|${threshold}|${alpha}`;
  const cached = thresholdCache.get(key);
  if (cached) return cached;
  // Smallest x in [0, n + 1] with PASS (n + 1 stands for none).
  let lo = 0;
  let hi = n + 1;
  while (lo < hi) {
    const mid = Math.floor((lo + hi) / 2);
    if (binomialVerdict(mid, n, threshold, alpha) === 'pass') hi = mid;
    else lo = mid + 1;
  }
  const minPass = lo;
  // Largest x in [−1, n] with FAIL (−1 stands for none).
  lo = -1;
  hi = n;
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    if (binomialVerdict(mid, n, threshold, alpha) === 'fail') lo = mid;
    else hi = mid - 1;
  }
  const result: VerdictThresholds = Object.freeze({ minPass, maxFail: lo });
  if (thresholdCache.size >= THRESHOLD_CACHE_LIMIT) thresholdCache.clear();
  thresholdCache.set(key, result);
  return result;
}
