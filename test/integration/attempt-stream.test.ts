import { existsSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { fixture, readLatestRun, runVitest, tempDir } from './support.js';

describe('attempts written while the trial runs', () => {
  it('are on disk before the trial ends, then filed beside the compact Outcome', async () => {
    const report = tempDir('streaming');
    const run = await runVitest(fixture('streaming'), [], { RIDDLE_FIXTURE_REPORT: report });
    expect(run.exitCode, run.output).toBe(0);

    // The first attempts are held in memory (at most 16, for at most a second); once they are written out, every
    // attempt finds each earlier one already written by the worker.
    const { outcomes } = readLatestRun(report);
    const outcome = outcomes[0];
    const seen = outcome?.attempts.map((a) =>
      Number(/^seen (\d+)$/.exec(String(a.observation?.rounds[0]?.reply))?.[1]),
    );
    expect(seen).toHaveLength(24);
    const held = seen?.findIndex((n, i) => n === i && i > 0) ?? -1;
    expect(held, String(seen)).toBeGreaterThan(0);
    expect(held, String(seen)).toBeLessThanOrEqual(17);
    expect(seen).toEqual([...Array(held).fill(0), ...Array.from({ length: 24 - held }, (_, k) => held + k)]);
    // The streamed file was moved into the run folder under the documented name; nothing is left streaming.
    const [runId] = readdirSync(path.join(report, 'runs'));
    const stored = readdirSync(path.join(report, 'runs', runId ?? '', 'outcomes')).sort();
    const compact = stored.find((f) => f.endsWith('.json')) ?? '';
    const lines = `${path.basename(compact, '.json')}.attempts.jsonl`;
    expect(stored).toEqual([compact, lines].sort());
    const compactOutcome = JSON.parse(
      readFileSync(path.join(report, 'runs', runId ?? '', 'outcomes', compact), 'utf8'),
    );
    expect(compactOutcome).toMatchObject({ attempts: [], attemptsFile: lines });
    expect(existsSync(path.join(report, 'streaming'))).toBe(false);
  }, 300_000);

  it("are not taken for the subject's writes when the report folder is inside the project under another name", async () => {
    const project = fixture('streaming');
    const report = path.join(project, `reports-${process.pid}-${Date.now()}`);
    try {
      const run = await runVitest(project, [], { RIDDLE_FIXTURE_REPORT: report });
      expect(run.exitCode, run.output).toBe(0);
      const [outcome] = readLatestRun(report).outcomes;
      expect(outcome?.execution.outsideWrites).toMatchObject({ window: 'trial', changes: [], unlisted: 0 });
    } finally {
      rmSync(report, { recursive: true, force: true });
    }
  }, 300_000);
});
