import { describe, expect, test } from 'vitest';
import { receiptFromOpenAI, receiptsFromAiSdk } from '../../../src/observe/index.js';

describe('receipt adapters', () => {
  test('an openai result without usage keeps the tokens and cost unknown, never 0', () => {
    expect(
      receiptFromOpenAI(
        { id: 'c1', model: 'm', usage: null },
        { pricing: { inputPerMillionUsd: 1, outputPerMillionUsd: 1 } },
      ),
    ).toEqual({
      provider: 'openai',
      id: 'c1',
      model: 'm',
      inputTokens: null,
      outputTokens: null,
      costUsd: null,
      latencyMs: null,
    });
  });

  test('an AI SDK result with several steps gives one receipt per step, latency unknown per step', () => {
    const step = (id: string, inputTokens: number | undefined) => ({
      model: { provider: 'acme.chat', modelId: 'acme-1' },
      response: { id, modelId: 'acme-1-0501' },
      usage: { inputTokens, outputTokens: 2 },
    });
    expect(
      receiptsFromAiSdk(
        { steps: [step('s1', 10), step('s2', undefined)] },
        { latencyMs: 99, pricing: { inputPerMillionUsd: 1_000_000, outputPerMillionUsd: 0 } },
      ),
    ).toEqual([
      {
        provider: 'acme.chat',
        id: 's1',
        model: 'acme-1-0501',
        inputTokens: 10,
        outputTokens: 2,
        costUsd: 10,
        latencyMs: null,
      },
      {
        provider: 'acme.chat',
        id: 's2',
        model: 'acme-1-0501',
        inputTokens: null,
        outputTokens: 2,
        costUsd: null,
        latencyMs: null,
      },
    ]);
  });
});
