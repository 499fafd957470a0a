import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { expect as vitestExpect } from 'vitest';
import { migrate } from '../../../src/model/index.js';
import { writeRunArtifacts } from '../../../src/report/index.js';
import { resolveTrial, runTrial } from '../../../src/run/index.js';
import { anEnvironment } from '../builders.js';

async function outcome(threshold = 0.8) {
  const resolved = resolveTrial(
    { name: 'artifact trial', file: 'a.test.ts', path: [] },
    {
      subject: () => 'yes',
      rubric: { criteria: { answers: { description: 'answers', needs: 'text' } }, threshold: { rate: threshold } },
      checks: { answers: (o) => void vitestExpect(String(o.reply)).toBe('yes') },
      case: { input: 'q', expect: ['answers'] },
      repeat: { n: 14 },
    },
  );
  return runTrial(
    { ...resolved, environment: anEnvironment(), unavailable: [], fixtures: {} },
    { clock: { now: () => 0 }, expect: vitestExpect },
  );
}

const run = (outputDir: string, runId: string, outcomes: Awaited<ReturnType<typeof outcome>>[]) =>
  writeRunArtifacts({
    outputDir,
    runId,
    startedAt: 's',
    finishedAt: 'f',
    versions: { riddle: '0', vitest: '4.1.12', node: 'v20' },
    outcomes,
    missing: [],
  });

describe('run artifacts', () => {
  it('give each run its own folder, point the top index at the latest, and leave no temporary files', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'riddle-artifacts-'));
    const first = await outcome();
    run(dir, 'run-1', [first]);
    const before = readFileSync(path.join(dir, 'runs', 'run-1', 'index.json'), 'utf8');
    run(dir, 'run-2', [first]);
    expect(readdirSync(path.join(dir, 'runs')).sort()).toEqual(['run-1', 'run-2']);
    expect(readFileSync(path.join(dir, 'runs', 'run-1', 'index.json'), 'utf8')).toBe(before);
    const top = migrate('run', JSON.parse(readFileSync(path.join(dir, 'index.json'), 'utf8')), 'index.json');
    expect(top.runId).toBe('run-2');
    expect(top.trials[0]?.outcome).toMatch(/^runs\/run-2\/outcomes\/artifact-trial-[0-9a-f]{12}\.json$/);
    expect(readdirSync(path.join(dir, 'runs', 'run-2')).sort()).toEqual([
      'findings.json',
      'index.html',
      'index.json',
      'outcomes',
      'summary.md',
    ]);
    const all = (d: string): string[] =>
      readdirSync(d, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? all(path.join(d, e.name)) : [e.name]));
    expect(all(dir).filter((name) => name.endsWith('.tmp'))).toEqual([]);
  });

  it('refuse to write into an earlier run’s folder', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'riddle-artifacts-'));
    run(dir, 'run-1', [await outcome()]);
    expect(() => run(dir, 'run-1', [])).toThrow(/already exists; refusing to overwrite an earlier run/);
  });

  it('name an Outcome by its setup and results: a changed Rubric gives a new id and setup, an identical run the same', async () => {
    const [a, b, c] = [await outcome(0.8), await outcome(0.8), await outcome(0.9)];
    expect(a.id).toBe(b.id);
    expect(c.id).not.toBe(a.id);
    expect(c.setup).not.toBe(a.setup);
    expect(c.pinned.rubric).not.toBe(a.pinned.rubric);
    expect(c.pinned.suite).toBe(a.pinned.suite);
  });
});
