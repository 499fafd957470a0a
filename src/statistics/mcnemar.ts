import { betaTails } from './incomplete-beta.js';
import type { McNemarResult } from './types.js';
import { assertInteger } from './validate.js';

/**
 * Exact McNemar test for paired binary outcomes (McNemar 1947, Psychometrika 12:153–157; exact form:
 * Fagerland, Lydersen & Laake 2013, BMC Med. Res. Methodol. 13:91). Under H0 the b discordant pairs of
 * b + c are Binomial(b + c, ½); the two-sided p-value is min(1, 2·P(X ≤ min(b, c))), with
 * P(X ≤ k) = 1 − I_½(k + 1, b + c − k) (Abramowitz & Stegun 26.5.24). No discordant pair, or a split
 * as even as possible (the smaller tail is then at least ½), gives exactly 1.
 */
export function mcnemarExact(b: number, c: number): McNemarResult {
  assertInteger('mcnemarExact', 'b', b, 0);
  assertInteger('mcnemarExact', 'c', c, 0);
  const n = b + c;
  const k = Math.min(b, c);
  if (2 * k + 1 >= n) return { b, c, pValue: 1 };
  const lowerTail = betaTails(0.5, k + 1, n - k).upper;
  return { b, c, pValue: Math.min(1, 2 * lowerTail) };
}
