import { readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import { fixture, readLatestRun, repoRoot, runVitest, tempDir } from './support.js';

const ATTEMPTS = 20_000;

describe('artifacts of a trial of many attempts', () => {
  it('keep the attempts as JSON Lines beside a compact Outcome, and riddle read and the reports still work', async () => {
    const report = tempDir('scale');
    // The fixture's size is this test's: a policy registered by an earlier size would fail the trial's test.
    rmSync(path.join(fixture('scale'), '.riddle'), { recursive: true, force: true });
    const run = await runVitest(fixture('scale'), [], {
      RIDDLE_FIXTURE_REPORT: report,
      RIDDLE_SCALE_N: String(ATTEMPTS),
    });
    expect(run.exitCode, run.output).toBe(0);

    const [runId] = readdirSync(path.join(report, 'runs'));
    const runDir = path.join(report, 'runs', runId ?? '');
    // The reporter summarised the attempts from their file (it no longer holds them) and moved it, then removed the
    // streaming folder.
    expect(readdirSync(report).sort()).toEqual(['index.json', 'runs']);
    const index = JSON.parse(readFileSync(path.join(runDir, 'index.json'), 'utf8'));
    expect(index.incomplete).toBe(false);
    expect(index.trials).toHaveLength(1);
    expect(index.missing).toEqual([]);
    const stored = readdirSync(path.join(runDir, 'outcomes')).sort();
    expect(stored).toHaveLength(2);
    const [compactName, linesName] = [
      stored.find((f) => f.endsWith('.json')),
      stored.find((f) => f.endsWith('.jsonl')),
    ];
    expect(linesName).toBe(`${path.basename(compactName ?? '', '.json')}.attempts.jsonl`);

    const compactFile = path.join(runDir, 'outcomes', compactName ?? '');
    const linesFile = path.join(runDir, 'outcomes', linesName ?? '');
    const compact = JSON.parse(readFileSync(compactFile, 'utf8'));
    expect(compact.attempts).toEqual([]);
    expect(compact.attemptsFile).toBe(linesName);
    const lines = readFileSync(linesFile, 'utf8').trimEnd().split('\n');
    expect(lines).toHaveLength(ATTEMPTS);
    expect(lines.map((line) => JSON.parse(line).sequence)).toEqual(Array.from({ length: ATTEMPTS }, (_, i) => i));
    // The compact Outcome holds what summarises the attempts, not the attempts themselves.
    expect(statSync(compactFile).size).toBeLessThan(statSync(linesFile).size / 2);

    const { outcomes } = readLatestRun(report);
    expect(outcomes[0]?.attempts).toHaveLength(ATTEMPTS);
    expect(outcomes[0]?.attemptsFile).toBeNull();
    expect(outcomes[0]?.judgment.verdict).toBe('PASS');

    const read = await execa(process.execPath, [path.join(repoRoot, 'dist', 'cli', 'main.js'), 'read', runDir], {
      reject: false,
      all: true,
      env: { NO_COLOR: '1' },
    });
    expect(read.exitCode, read.all).toBe(0);
    expect(read.all).toContain('many attempts');
    const html = readFileSync(path.join(runDir, 'index.html'), 'utf8');
    expect(html).toContain('many attempts');
    expect(html).toContain(`<summary>Attempts (${ATTEMPTS})</summary>`);
    const data = /<script type="application\/json" id="data-[^"]+">(.*?)<\/script>/s.exec(html)?.[1] ?? '{}';
    const rows = JSON.parse(data).attempts as unknown[][];
    expect(rows).toHaveLength(ATTEMPTS);
    // Past the HTML report's detail cap every row is verdict and reason only.
    expect(rows.every((row) => row[5] === null && row[2] === 'PASS')).toBe(true);
    expect(run.output).toContain('1 PASS');
    expect(run.output).not.toContain('Timeout terminating');
    expect(readFileSync(path.join(runDir, 'summary.md'), 'utf8')).toContain('many attempts');
  }, 600_000);

  it("explains a failing trial's verdict with reasons sampled from its attempts file, every attempt counted", async () => {
    const report = tempDir('scale-failing');
    rmSync(path.join(fixture('scale'), '.riddle'), { recursive: true, force: true });
    const run = await runVitest(fixture('scale'), [], {
      RIDDLE_FIXTURE_REPORT: report,
      RIDDLE_SCALE_N: '3000',
      RIDDLE_SCALE_FAIL: '1',
      NO_COLOR: '1',
    });
    expect(run.exitCode, run.output).toBe(1);
    // Written out while the trial ran (past the few held in memory), read back a line at a time for the message.
    const [outcome] = readLatestRun(report).outcomes;
    expect(outcome?.attempts).toHaveLength(3000);
    expect(run.output).toContain('why attempts did not pass (samples):');
    expect(run.output).toMatch(/case#0 FAIL: expected answers unmet — .*'No'.* \(and 999 more alike\)/);
    expect(run.output).toMatch(/case#1 FAIL: expected answers unmet — .*'Nope'.* \(and 1999 more alike\)/);
    rmSync(path.join(fixture('scale'), '.riddle'), { recursive: true, force: true });
  }, 600_000);
});
