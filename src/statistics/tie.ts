/**
 * Relative tolerance within which two floating-point quantities count as equal when a verdict compares them.
 * An exact bound can equal the threshold in real arithmetic (at τ = .05, α = .05 one success in one attempt has
 * L = α^(1/1) = .05) while the float roundings of the tail or the bisection fall on either side. Ties are decided
 * one way everywhere: a bound that reaches τ within this tolerance reaches it (L ≥ τ: PASS), and a bound within
 * it of τ is not below it (U < τ: FAIL needs U below τ by more than the tolerance). 1e-9 is far above the 1e-13
 * accuracy of the tails and far below any difference a declared τ or α can express.
 */
export const TIE_TOLERANCE = 1e-9;

/** a ≤ b, counting a tie within the tolerance (relative to b) as ≤. */
export function atMost(a: number, b: number): boolean {
  return a <= b + TIE_TOLERANCE * Math.max(Math.abs(b), Number.MIN_VALUE);
}

/** a < b by more than the tolerance (relative to b): a tie is not below. */
export function clearlyBelow(a: number, b: number): boolean {
  return a < b - TIE_TOLERANCE * Math.abs(b);
}
