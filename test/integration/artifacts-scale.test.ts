import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import { fixture, readLatestRun, repoRoot, runVitest, tempDir } from './support.js';

const ATTEMPTS = 5000;

describe('artifacts of a trial of many attempts', () => {
  it('keep the attempts as JSON Lines beside a compact Outcome, and riddle read and the reports still work', async () => {
    const report = tempDir('scale');
    const run = await runVitest(fixture('scale'), [], {
      RIDDLE_FIXTURE_REPORT: report,
      RIDDLE_SCALE_N: String(ATTEMPTS),
    });
    expect(run.exitCode, run.output).toBe(0);

    const [runId] = readdirSync(path.join(report, 'runs'));
    const runDir = path.join(report, 'runs', runId ?? '');
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
    expect(readFileSync(path.join(runDir, 'index.html'), 'utf8')).toContain('many attempts');
    expect(readFileSync(path.join(runDir, 'summary.md'), 'utf8')).toContain('many attempts');
  }, 600_000);
});
