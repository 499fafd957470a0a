import { stripVTControlCharacters } from 'node:util';
import { describe, expect, it } from 'vitest';
import { expect as vitestExpect } from 'vitest';
import type { Clock, Outcome } from '../../../src/model/index.js';
import type { AttemptContext } from '../../../src/observe/index.js';
import { resolveTrial, runTrial, type TrialPlan } from '../../../src/run/index.js';
import { compareRuns } from '../../../src/aggregate/index.js';
import { renderDiffTerminal } from '../../../src/report/diff.js';
import { renderTerminal } from '../../../src/report/index.js';
import { anEnvironment } from '../builders.js';

const rubric = { criteria: { answers: { description: 'answers', needs: 'text' as const } } };
const checks = {
  answers: (observation: { reply: unknown }) => {
    vitestExpect(String(observation.reply)).toMatch(/^yes/);
  },
};

async function run(
  subject: (input: unknown, context: AttemptContext) => string,
  extra: Pick<TrialPlan, 'budget' | 'prices'>,
  clock: Clock = { now: () => Date.now() },
): Promise<Outcome> {
  const resolved = resolveTrial(
    { name: 'budget trial', file: 'budget.test.ts', path: [] },
    { subject, rubric, checks, case: { input: 'a', expect: ['answers'] }, repeat: { n: 6, stop: 'fixed' } },
  );
  return runTrial(
    { ...resolved, environment: anEnvironment(), unavailable: [], fixtures: {}, ...extra },
    { clock, expect: vitestExpect },
  );
}

const receipt = (context: AttemptContext, costUsd: number | null) =>
  context.recordReceipt({
    provider: 'test',
    id: `r${context.attempt}`,
    model: 'm',
    inputTokens: 100,
    outputTokens: 50,
    costUsd,
    latencyMs: null,
  });

describe('budgets', () => {
  it('blocks the attempts after the cost budget is spent, says so in the stopping record, and decides on what ran', async () => {
    const outcome = await run(
      (_input, context) => {
        receipt(context, 0.01);
        return 'yes';
      },
      { budget: { usd: 0.025, tokens: null, wallMs: null } },
    );
    expect(outcome.attempts.map((a) => a.status)).toEqual([
      'completed',
      'completed',
      'completed',
      'blocked',
      'blocked',
      'blocked',
    ]);
    expect(outcome.attempts[3]?.error).toEqual({ where: 'budget', message: 'cost budget spent: $0.03 of $0.025' });
    expect(outcome.execution.budget).toMatchObject({
      exhausted: 'cost budget spent: $0.03 of $0.025',
      blockedAttempts: 3,
      spent: { tokens: 450 },
    });
    expect(outcome.execution.stopping).toEqual([
      { arm: 'case', afterAttempts: 3, decision: 'budget', rule: 'cost budget spent: $0.03 of $0.025' },
    ]);
    const [arm] = outcome.arms;
    expect(arm?.statuses.blocked).toBe(3);
    expect(arm?.verdicts.PASS).toBe(3);
    expect(arm?.verdict).not.toBe('PASS');
    expect(outcome.cost.attempts.map((a) => a.usd)).toEqual([0.01, 0.01, 0.01, null, null, null]);
    // Colours are on wherever CI is set (picocolors reads it); the words are what this test checks.
    const text = stripVTControlCharacters(renderTerminal([outcome], []));
    expect(text).toContain('cost $0.03 · 300 in / 150 out tokens');
    expect(text).toContain('budget cost budget spent: $0.03 of $0.025; 3 attempts blocked, verdicts on what ran');
  });

  it('costs receipts without a cost at the declared price, and stops on tokens', async () => {
    const byPrice = await run(
      (_input, context) => {
        receipt(context, null);
        return 'yes';
      },
      {
        budget: { usd: 0.0004, tokens: null, wallMs: null },
        prices: { m: { inputPerMillionUsd: 1, outputPerMillionUsd: 2 } },
      },
    );
    // 100 × $1/M + 50 × $2/M = $0.0002 per attempt: spent after 2.
    expect(byPrice.attempts.filter((a) => a.status === 'completed')).toHaveLength(2);
    expect(byPrice.cost.usd).toBeCloseTo(0.0004, 12);
    expect(byPrice.cost.arms).toEqual([{ arm: 'case', usd: byPrice.cost.usd, inputTokens: 200, outputTokens: 100 }]);

    const byTokens = await run(
      (_input, context) => {
        receipt(context, null);
        return 'yes';
      },
      { budget: { usd: null, tokens: 400, wallMs: null } },
    );
    expect(byTokens.attempts.filter((a) => a.status === 'completed')).toHaveLength(3);
    expect(byTokens.execution.budget?.exhausted).toBe('token budget spent: 450 of 400 tokens');
  });

  it('stops on wall time read from the injected clock', async () => {
    let now = 0;
    const outcome = await run(
      () => {
        now += 400;
        return 'yes';
      },
      { budget: { usd: null, tokens: null, wallMs: 1000 } },
      { now: () => now },
    );
    expect(outcome.attempts.filter((a) => a.status === 'completed')).toHaveLength(3);
    expect(outcome.execution.budget?.exhausted).toBe('wall-time budget spent: 1200 ms of 1000 ms');
  });

  it('shows what each side of a diff spent', async () => {
    const costing = (usd: number) => (_input: unknown, context: AttemptContext) => {
      receipt(context, usd);
      return 'yes';
    };
    const a = await run(costing(0.01), {});
    const b = await run(costing(0.02), {});
    const comparison = compareRuns([a], [b], { a: { label: 'A', runId: null }, b: { label: 'B', runId: null } });
    const text = stripVTControlCharacters(
      renderDiffTerminal(
        comparison,
        new Map([
          [a.id, a.cost],
          [b.id, b.cost],
        ]),
      ),
    );
    expect(text).toMatch(/cost\s+A \$0\.06 · 600 in \/ 300 out tokens → B \$0\.12 · 600 in \/ 300 out tokens/);
  });

  it('refuses a malformed budget or provider list at declaration, naming the field', () => {
    const declare = (extra: object) => () =>
      resolveTrial(
        { name: 'bad', file: 'bad.test.ts', path: [] },
        { subject: () => 'yes', rubric, checks, case: { input: 'a', expect: ['answers'] }, ...extra },
      );
    expect(declare({ budget: { usd: -1 } })).toThrow(/budget\.usd/);
    expect(declare({ providers: { hosts: [] } })).toThrow(/providers\.hosts/);
    expect(declare({ providers: { hosts: ['https://api.openai.com/v1'], mode: 'rewind' } })).toThrow(/providers\.mode/);
    const resolved = declare({ providers: { hosts: ['api.openai.com'] }, budget: { tokens: 500 } })();
    expect(resolved.spendingBudget).toEqual({ usd: null, tokens: 500, wallMs: null });
    expect(resolved.providerSetup).toMatchObject({
      origins: [{ baseUrl: 'https://api.openai.com', concurrency: null, variable: null }],
      mode: null,
      folder: 'recordings/bad/bad',
    });
  });
});
