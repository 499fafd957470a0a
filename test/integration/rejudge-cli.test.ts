import { existsSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { execa } from 'execa';
import { beforeAll, describe, expect, it } from 'vitest';
import { writeRunArtifacts } from '../../src/report/index.js';
import { resolveTrial, runTrial } from '../../src/run/index.js';
import { anEnvironment } from '../unit/builders.js';
import { repoRoot, tempDir } from './support.js';

const cli = path.join(repoRoot, 'dist', 'cli', 'main.js');
const core = pathToFileURL(path.join(repoRoot, 'dist', 'core.js')).href;

const riddle = (args: readonly string[]) =>
  execa(process.execPath, [cli, ...args], { reject: false, env: { NO_COLOR: '1' } });

/** A rejudge module default-exporting one mechanical evaluator "house", a check per criterion named (met on any reply). */
function evaluatorsModule(criteria: readonly string[]): string {
  const file = path.join(tempDir('rejudge-module'), 'rj.mjs');
  const check = "(view) => { if (typeof view.reply !== 'string') throw new Error('no reply'); }";
  const checks = criteria.map((name) => `${JSON.stringify(name)}: ${check}`).join(', ');
  writeFileSync(
    file,
    `import { mechanicalEvaluator } from ${JSON.stringify(core)};\n` +
      `export default { evaluators: [mechanicalEvaluator({ id: 'house', revision: '1', checks: { ${checks} } })] };\n`,
  );
  return file;
}

describe('riddle rejudge checks that the evaluators and Rubric fit the run, as a declaration would', () => {
  let runDir: string;

  beforeAll(async () => {
    expect(existsSync(cli), 'run `npm run build` before the integration tests').toBe(true);
    const resolved = resolveTrial(
      { name: 'courteous', file: 'trials/courteous.test.ts', path: [] },
      {
        subject: () => 'thank you',
        rubric: { criteria: { polite: { description: 'is polite', needs: 'text' } } },
        checks: { polite: () => {} },
        case: { input: 'hello', expect: ['polite'] },
        control: { input: 'hi', expect: ['polite'] },
        repeat: { n: 14 },
      },
    );
    const outcome = await runTrial(
      { ...resolved, environment: anEnvironment(), unavailable: [], fixtures: {} },
      { clock: { now: () => Date.now() }, expect },
    );
    runDir = writeRunArtifacts({
      outputDir: tempDir('rejudge-run'),
      runId: 'run-1',
      startedAt: '2026-01-01T00:00:00.000Z',
      finishedAt: '2026-01-01T00:01:00.000Z',
      versions: { riddle: '0', vitest: '4.1.12', node: process.version },
      outcomes: [outcome],
      missing: [],
    }).runDir;
  });

  it('a misspelt criterion: exit 2 naming the evaluator, the did-you-mean and the arms left unjudged; nothing written', async () => {
    const module = evaluatorsModule(['polit']);
    const out = path.join(tempDir('rejudge-out'), 'report');
    const run = await riddle(['rejudge', runDir, '--evaluators', module, '--out', out]);
    expect(run.exitCode).toBe(2);
    expect(run.stderr).toContain(
      `${module}: evaluators[0] ("house") judges unknown criterion "polit"; did you mean "polite"? (the rubric has: polite)`,
    );
    expect(run.stderr).toContain(
      `${module}: trial "courteous" (trials/courteous.test.ts) arm "case".expect: no evaluator judges criterion "polite"`,
    );
    expect(run.stderr).toContain('arm "control".expect: no evaluator judges criterion "polite"');
    expect(existsSync(out)).toBe(false);
  });

  it('a Rubric without the criteria the arms expect: exit 2 naming the rubric file and the arm', async () => {
    const module = evaluatorsModule(['declines']);
    const rubric = path.join(tempDir('rejudge-rubric'), 'rubric.json');
    writeFileSync(
      rubric,
      JSON.stringify({
        schema: 'riddle.rubric/1',
        id: 'refusals',
        revision: '1',
        criteria: [
          { name: 'declines', description: 'declines', needs: 'text', required: true, target: null, labels: null },
        ],
        threshold: { rate: 0.8, alpha: 0.05 },
        missingEvidence: 'bound',
        refusal: null,
      }),
    );
    const out = path.join(tempDir('rejudge-out'), 'report');
    const run = await riddle(['rejudge', runDir, '--evaluators', module, '--rubric', rubric, '--out', out]);
    expect(run.exitCode).toBe(2);
    expect(run.stderr).toContain(
      `${rubric}: trial "courteous" (trials/courteous.test.ts) arm "case".expect: unknown criterion "polite" (the rubric has: declines)`,
    );
    expect(existsSync(out)).toBe(false);
  });

  it('evaluators that fit re-judge the run', async () => {
    const run = await riddle([
      'rejudge',
      runDir,
      '--evaluators',
      evaluatorsModule(['polite']),
      '--out',
      tempDir('rejudge-out'),
    ]);
    expect(run.stderr).toBe('');
    expect(run.exitCode, run.stdout).toBe(0);
    expect(run.stdout).toContain('re-judged without running the subject');
  });
});
