import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import { expect as vitestExpect } from 'vitest';
import { writeRunArtifacts } from '../../src/report/index.js';
import { resolveTrial, runTrial } from '../../src/run/index.js';
import { anEnvironment } from '../unit/builders.js';
import { repoRoot, tempDir } from './support.js';

const cli = path.join(repoRoot, 'dist', 'cli', 'main.js');
const riddle = (args: readonly string[]) =>
  execa(process.execPath, [cli, ...args], { reject: false, all: true, env: { NO_COLOR: '1' } });

async function writtenRun(): Promise<{ dir: string; outcomeFile: string }> {
  const resolved = resolveTrial(
    { name: 'answers yes', file: 'cli.test.ts', path: [] },
    {
      subject: () => 'yes',
      rubric: { criteria: { answers: { description: 'answers', needs: 'text' } } },
      checks: { answers: (o) => void vitestExpect(String(o.reply)).toBe('yes') },
      case: { input: 'q', expect: ['answers'] },
      repeat: { n: 14 },
    },
  );
  const outcome = await runTrial(
    { ...resolved, environment: anEnvironment(), unavailable: [], fixtures: {} },
    { clock: { now: () => Date.now() }, expect: vitestExpect },
  );
  const dir = tempDir('cli');
  const written = writeRunArtifacts({
    outputDir: dir,
    runId: 'run-1',
    startedAt: 'a',
    finishedAt: 'b',
    versions: { riddle: '0', vitest: '4.1.12', node: process.version },
    outcomes: [outcome],
    missing: [],
  });
  const index = JSON.parse(readFileSync(path.join(written.runDir, 'index.json'), 'utf8')) as {
    trials: { outcome: string }[];
  };
  return { dir, outcomeFile: path.join(written.runDir, index.trials[0]!.outcome) };
}

describe('the riddle command', () => {
  it('reads and summarises a run, a run folder or one Outcome', async () => {
    const { dir, outcomeFile } = await writtenRun();
    for (const target of [dir, path.join(dir, 'index.json'), outcomeFile]) {
      const read = await riddle(['read', target]);
      expect(read.exitCode).toBe(0);
      expect(read.all).toMatch(/PASS answers yes/);
    }
  });

  it('names the file and the field of a corrupt artifact, and changes nothing', async () => {
    const { dir, outcomeFile } = await writtenRun();
    const original = readFileSync(outcomeFile, 'utf8');
    const truncated = path.join(tempDir('corrupt'), 'truncated.json');
    writeFileSync(truncated, original.slice(0, 200));
    const bad = await riddle(['read', truncated]);
    expect(bad.exitCode).toBe(2);
    expect(bad.all).toContain(`riddle: ${truncated}: not valid JSON`);

    // Beside the original, so its attempts file (JSON Lines named in the Outcome) is found.
    const invalid = path.join(path.dirname(outcomeFile), 'invalid.json');
    const stored = JSON.parse(original) as { judgment: { verdict: string } };
    writeFileSync(invalid, JSON.stringify({ ...stored, judgment: { ...stored.judgment, verdict: 'MAYBE' } }));
    const wrong = await riddle(['read', invalid]);
    expect(wrong.exitCode).toBe(2);
    expect(wrong.all).toMatch(
      new RegExp(`riddle: ${invalid.replace(/[/.]/g, '\\$&')}: invalid riddle\\.outcome/5 at [\\w.]*verdict`),
    );

    // An index pointing at a missing Outcome names the missing file.
    const broken = tempDir('broken');
    mkdirSync(path.join(broken, 'runs'), { recursive: true });
    copyFileSync(path.join(dir, 'index.json'), path.join(broken, 'index.json'));
    const missing = await riddle(['read', broken]);
    expect(missing.exitCode).toBe(2);
    expect(missing.all).toMatch(/no such file/);
    expect(readFileSync(outcomeFile, 'utf8')).toBe(original);
  });

  it('prints JSON Schemas and explains stopping rules with their operating characteristics', async () => {
    const schema = await riddle(['schema', 'trial-suite']);
    expect(JSON.parse(schema.stdout).title).toBe('riddle.trial-suite/3');
    const sprt = await riddle(['stopping', '--explain', '--rule', 'sprt', '--p0', '0.65', '--p1', '0.92', '--n', '50']);
    expect(sprt.exitCode).toBe(0);
    expect(sprt.stdout).toMatch(/0\.65\s+0\.044\d\s/);
    const unknown = await riddle(['frobnicate']);
    expect(unknown.exitCode).toBe(2);
    expect(unknown.all).toContain('unknown command "frobnicate"');
  });
});
