import { normalQuantile } from './normal-quantile.js';
import type { RoganGladenInput, RoganGladenResult } from './types.js';
import { assertInteger, assertOpenUnit } from './validate.js';

/**
 * A rate measured through an imperfect judge, corrected for the judge's sensitivity Se = TP/(TP + FN)
 * and specificity Sp = TN/(TN + FP) estimated on labelled controls.
 *
 * Rogan & Gladen (1978), Am. J. Epidemiol. 107:71–76: θ̂ = (p̂ + Sp − 1)/(Se + Sp − 1), clipped to [0, 1].
 * Delta-method variance with all three estimates uncertain (Lee et al. 2025, "How to Correctly Report
 * LLM-as-a-Judge Evaluations", arXiv 2511.21140; Greenland 1988): with J = Se + Sp − 1,
 *   Var(θ̂) ≈ [p̂(1 − p̂)/n + θ̂²·Se(1 − Se)/n_pos + (1 − θ̂)²·Sp(1 − Sp)/n_neg] / J²,
 * θ̂ clipped, and the two-sided (1 − alpha) Wald interval θ̂ ± z·SE clipped to [0, 1]. Requires a judge
 * better than chance (Se + Sp > 1) and at least one control of each kind.
 */
export function roganGladen(input: RoganGladenInput, opts: { alpha?: number } = {}): RoganGladenResult {
  const where = 'roganGladen';
  const alpha = opts.alpha ?? 0.05;
  assertOpenUnit(where, 'alpha', alpha);
  assertInteger(where, 'n', input.n, 1);
  assertInteger(where, 'positives', input.positives, 0, input.n);
  const { tp, fn } = input.sensitivity;
  const { tn, fp } = input.specificity;
  for (const [name, value] of [
    ['sensitivity.tp', tp],
    ['sensitivity.fn', fn],
    ['specificity.tn', tn],
    ['specificity.fp', fp],
  ] as const) {
    assertInteger(where, name, value, 0);
  }
  const positiveControls = tp + fn;
  const negativeControls = tn + fp;
  if (positiveControls === 0 || negativeControls === 0) {
    throw new RangeError(
      `${where}: needs at least one labelled positive and one labelled negative control (got ${positiveControls} and ${negativeControls})`,
    );
  }
  const se = tp / positiveControls;
  const sp = tn / negativeControls;
  const youden = se + sp - 1;
  if (youden <= 0) {
    throw new RangeError(
      `${where}: the judge is no better than chance (sensitivity ${se} + specificity ${sp} must exceed 1); calibrate or replace it`,
    );
  }
  const naive = input.positives / input.n;
  const raw = (naive + sp - 1) / youden;
  const corrected = Math.min(1, Math.max(0, raw));
  const variance =
    ((naive * (1 - naive)) / input.n +
      (corrected ** 2 * se * (1 - se)) / positiveControls +
      ((1 - corrected) ** 2 * sp * (1 - sp)) / negativeControls) /
    youden ** 2;
  const standardError = Math.sqrt(variance);
  const z = -normalQuantile(alpha / 2);
  return {
    naive,
    corrected,
    se: standardError,
    lower: Math.max(0, corrected - z * standardError),
    upper: Math.min(1, corrected + z * standardError),
    clipped: raw < 0 || raw > 1,
  };
}
