import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { expect as vitestExpect } from 'vitest';
import { canonicalJson, type AttemptRecord, type Outcome } from '../../../src/model/index.js';
import type { AttemptContext } from '../../../src/observe/index.js';
import {
  AttemptStream,
  OutcomeFromTransit,
  outcomeForTransit,
  resolveTrial,
  runTrial,
  type OutcomeInTransit,
} from '../../../src/run/index.js';
import { anEnvironment } from '../builders.js';

const folders: string[] = [];
afterEach(() => {
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

const lines = (file: string): AttemptRecord[] =>
  readFileSync(file, 'utf8')
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as AttemptRecord);

/**
 * A trial of two interleaved arms at concurrency 3 (attempts finish out of order), whose subject spends tokens in
 * every third attempt: some at the declared price, some at a cost of their own, and some with receipts of no tokens.
 */
async function streamedTrial(
  policy: { missingEvidence: 'bound' | 'exclude'; order: 'interleaved' | 'shuffled' } = {
    missingEvidence: 'bound',
    order: 'interleaved',
  },
): Promise<Outcome> {
  const folder = mkdtempSync(path.join(tmpdir(), 'riddle-transit-'));
  folders.push(folder);
  const subject = async (_input: unknown, context: AttemptContext) => {
    await new Promise((resolve) => setTimeout(resolve, (context.attempt * 7) % 5));
    if (context.attempt % 3 === 0)
      context.recordReceipt({
        provider: 'test',
        id: `r${context.attempt}`,
        model: 'm',
        inputTokens: context.attempt % 2 === 0 ? 100 : 0,
        outputTokens: context.attempt % 2 === 0 ? 50 : 0,
        costUsd: context.attempt % 4 === 0 ? 0.01 : null,
        latencyMs: 1,
      });
    return 'yes';
  };
  const resolved = resolveTrial(
    { name: 'transit trial', file: 'transit.test.ts', path: [] },
    {
      subject,
      revision: 'transit@1',
      rubric: {
        criteria: {
          answers: { description: 'answers', needs: 'text' },
          spends: { description: 'spends through a provider', needs: 'receipt' },
        },
        missingEvidence: policy.missingEvidence,
      },
      checks: {
        answers: (o) => void vitestExpect(String(o.reply)).toMatch(/^yes/),
        // Covered by a receipt where the attempt has one; text alone leaves it uncovered.
        spends: (o) =>
          void (o.receipts.length > 0
            ? vitestExpect(o.receipts[0]?.provider).toBe('test')
            : vitestExpect(String(o.reply)).toMatch(/^yes/)),
      },
      case: { input: 'a', expect: ['answers', 'spends'] },
      control: { input: 'b', expect: ['answers', 'spends'] },
      repeat: { n: 12, stop: 'fixed', concurrency: 3, order: policy.order, seed: 5 },
    },
  );
  return runTrial(
    { ...resolved, environment: anEnvironment(), unavailable: [], fixtures: {}, prices },
    {
      clock: { now: () => Date.now() },
      expect: vitestExpect,
      attempts: new AttemptStream(path.join(folder, 'trial.attempts.jsonl')),
    },
  );
}

/** The trial's declared prices: receipts without a cost of their own are priced by them. */
const prices = { m: { inputPerMillionUsd: 1, outputPerMillionUsd: 2 } };

/** What the reporter does: the Outcome back together from its attempts file, line by line. */
function rebuilt(transit: OutcomeInTransit, attempts: readonly AttemptRecord[]): Outcome {
  const { leftOut } = transit;
  if (leftOut === null) throw new Error('nothing was left out');
  const whole = new OutcomeFromTransit({ outcome: transit.outcome, leftOut }, 'trial.attempts.jsonl');
  for (const attempt of attempts) whole.take(attempt);
  return whole.finish();
}

describe('an Outcome in transit', () => {
  it('leaves out the order and the zero cost rows, and is put back together from its attempts file exactly', async () => {
    const outcome = await streamedTrial();
    expect(outcome.execution.order).toHaveLength(24);
    const transit = outcomeForTransit(outcome, prices);
    expect(transit.outcome.execution.order).toEqual([]);
    expect(transit.outcome.cost.attempts).toEqual([]);
    expect(transit.outcome.coverage.map((row) => row.uncoveredAttempts)).toEqual([[], []]);
    // Each criterion's uncovered attempts travel as a count only.
    const spends = outcome.coverage.find((row) => row.criterion === 'spends');
    expect(spends?.uncoveredAttempts.length).toBeGreaterThan(0);
    expect(spends?.covered).toBeGreaterThan(0);
    // No cost row travels, not even of the attempts that spent something (tokens at the declared price, or a cost of
    // their own): each is made again from its line's receipts at the prices that travel instead.
    const spent = outcome.cost.attempts.filter((row) => row.inputTokens > 0 || row.usd !== null);
    expect(spent.length).toBeGreaterThan(0);
    expect(spent.some((row) => row.usd !== null && row.inputTokens > 0)).toBe(true);
    expect(transit.leftOut?.prices).toEqual(prices);
    // What crosses to the main process is a fraction of the whole.
    expect(JSON.stringify(transit).length).toBeLessThan(JSON.stringify(outcome).length);

    const back = rebuilt(transit, lines(outcome.attemptsFile as string));
    // The same bytes in the Outcome file (members in the same order) and the same canonical JSON the id was taken of.
    expect(JSON.stringify(back, null, 2)).toBe(JSON.stringify(outcome, null, 2));
    expect(canonicalJson(back)).toBe(canonicalJson(outcome));
  });

  it("leaves out each arm's exclusions under the exclude policy, and rebuilds them in index order", async () => {
    const outcome = await streamedTrial({ missingEvidence: 'exclude', order: 'shuffled' });
    const transit = outcomeForTransit(outcome, prices);
    expect(transit.leftOut?.exclusions).toBe(true);
    expect(transit.outcome.arms.map((arm) => arm.exclusions)).toEqual([[], []]);
    expect(outcome.arms.every((arm) => arm.exclusions.length > 0)).toBe(true);
    const attempts = lines(outcome.attemptsFile as string);
    // Shuffled: the file's order is not each arm's index order.
    expect(attempts.map((a) => a.index)).not.toEqual([...attempts.map((a) => a.index)].sort((a, b) => a - b));
    expect(JSON.stringify(rebuilt(transit, attempts), null, 2)).toBe(JSON.stringify(outcome, null, 2));
    const decided = attempts.map((a) => (a.verdict === 'UNKNOWN' ? ({ ...a, verdict: 'PASS' } as AttemptRecord) : a));
    expect(() => rebuilt(transit, decided)).toThrow(
      /0 attempts of arm \w+ have no verdict where its Outcome counted \d+/,
    );
    // Under `bound` no attempt is an exclusion: the arms travel as they are.
    expect(outcomeForTransit(await streamedTrial(), prices).leftOut?.exclusions).toBe(false);
  });

  it('travels whole when its attempts are inline, or its order and cost rows do not name the same attempts', async () => {
    const outcome = await streamedTrial();
    const inline = { ...outcome, attemptsFile: null };
    expect(outcomeForTransit(inline, prices)).toEqual({ outcome: inline, leftOut: null });
    const order = [...outcome.execution.order];
    [order[0], order[1]] = [order[1] as string, order[0] as string];
    const swapped = { ...outcome, execution: { ...outcome.execution, order } };
    expect(outcomeForTransit(swapped, prices)).toEqual({ outcome: swapped, leftOut: null });
    const shorter = { ...outcome, cost: { ...outcome.cost, attempts: outcome.cost.attempts.slice(1) } };
    expect(outcomeForTransit(shorter, prices).leftOut).toBeNull();
  });

  it('refuses an attempts file that does not match: truncated, receipts that cost otherwise, other coverage', async () => {
    const outcome = await streamedTrial();
    const transit = outcomeForTransit(outcome, prices);
    const attempts = lines(outcome.attemptsFile as string);
    expect(() => rebuilt(transit, attempts.slice(0, -1))).toThrow(
      /trial.attempts.jsonl: holds 23 attempts where its Outcome ran 24; the file may be truncated/,
    );
    // A spending attempt's receipts gone from its line: the rows made again no longer come to the Outcome's total.
    const at = attempts.findIndex((a) => (a.observation?.receipts ?? []).some((r) => (r.inputTokens ?? 0) > 0));
    const unspent = attempts.map((a, i) =>
      i === at && a.observation ? ({ ...a, observation: { ...a.observation, receipts: [] } } as AttemptRecord) : a,
    );
    expect(() => rebuilt(transit, unspent)).toThrow(
      /trial.attempts.jsonl: its attempts' receipts come to \d+ input and \d+ output tokens, \$[\d.e-]+ where its Outcome counted/,
    );
    // Rows made at other prices than the Outcome's cost was reckoned with are refused too.
    const otherPrices = {
      ...transit,
      leftOut: { ...(transit.leftOut as NonNullable<OutcomeInTransit['leftOut']>), prices: {} },
    };
    expect(() => rebuilt(otherPrices, attempts)).toThrow(/receipts come to .* where its Outcome counted/);
    const covered = attempts.map((a) => ({ ...a, criteria: [] }));
    expect(() => rebuilt(transit, covered)).toThrow(
      /24 attempts leave criterion answers uncovered where its Outcome counted 0/,
    );
  });
});
