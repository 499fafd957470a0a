/**
 * Exact reference for binomial tails, independent of the code under test: every double is a dyadic
 * rational m/2^e, so binomial tails at a double p can be compared with a double target exactly in
 * BigInt arithmetic. No rounding anywhere.
 */

/** v = num / 2^exp exactly. */
interface Dyadic {
  num: bigint;
  exp: number;
}

function toDyadic(v: number): Dyadic {
  if (!Number.isFinite(v) || v < 0) throw new RangeError(`toDyadic: ${v}`);
  let scaled = v;
  let exp = 0;
  while (!Number.isInteger(scaled)) {
    scaled *= 2;
    exp++;
  }
  return { num: BigInt(scaled), exp };
}

const rows = new Map<number, bigint[]>();

/** Row n of Pascal's triangle. */
function binomialRow(n: number): bigint[] {
  const cached = rows.get(n);
  if (cached) return cached;
  const row: bigint[] = [1n];
  for (let k = 1; k <= n; k++) row.push(((row[k - 1] as bigint) * BigInt(n - k + 1)) / BigInt(k));
  rows.set(n, row);
  return row;
}

/**
 * Σ_{j=x}^{n} C(n, j) P^j Q^(n−j) by Horner's scheme in P (with p = P/2^K, 1 − p = Q/2^K the sum
 * over 2^(K·n) is P(X ≥ x)).
 */
function scaledUpperTail(x: number, n: number, P: bigint, Q: bigint): bigint {
  const row = binomialRow(n);
  let acc = row[n] as bigint;
  let qPower = 1n;
  for (let j = n - 1; j >= x; j--) {
    qPower *= Q;
    acc = acc * P + (row[j] as bigint) * qPower;
  }
  return acc * P ** BigInt(x);
}

function compareTail(x: number, n: number, p: number, target: number, lowerTail: boolean): -1 | 0 | 1 {
  const { num: P, exp: K } = toDyadic(p);
  const Q = (1n << BigInt(K)) - P;
  const tail = lowerTail ? scaledUpperTail(n - x, n, Q, P) : scaledUpperTail(x, n, P, Q);
  const { num: A, exp: Ka } = toDyadic(target);
  const left = tail << BigInt(Ka);
  const right = A << BigInt(K * n);
  return left === right ? 0 : left > right ? 1 : -1;
}

/** Exact sign of P(X ≥ x | n, p) − target for doubles p in [0, 1] and target. */
export function upperTailSign(x: number, n: number, p: number, target: number): -1 | 0 | 1 {
  return compareTail(x, n, p, target, false);
}

/** Exact sign of P(X ≤ x | n, p) − target for doubles p in [0, 1] and target. */
export function lowerTailSign(x: number, n: number, p: number, target: number): -1 | 0 | 1 {
  return compareTail(x, n, p, target, true);
}

/**
 * Exact sign of the Wilson score quadratic (x − np)² − z²·n·p(1 − p) at a double p, for a double z:
 * negative strictly inside the Wilson interval, positive outside.
 */
export function wilsonScoreSign(x: number, n: number, p: number, z: number): -1 | 0 | 1 {
  const { num: P, exp: K } = toDyadic(p);
  const { num: Z, exp: Kz } = toDyadic(z);
  const one = 1n << BigInt(K);
  const deviation = BigInt(x) * one - BigInt(n) * P;
  const left = (deviation * deviation) << BigInt(2 * Kz);
  const right = Z * Z * BigInt(n) * P * (one - P);
  return left === right ? 0 : left > right ? 1 : -1;
}
