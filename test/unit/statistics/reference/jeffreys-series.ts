/**
 * Reference Jeffreys bounds by a different algorithm than the code under test: the incomplete beta by
 * its hypergeometric power series (Abramowitz & Stegun 26.5.4)
 *   I_x(a, b) = x^a (1 − x)^b / (a·B(a, b)) · Σ_{j≥0} [(a + b)_j / (a + 1)_j] x^j,
 * all terms positive, with B(m + ½, k + ½) = π·(2m)!(2k)!/(4^(m+k)·m!·k!·(m + k)!) exact in BigInt,
 * and quantiles by plain bisection.
 */

const factorials: bigint[] = [1n];

function factorial(n: number): bigint {
  for (let i = factorials.length; i <= n; i++) factorials.push((factorials[i - 1] as bigint) * BigInt(i));
  return factorials[n] as bigint;
}

/** ln of a positive BigInt, from its top 60 bits. */
function lnBig(v: bigint): number {
  const bits = v.toString(2).length;
  const shift = Math.max(0, bits - 60);
  return Math.log(Number(v >> BigInt(shift))) + shift * Math.LN2;
}

/** ln B(m + ½, k + ½) for integers m, k ≥ 0. */
function lnBetaHalfIntegers(m: number, k: number): number {
  const numerator = factorial(2 * m) * factorial(2 * k);
  const denominator = (1n << BigInt(2 * (m + k))) * factorial(m) * factorial(k) * factorial(m + k);
  return Math.log(Math.PI) + lnBig(numerator) - lnBig(denominator);
}

/** I_x(a, b) by the power series; for x below the mean a/(a + b), where the terms decrease. */
function seriesCdf(x: number, a: number, b: number, lnB: number): number {
  if (x === 0) return 0;
  let term = 1;
  let sum = 1;
  for (let j = 0; term > 1e-18 * sum; j++) {
    term *= ((a + b + j) / (a + 1 + j)) * x;
    sum += term;
  }
  return Math.exp(a * Math.log(x) + b * Math.log1p(-x) - lnB - Math.log(a)) * sum;
}

/** The x in [0, hi] with seriesCdf(x) = target, by bisection to adjacent doubles. */
function bisect(target: number, a: number, b: number, lnB: number): number {
  let lo = 0;
  let hi = a / (a + b);
  for (;;) {
    const mid = lo + (hi - lo) / 2;
    if (mid <= lo || mid >= hi) return mid;
    if (seriesCdf(mid, a, b, lnB) < target) lo = mid;
    else hi = mid;
  }
}

/** Jeffreys bounds for x of n with `tail` error in each tail. */
export function referenceJeffreys(x: number, n: number, tail: number): { lower: number; upper: number } {
  const lnB = lnBetaHalfIntegers(x, n - x);
  const a = x + 0.5;
  const b = n - x + 0.5;
  return {
    lower: x === 0 ? 0 : bisect(tail, a, b, lnB),
    upper: x === n ? 1 : 1 - bisect(tail, b, a, lnB),
  };
}
