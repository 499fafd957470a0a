import { describe, expect, it } from 'vitest';
import { costBreakdown, costBreakdownOf, costOf, receiptCostUsd, type Receipt } from '../../../src/model/index.js';

/** How the breakdown was computed before it read attempts as they are: the reference it must equal, member order and all (JSON.stringify, as the Outcome file is written). */
function reference(attempts: readonly { arm: string; index: number; receipts: readonly Receipt[] }[], prices = {}) {
  const rows = attempts.map((a) => {
    const { inputTokens, outputTokens, usd } = costOf(a.receipts, prices);
    return { arm: a.arm, index: a.index, inputTokens, outputTokens, usd };
  });
  const arms = [...new Set(rows.map((r) => r.arm))].map((arm) => ({
    arm,
    ...costOf(
      attempts.filter((a) => a.arm === arm).flatMap((a) => a.receipts),
      prices,
    ),
  }));
  return { arms, attempts: rows };
}

describe('costBreakdown', () => {
  it('equals the breakdown of copies, byte for byte in JSON.stringify, with and without receipts, prices and known costs', () => {
    let seed = 99;
    const random = () => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed / 2147483648;
    };
    const receipt = (i: number): Receipt => ({
      provider: 'p',
      id: `r${i}`,
      model: random() < 0.5 ? 'priced' : 'unpriced',
      inputTokens: random() < 0.2 ? null : Math.floor(random() * 1000),
      outputTokens: random() < 0.2 ? null : Math.floor(random() * 1000),
      costUsd: random() < 0.3 ? random() / 7 : null,
      latencyMs: null,
    });
    const prices = { priced: { inputPerMillionUsd: 3, outputPerMillionUsd: 15 } };
    for (let round = 0; round < 50; round += 1) {
      const attempts = Array.from({ length: Math.floor(random() * 40) }, (_, index) => ({
        arm: ['case', 'control', 'trap'][Math.floor(random() * 3)] as string,
        index,
        receipts: random() < 0.6 ? [] : Array.from({ length: 1 + Math.floor(random() * 3) }, (_, i) => receipt(i)),
      }));
      expect(JSON.stringify(costBreakdown(attempts, prices))).toBe(JSON.stringify(reference(attempts, prices)));
      expect(JSON.stringify(costBreakdown(attempts))).toBe(JSON.stringify(reference(attempts)));
      const records = attempts.map((a) => ({ arm: a.arm, index: a.index, observation: { receipts: a.receipts } }));
      expect(costBreakdownOf(records, (r) => r.observation.receipts, prices)).toEqual(reference(attempts, prices));
    }
  });

  it('gives an attempt without receipts a zero row, and arms in order of first appearance', () => {
    const attempts = [
      { arm: 'control', index: 0, receipts: [] },
      { arm: 'case', index: 0, receipts: [] },
    ];
    expect(costBreakdown(attempts)).toEqual({
      arms: [
        { arm: 'control', usd: null, inputTokens: 0, outputTokens: 0 },
        { arm: 'case', usd: null, inputTokens: 0, outputTokens: 0 },
      ],
      attempts: [
        { arm: 'control', index: 0, inputTokens: 0, outputTokens: 0, usd: null },
        { arm: 'case', index: 0, inputTokens: 0, outputTokens: 0, usd: null },
      ],
    });
  });
});

describe('receiptCostUsd', () => {
  it('prices a receipt only by a model the table declares, never by a member every object inherits', () => {
    const prices = { priced: { inputPerMillionUsd: 1, outputPerMillionUsd: 2 } };
    const receipt = (model: string): Receipt => ({
      provider: 'p',
      id: 'r',
      model,
      inputTokens: 1_000_000,
      outputTokens: 1_000_000,
      costUsd: null,
      latencyMs: null,
    });
    expect(receiptCostUsd(receipt('priced'), prices)).toBe(3);
    // Before, `constructor` found Object's own constructor as its "price": a NaN cost no record can hold.
    for (const model of ['constructor', 'toString', '__proto__', 'hasOwnProperty'])
      expect(receiptCostUsd(receipt(model), prices)).toBeNull();
  });
});
