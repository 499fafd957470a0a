import { lnChoose } from './gamma.js';
import { assertInteger } from './validate.js';

/** c successes of n ≥ 1 attempts, 1 ≤ k ≤ n. */
function checkRepeatedAttempts(where: string, c: number, n: number, k: number): void {
  assertInteger(where, 'n', n, 1);
  assertInteger(where, 'c', c, 0, n);
  assertInteger(where, 'k', k, 1, n);
}

/**
 * Unbiased estimate of pass@k, the chance that at least one of k attempts succeeds, from c successes
 * in n ≥ k attempts: 1 − C(n − c, k)/C(n, k) (Chen et al. 2021, "Evaluating Large Language Models
 * Trained on Code", arXiv 2107.03374, eq. 1). Computed as 1 − Π_{i=n−c+1}^{n} (1 − k/i), their
 * numerically stable form, summed in log space (log1p/expm1): no overflow at any n.
 */
export function passAtK(c: number, n: number, k: number): number {
  checkRepeatedAttempts('passAtK', c, n, k);
  if (n - c < k) return 1;
  let logAllFail = 0;
  for (let i = n - c + 1; i <= n; i++) logAllFail += Math.log1p(-k / i);
  return -Math.expm1(logAllFail);
}

/**
 * Unbiased estimate of pass^k, the chance that all k attempts succeed, from c successes in n ≥ k
 * attempts: C(c, k)/C(n, k) (Yao et al. 2024, "τ-bench", arXiv 2406.12045), computed as
 * Π_{i=0}^{k−1} (c − i)/(n − i) in log space.
 */
export function passHatK(c: number, n: number, k: number): number {
  checkRepeatedAttempts('passHatK', c, n, k);
  if (c < k) return 0;
  let logAllPass = 0;
  for (let i = 0; i < k; i++) logAllPass += Math.log((c - i) / (n - i));
  return Math.exp(logAllPass);
}

/**
 * Unbiased estimate of the chance that at least j of k attempts succeed, from c successes in n ≥ k
 * attempts: the hypergeometric tail Σ_{i=j}^{min(c,k)} C(c, i)·C(n − c, k − i)/C(n, k), each term in log
 * space. When j is at or below the mean kc/n the complement 1 − Σ_{i<j} is summed instead, so the
 * smaller tail is the one added up. j = 1 gives pass@k, j = k gives pass^k.
 */
export function atLeastJOfK(c: number, n: number, k: number, j: number): number {
  checkRepeatedAttempts('atLeastJOfK', c, n, k);
  assertInteger('atLeastJOfK', 'j', j, 0, k);
  const logTotal = lnChoose(n, k);
  const term = (i: number): number => Math.exp(lnChoose(c, i) + lnChoose(n - c, k - i) - logTotal);
  const lowest = Math.max(0, k - (n - c));
  const highest = Math.min(c, k);
  let sum = 0;
  if (j * n <= k * c) {
    for (let i = lowest; i < j; i++) sum += term(i);
    return Math.min(1, Math.max(0, 1 - sum));
  }
  for (let i = Math.max(j, lowest); i <= highest; i++) sum += term(i);
  return Math.min(1, sum);
}
