import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { fixture, readLatestRun, runVitest, tempDir, type VitestRun } from './support.js';

const project = fixture('meta-once');

interface Recorded {
  seen: { trial: string; event: string; outcome: boolean }[];
  travelled: { trial: string; bytes: number; order: number; costRows: number; leftOut: unknown }[];
}

describe("a trial's Outcome crosses from the worker to the reporter once", () => {
  const reportDir = tempDir('meta-once');
  const record = path.join(tempDir('meta-record'), 'seen.json');
  let run: VitestRun;

  beforeAll(async () => {
    run = await runVitest(project, ['--reporter=riddle', '--reporter=./meta-recorder.mjs'], {
      RIDDLE_FIXTURE_REPORT: reportDir,
      META_RECORD: record,
    });
  }, 900_000);

  it('not with the update sent when its annotation is recorded, only with its result', () => {
    expect(run.exitCode, run.output).toBe(0);
    const { seen } = JSON.parse(readFileSync(record, 'utf8')) as Recorded;
    for (const trial of ['first', 'second', 'third', 'many']) {
      expect(seen.filter((s) => s.trial === trial)).toEqual([
        { trial, event: 'annotate', outcome: false },
        { trial, event: 'result', outcome: true },
      ]);
    }
    expect(
      readLatestRun(reportDir)
        .outcomes.map((o) => o.trial.name)
        .sort(),
    ).toEqual(['first', 'many', 'second', 'third']);
  });

  it('with its attempts inline when it ran a few, none written to a file, and stored as one file', () => {
    expect(run.exitCode, run.output).toBe(0);
    const { travelled } = JSON.parse(readFileSync(record, 'utf8')) as Recorded;
    expect(travelled.find((t) => t.trial === 'first')).toMatchObject({ order: 1, leftOut: null });
    const { index } = readLatestRun(reportDir);
    const files = readdirSync(path.join(reportDir, 'runs', index.runId, 'outcomes'));
    for (const trial of ['first', 'second', 'third']) {
      const row = index.trials.find((t) => t.name === trial);
      const stored = JSON.parse(readFileSync(path.join(reportDir, row?.outcome ?? ''), 'utf8'));
      expect(stored).toMatchObject({ attemptsFile: null, attempts: [{ arm: 'case', index: 0, verdict: 'PASS' }] });
      expect(stored.id).toBe(row?.outcomeId);
    }
    // Only the trial of 600 attempts has an attempts file; nothing is left streaming.
    expect(files.filter((f) => f.endsWith('.attempts.jsonl'))).toEqual([expect.stringMatching(/^many-/)]);
    expect(existsSync(path.join(reportDir, 'streaming'))).toBe(false);
  });

  it('without the order and cost rows its attempts file gives back, which the reporter puts back in the Outcome file', () => {
    expect(run.exitCode, run.output).toBe(0);
    const { travelled } = JSON.parse(readFileSync(record, 'utf8')) as Recorded;
    const many = travelled.find((t) => t.trial === 'many');
    // Every attempt spent tokens: their rows are made again from the attempts file's receipts at the prices that travel.
    expect(many).toMatchObject({
      order: 0,
      costRows: 0,
      leftOut: { attempts: 600, prices: { 'small-model': { inputPerMillionUsd: 0.15, outputPerMillionUsd: 0.6 } } },
    });
    const stored = readLatestRun(reportDir).outcomes.find((o) => o.trial.name === 'many');
    expect(stored?.execution.order).toHaveLength(600);
    expect(stored?.execution.order.slice(0, 4)).toEqual(['case#0', 'control#0', 'case#1', 'control#1']);
    expect(stored?.cost.attempts).toHaveLength(600);
    // Attempt 299 of the control: 100 + 299 % 7 = 105 input tokens, 20 + 299 % 5 = 24 output tokens.
    expect(stored?.cost.attempts[599]).toEqual({
      arm: 'control',
      index: 299,
      inputTokens: 105,
      outputTokens: 24,
      usd: (105 * 0.15 + 24 * 0.6) / 1e6,
    });
    expect(stored?.cost.inputTokens).toBe(stored?.cost.attempts.reduce((sum, row) => sum + row.inputTokens, 0));
    // The meta stays small however many attempts ran: the Outcome file holds 600 entries of each list.
    expect(many?.bytes).toBeLessThan(JSON.stringify(stored).length / 3);
  });
});
