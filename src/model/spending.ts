import { z } from 'zod';
import { lazySchema } from './lazy-schema.js';
import type { Receipt } from './observation.js';

/** Prices in USD per million tokens, by model id as the provider's receipt names it. */
export const PriceTable = lazySchema(() =>
  z.record(z.string(), z.object({ inputPerMillionUsd: z.number().min(0), outputPerMillionUsd: z.number().min(0) })),
);
export type PriceTable = z.infer<typeof PriceTable>;

/** Tokens and USD spent; `usd` is null when no receipt had a cost and no declared price covered its model. */
export const Cost = lazySchema(() =>
  z.object({
    usd: z.number().nullable(),
    inputTokens: z.number().int(),
    outputTokens: z.number().int(),
  }),
);
export type Cost = z.infer<typeof Cost>;

/** A receipt's cost: its own, else its tokens at the declared price of its model, else unknown (null). */
export function receiptCostUsd(receipt: Receipt, prices: PriceTable): number | null {
  if (receipt.costUsd !== null) return receipt.costUsd;
  // Own members only: a model named `constructor` or `toString` has no declared price.
  const price = Object.hasOwn(prices, receipt.model) ? prices[receipt.model] : undefined;
  if (price === undefined || receipt.inputTokens === null || receipt.outputTokens === null) return null;
  return (receipt.inputTokens * price.inputPerMillionUsd + receipt.outputTokens * price.outputPerMillionUsd) / 1e6;
}

/** Total cost of some receipts; USD is the sum of the known costs, null when none is known. */
export function costOf(receipts: readonly Receipt[], prices: PriceTable = {}): Cost {
  const known = receipts.map((r) => receiptCostUsd(r, prices)).filter((c): c is number => c !== null);
  return {
    usd: known.length > 0 ? known.reduce((a, b) => a + b, 0) : null,
    inputTokens: receipts.reduce((sum, r) => sum + (r.inputTokens ?? 0), 0),
    outputTokens: receipts.reduce((sum, r) => sum + (r.outputTokens ?? 0), 0),
  };
}

/** A trial's declared budget: attempts that would start once any limit is spent are blocked instead. */
export const Budget = lazySchema(() =>
  z.object({
    /** USD from receipts (or the price table). */
    usd: z.number().positive().nullable(),
    /** Input + output tokens from receipts. */
    tokens: z.number().int().positive().nullable(),
    /** Wall time of the whole trial, in milliseconds. */
    wallMs: z.number().positive().nullable(),
  }),
);
export type Budget = z.infer<typeof Budget>;

/** What a budget allowed, what was spent, and whether it stopped the trial. */
export const BudgetRecord = lazySchema(() =>
  z.object({
    declared: Budget,
    spent: z.object({ usd: z.number().nullable(), tokens: z.number().int(), wallMs: z.number() }),
    /** Why attempts were blocked (the limit that was spent), or null when the budget was never spent. */
    exhausted: z.string().nullable(),
    /** Attempts blocked because the budget was spent. */
    blockedAttempts: z.number().int().min(0),
  }),
);
export type BudgetRecord = z.infer<typeof BudgetRecord>;

/** Per arm and per attempt costs, besides the trial total. */
export const CostBreakdown = lazySchema(() =>
  z.object({
    arms: z.array(Cost.extend({ arm: z.string() })),
    attempts: z.array(Cost.extend({ arm: z.string(), index: z.number().int() })),
  }),
);
export type CostBreakdown = z.infer<typeof CostBreakdown>;

/** A provider call the harness retried (rate limit, transient error), never the subject's failure. */
export const ProviderRetry = lazySchema(() =>
  z.object({
    url: z.string(),
    status: z.number().int(),
    /** 1-based retry number. */
    retry: z.number().int().min(1),
    /** How long the harness waited before retrying, in milliseconds (from retry-after, or backoff). */
    waitMs: z.number(),
  }),
);
export type ProviderRetry = z.infer<typeof ProviderRetry>;

/** The provider traffic of a trial: recorded, replayed or live, with retries per attempt. */
export const ProviderTraffic = lazySchema(() =>
  z.object({
    mode: z.enum(['live', 'record', 'replay']),
    /** Recordings folder of this trial, relative to the project root. */
    folder: z.string(),
    /** Fingerprint of the recordings the trial ran against (replay) or wrote (record); null when live. */
    recordings: z.string().nullable(),
    attempts: z.array(
      z.object({
        arm: z.string(),
        index: z.number().int(),
        exchanges: z.number().int(),
        replayed: z.number().int(),
        retries: z.array(ProviderRetry),
        /** Why the harness failed the attempt (retries exhausted, request not recorded), or null. */
        failure: z.string().nullable(),
      }),
    ),
  }),
);
export type ProviderTraffic = z.infer<typeof ProviderTraffic>;

/** One attempt's row of a CostBreakdown: its receipts' cost, a zero row (`usd` null) when it has none. */
export function costRow(
  attempt: { arm: string; index: number },
  receipts: readonly Receipt[],
  prices: PriceTable,
): CostBreakdown['attempts'][number] {
  // Members in canonical order: canonical JSON then sorts none of the rows.
  if (receipts.length === 0)
    return { arm: attempt.arm, index: attempt.index, inputTokens: 0, outputTokens: 0, usd: null };
  const { inputTokens, outputTokens, usd } = costOf(receipts, prices);
  return { arm: attempt.arm, index: attempt.index, inputTokens, outputTokens, usd };
}

/** Cost per attempt and per arm (arms in order of first appearance), from each attempt's receipts. */
export function costBreakdown(
  attempts: readonly { arm: string; index: number; receipts: readonly Receipt[] }[],
  prices: PriceTable = {},
): CostBreakdown {
  return costBreakdownOf(attempts, (attempt) => attempt.receipts, prices);
}

/**
 * `costBreakdown` of any records, each one's receipts read with `receiptsOf`: an Outcome's attempts are broken down
 * as they are, without a copy of each (a trial of 100,000 attempts has as many rows). An attempt without receipts
 * gets its zero row at once.
 */
export function costBreakdownOf<T extends { arm: string; index: number }>(
  attempts: readonly T[],
  receiptsOf: (attempt: T) => readonly Receipt[],
  prices: PriceTable = {},
): CostBreakdown {
  const rows: CostBreakdown['attempts'] = [];
  // Each arm's receipts, arms in order of first appearance.
  const byArm = new Map<string, Receipt[]>();
  // Indexed: run once a trial, unoptimised, where for…of makes an iterator result for every attempt.
  for (let i = 0; i < attempts.length; i += 1) {
    const attempt = attempts[i] as T;
    const receipts = receiptsOf(attempt);
    let armReceipts = byArm.get(attempt.arm);
    if (armReceipts === undefined) {
      armReceipts = [];
      byArm.set(attempt.arm, armReceipts);
    }
    for (const receipt of receipts) armReceipts.push(receipt);
    rows.push(costRow(attempt, receipts, prices));
  }
  const arms = [...byArm].map(([arm, receipts]) => ({ arm, ...costOf(receipts, prices) }));
  return { arms, attempts: rows };
}
