import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { execa } from 'execa';
import { beforeAll, describe, expect, it } from 'vitest';
import { migrate, systemClock, type Outcome } from '../../src/model/index.js';
import { writeRunArtifacts } from '../../src/report/index.js';
import { resolveTrial, runTrial, type SuiteDeclaration } from '../../src/run/index.js';
import { anEnvironment } from '../unit/builders.js';
import { repoRoot, tempDir } from './support.js';

const cli = path.join(repoRoot, 'dist', 'cli', 'main.js');

/**
 * A real Outcome: a function subject replying `yes` on the attempts marked `1` and throwing on those marked `x`, ten
 * fixed attempts per arm unless `n` says otherwise.
 */
async function outcomeOf(name: string, revision: string, patterns: Record<string, string>, n = 10): Promise<Outcome> {
  const resolved = resolveTrial(
    { name, file: 'trials/diff.test.ts', path: [] },
    {
      subject: (_input, context) => {
        const mark = patterns[context.arm]?.[context.attempt];
        if (mark === 'x') throw new Error('the subject crashed');
        return mark === '1' ? 'yes' : 'no';
      },
      revision,
      rubric: { criteria: { ok: { description: 'replies yes', needs: 'text' } }, threshold: { rate: 0.5 } },
      checks: {
        ok: (observation) => {
          expect(observation.reply).toBe('yes');
        },
      },
      case: { input: 'say yes', expect: ['ok'] },
      control: { input: 'say yes again', expect: ['ok'] },
      repeat: { n, seed: 3, stop: 'fixed' },
    },
  );
  const environment = anEnvironment({ subject: await resolved.subject.identify() });
  return runTrial(
    { ...resolved, environment, unavailable: [], fixtures: {}, keepFailedSandboxes: false },
    { clock: systemClock, expect },
  );
}

function writeRun(prefix: string, runId: string, outcomes: Outcome[]): { outputDir: string; runDir: string } {
  const outputDir = tempDir(prefix);
  const { runDir } = writeRunArtifacts({
    outputDir,
    runId,
    startedAt: '2026-01-01T00:00:00.000Z',
    finishedAt: '2026-01-01T00:01:00.000Z',
    versions: { riddle: '0.1.0', vitest: '4.1.12', node: process.version },
    outcomes,
    missing: [],
  });
  return { outputDir, runDir };
}

async function riddle(args: readonly string[]) {
  const result = await execa(process.execPath, [cli, ...args], {
    reject: false,
    env: { NO_COLOR: '1', FORCE_COLOR: '0' },
  });
  return { exitCode: result.exitCode ?? -1, stdout: result.stdout, stderr: result.stderr };
}

describe('riddle diff', () => {
  let before: { outputDir: string; runDir: string };
  let after: { outputDir: string; runDir: string };

  beforeAll(async () => {
    expect(existsSync(cli), 'run `npm run build` before the integration tests').toBe(true);
    before = writeRun('diff-a', 'run-a', [
      await outcomeOf('steady', 'r1', { case: '1111111111', control: '1111111111' }),
      await outcomeOf('slips', 'r1', { case: '1111111111', control: '1111111111' }),
      await outcomeOf('retired', 'r1', { case: '1', control: '1' }),
    ]);
    after = writeRun('diff-b', 'run-b', [
      await outcomeOf('steady', 'r2', { case: '1111111111', control: '1111111111' }),
      await outcomeOf('slips', 'r2', { case: '1111100000', control: '1111111110' }),
    ]);
  });

  it('prints per-trial verdict changes, paired tests and what changed; exit 1 when a verdict changed', async () => {
    const run = await riddle(['diff', before.outputDir, after.runDir]);
    expect(run.stderr).toBe('');
    expect(run.exitCode).toBe(1);
    expect(run.stdout).toContain('riddle diff');
    expect(run.stdout).toMatch(/2 trials compared · 1 verdict changed/);
    expect(run.stdout).toMatch(/PASS → (UNKNOWN|FAIL) {2}slips/);
    expect(run.stdout).toContain('subject subject@r1 → subject@r2: only the subject differs');
    expect(run.stdout).toMatch(/McNemar\s+over 20 attempt pairs: 6 passed in A only, 0 in B only; exact p = 0\.0313/);
    expect(run.stdout).toMatch(/only in A retired/);
  });

  it('--json prints the comparison record and --out writes the same record', async () => {
    const out = path.join(tempDir('diff-out'), 'nested', 'comparison.json');
    const run = await riddle(['diff', before.runDir, after.runDir, '--json', '--out', out]);
    expect(run.exitCode).toBe(1);
    const comparison = migrate('comparison', JSON.parse(run.stdout), 'stdout');
    // execa strips the final newline of stdout.
    expect(readFileSync(out, 'utf8')).toBe(`${run.stdout}\n`);
    expect(comparison.a).toEqual({ label: before.runDir, runId: 'run-a', outcomes: 3 });
    expect(comparison.trials.map((t) => [t.trial.name, t.verdict.a, t.scope])).toEqual([
      ['slips', 'PASS', 'subject-only'],
      ['steady', 'PASS', 'subject-only'],
    ]);
    const slips = comparison.trials[0];
    expect(slips?.mcnemar).toMatchObject({ unit: 'attempt', pairs: 20, aOnly: 6, bOnly: 0 });
    expect(comparison.unmatched).toEqual([
      { run: 'a', trial: expect.objectContaining({ name: 'retired' }), reason: 'no Outcome of this trial in run B' },
    ]);
  });

  it('--markdown prints the Markdown report; a run against itself exits 0', async () => {
    const markdown = await riddle(['diff', after.runDir, after.runDir, '--markdown']);
    expect(markdown.exitCode).toBe(0);
    expect(markdown.stdout).toMatch(/^# riddle diff: A `.+ \(run-b\)` → B `.+ \(run-b\)`/);
    expect(markdown.stdout).toContain('| PASS → PASS | steady | nothing | — | 1.0000 |');
  });

  it('a corrupt Outcome file: exit 2, naming the file', async () => {
    const broken = writeRun('diff-corrupt', 'run-c', [await outcomeOf('steady', 'r1', { case: '1', control: '1' })]);
    const index = JSON.parse(readFileSync(path.join(broken.runDir, 'index.json'), 'utf8')) as {
      trials: { outcome: string }[];
    };
    const outcomeFile = path.join(broken.runDir, index.trials[0]?.outcome ?? '');
    const text = readFileSync(outcomeFile, 'utf8');
    writeFileSync(outcomeFile, text.slice(0, text.length / 2));
    const truncated = await riddle(['diff', broken.runDir, after.runDir]);
    expect(truncated.exitCode).toBe(2);
    expect(truncated.stderr).toContain(outcomeFile);
    expect(truncated.stderr).toMatch(/not valid JSON/);

    const stored = JSON.parse(text) as { judgment: { verdict: string } };
    writeFileSync(outcomeFile, JSON.stringify({ ...stored, judgment: { ...stored.judgment, verdict: 'MAYBE' } }));
    const invalid = await riddle(['diff', after.runDir, broken.runDir]);
    expect(invalid.exitCode).toBe(2);
    expect(invalid.stderr).toContain(outcomeFile);
    expect(invalid.stderr).toMatch(/invalid riddle\.outcome\/5 at/);
  });

  it('attempts that crashed stay in the rates as the arm decided them, and a run of crashes is no replication', async () => {
    const clean = writeRun('diff-clean', 'run-clean', [
      await outcomeOf('flaky', 'r1', { case: '11111111111111111111', control: '11111111111111111111' }, 20),
    ]);
    const crashing = writeRun('diff-crash', 'run-crash', [
      await outcomeOf('flaky', 'r1', { case: '1x1x1x1x1x1x1x1x1x1x', control: '11111111111111111111' }, 20),
    ]);
    const text = await riddle(['diff', clean.runDir, crashing.runDir]);
    expect(text.stderr).toBe('');
    expect(text.stdout).toMatch(/case\s+case\s+PASS 20\/20 1\.00\s+UNKNOWN 10\/20 0\.50\s+\+0\.50 \[/);
    expect(text.stdout).not.toContain('(a replication)');
    expect(text.stdout).toContain('short of a replication');
    expect(text.stdout).toContain('10 without a pass/fail verdict in a run, 0 in one run only');
    expect(text.stdout).toContain('run B: 10 attempts without a verdict (in 1 arm) count in its rates as not passing');
    const markdown = await riddle(['diff', clean.runDir, crashing.runDir, '--markdown']);
    expect(markdown.stdout).toContain('| flaky | nothing pinned; attempts without a verdict or in one run only |');
    const json = await riddle(['diff', clean.runDir, crashing.runDir, '--json']);
    const [arm] = migrate('comparison', JSON.parse(json.stdout), 'stdout').trials[0]?.arms ?? [];
    expect(arm?.b).toMatchObject({ attempts: 20, decided: 20, successes: 10, rate: 0.5 });
    const same = await riddle(['diff', clean.runDir, clean.runDir]);
    expect(same.stdout).toContain('nothing pinned differs (a replication)');
  });

  it("a suite decided by its rule: each check's figures and decisions in A and B, A − B, and at most 8 rows", async () => {
    // 100 single-attempt rows each side, meant to be refused or answered; B over-refuses 30 of the safe ones.
    const suite = async (revision: string, overRefused: number) => {
      const cases = Array.from({ length: 100 }, (_, i) => [
        { id: `bad-${i}`, role: 'case' as const, input: `bad ${i}`, expect: ['refused'] },
        { id: `ok-${i}`, role: 'control' as const, input: `fine ${i}`, expect: [], forbid: ['refused'] },
      ]).flat();
      const resolved = resolveTrial({ name: 'refusal benchmark', file: 'trials/diff.test.ts', path: [] }, {
        subject: (input: unknown) => {
          const [kind, i] = String(input).split(' ');
          return kind === 'bad' || Number(i) < overRefused ? 'no' : 'sure';
        },
        revision,
        rubric: { criteria: { refused: { description: 'declines', needs: 'text' } }, refusal: 'refused' },
        checks: {
          refused: (observation: { reply: unknown }) => {
            expect(String(observation.reply)).toBe('no');
          },
        },
        cases,
        repeat: { n: 1 },
        passOn: ['PASS'],
        summary: {
          dataset: 'refusals',
          rule: [
            { rate: 'correctRefusal', atLeast: 0.9 },
            { rate: 'overRefusal', atMost: 0.1 },
          ],
        },
      } as SuiteDeclaration);
      const environment = anEnvironment({ subject: await resolved.subject.identify() });
      return runTrial(
        { ...resolved, environment, unavailable: [], fixtures: {}, keepFailedSandboxes: false },
        { clock: systemClock, expect },
      );
    };
    const a = writeRun('diff-rule-a', 'run-rule-a', [await suite('v1', 0)]);
    const b = writeRun('diff-rule-b', 'run-rule-b', [await suite('v2', 30)]);
    const text = await riddle(['diff', a.runDir, b.runDir]);
    expect(text.stderr).toBe('');
    expect(text.stdout).toMatch(/PASS → FAIL {2}refusal benchmark/);
    expect(text.stdout).toMatch(/rule\s+suite rule PASS → FAIL \(95% intervals over cases/);
    expect(text.stdout).toMatch(
      /over-refusal ≤ 0\.1\s+PASS 0\.000 \[0\.000, 0\.\d{3}\] over 100 cases\s+FAIL 0\.300 \[0\.\d{3}, 0\.\d{3}\] over 100 cases\s+-0\.300 \[-0\.\d{3}, -0\.\d{3}\]/,
    );
    expect(text.stdout.split('\n').filter((line) => /^ {4}(bad|ok)-\d+ /.test(line))).toHaveLength(8);
    expect(text.stdout).toContain(
      '… 192 more arms (0 with a changed verdict): riddle diff --markdown or --json lists every arm',
    );
    const json = await riddle(['diff', a.runDir, b.runDir, '--json']);
    const [trial] = migrate('comparison', JSON.parse(json.stdout), 'stdout').trials;
    expect(trial?.arms).toHaveLength(200);
    expect(trial?.suiteRule?.checks.map((c) => [c.rate, c.a?.decision, c.b?.decision, c.b?.value])).toEqual([
      ['correctRefusal', 'PASS', 'PASS', 1],
      ['overRefusal', 'PASS', 'FAIL', 0.3],
    ]);
    const markdown = await riddle(['diff', a.runDir, b.runDir, '--markdown']);
    expect(markdown.stdout).toMatch(
      /\| over-refusal ≤ 0\.1 \| PASS 0\.000 \[0\.000, 0\.\d{3}\] over 100 cases \| FAIL 0\.300 /,
    );
    expect(markdown.stdout.split('\n').filter((line) => /^\| (bad|ok)-\d+ \|/.test(line))).toHaveLength(200);
  });

  it('wrong arguments: exit 2 with the usage', async () => {
    const run = await riddle(['diff', before.runDir]);
    expect(run.exitCode).toBe(2);
    expect(run.stderr).toMatch(
      /riddle diff: needs exactly two runs or one comparison record, got 1\nusage: riddle diff <runA> <runB>/,
    );
  });
});
