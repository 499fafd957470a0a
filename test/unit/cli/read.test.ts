import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { stripVTControlCharacters } from 'node:util';
import { beforeAll, describe, expect, it, expect as vitestExpect } from 'vitest';
import { readCommand } from '../../../src/cli/read.js';
import { earlierRuns, incompleteRunReason } from '../../../src/cli/read-records.js';
import { migrate, type Outcome, type RunIndex } from '../../../src/model/index.js';
import { writeRunArtifacts } from '../../../src/report/index.js';
import { runOutcome } from '../report/run-outcome.js';

/** A passing trial of 14 attempts: its test passes. */
const passing = () =>
  runOutcome('a passing trial', {
    subject: () => 'yes',
    rubric: { criteria: { answers: { description: 'answers', needs: 'text' } }, threshold: { rate: 0.8 } },
    checks: { answers: (o) => void vitestExpect(String(o.reply)).toBe('yes') },
    case: { input: 'q', expect: ['answers'] },
    repeat: { n: 14 },
  });

const write = (outputDir: string, runId: string, outcomes: readonly Outcome[], missing: RunIndex['missing'] = []) =>
  writeRunArtifacts({
    outputDir,
    runId,
    startedAt: 's',
    finishedAt: 'f',
    versions: { riddle: '0', vitest: '4.1.12', node: 'v20' },
    outcomes,
    missing,
  });

/** What `riddle read` prints and returns for a target. */
function read(target: string): { code: number; out: string; err: string } {
  let out = '';
  let err = '';
  const code = readCommand(target, { out: (text) => (out += text), err: (text) => (err += text) });
  return { code, out: stripVTControlCharacters(out), err: stripVTControlCharacters(err) };
}

const crashed: RunIndex['missing'] = [
  {
    name: 'a subject that kills its worker',
    file: 'trials/crash.trial.test.ts',
    reason: 'not finished: the worker running it exited (killed, out of memory, or crashed)',
  },
];

let outcome: Outcome;
beforeAll(async () => {
  outcome = await passing();
  expect(outcome.judgment.testOutcome).toBe('pass');
});

describe('riddle read of a run', () => {
  it('exits 0 for a complete run whose trials pass', () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'riddle-read-'));
    write(dir, 'run-1', [outcome]);
    expect(read(path.join(dir, 'runs', 'run-1'))).toMatchObject({ code: 0, err: '' });
    expect(read(dir)).toMatchObject({ code: 0, err: '' });
  });

  it('exits 1 for an incomplete run (a declared trial without an Outcome) even when every trial it has passes, saying why', () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'riddle-read-'));
    write(dir, 'run-1', [outcome], crashed);
    const result = read(path.join(dir, 'runs', 'run-1'));
    expect(result.code).toBe(1);
    expect(result.out).toContain('incomplete run: 1 declared trial(s) without an Outcome');
    expect(result.out).toContain('a subject that kills its worker');
  });

  it('exits 1 for an index that lists a missing trial though its incomplete flag says otherwise', () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'riddle-read-'));
    write(dir, 'run-1', [outcome]);
    const file = path.join(dir, 'runs', 'run-1', 'index.json');
    const index = JSON.parse(readFileSync(file, 'utf8')) as RunIndex;
    writeFileSync(file, JSON.stringify({ ...index, incomplete: false, missing: crashed }));
    const result = read(path.join(dir, 'runs', 'run-1'));
    expect(result.code).toBe(1);
    expect(result.out).toContain('incomplete run: 1 declared trial(s) without an Outcome');
    expect(incompleteRunReason(migrate('run', JSON.parse(readFileSync(file, 'utf8')), file))).toBe(
      '1 declared trial(s) without an Outcome',
    );
  });

  it('exits 1 for an Outcome file read alone that was cut short', () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'riddle-read-'));
    const cutShort: Outcome = {
      ...outcome,
      // Before a cut-short trial failed its test whatever passOn allowed, such an Outcome was stored passing.
      execution: { ...outcome.execution, incomplete: { reason: 'interrupted by SIGINT' } },
    };
    const file = path.join(dir, 'outcome.json');
    writeFileSync(file, JSON.stringify(cutShort));
    const result = read(file);
    expect(result.code).toBe(1);
    expect(result.out).toContain('incomplete run: 1 trial cut short');
  });
});

describe('riddle read of a report folder', () => {
  it('lists an earlier incomplete run beside the latest complete one without changing its exit code', () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'riddle-read-'));
    write(dir, 'run-1', [outcome]);
    write(dir, 'run-2', [outcome], crashed);
    const result = read(dir);
    expect(result.code).toBe(0);
    expect(result.out).toContain(
      `incomplete run ${path.join('runs', 'run-2')}: 1 declared trial(s) without an Outcome`,
    );
  });

  it('reads the latest run when an earlier run’s index is corrupt, with a warning naming that file', () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'riddle-read-'));
    write(dir, 'run-1', [outcome]);
    write(dir, 'run-2', [outcome]);
    writeFileSync(path.join(dir, 'runs', 'run-1', 'index.json'), '{"schema": "riddle.run/3", "runId"');
    const result = read(dir);
    expect(result.code).toBe(0);
    expect(result.out).toContain('a passing trial');
    expect(result.err).toContain(
      `riddle read: warning: skipped the earlier run ${path.join('runs', 'run-1', 'index.json')}, which cannot be read: `,
    );
    expect(result.err).toMatch(/not valid JSON/);
    expect(earlierRuns(dir).map((run) => [run.kind, run.runId])).toEqual([['unreadable', 'run-1']]);
  });

  it('warns of an earlier run whose index is not a run index, and still says no run completed', () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'riddle-read-'));
    write(dir, 'run-1', [outcome], crashed);
    write(dir, 'run-2', [outcome], crashed);
    writeFileSync(path.join(dir, 'runs', 'run-1', 'index.json'), '{"schema": "riddle.outcome/5"}');
    const result = read(dir);
    expect(result.code).toBe(1);
    expect(result.out).toContain(`no complete run in ${dir}`);
    expect(result.out).toContain(
      `incomplete run ${path.join('runs', 'run-2')}: 1 declared trial(s) without an Outcome`,
    );
    expect(result.err).toMatch(/warning: skipped the earlier run runs\/run-1\/index\.json, .*expected riddle\.run/);
  });

  it('still fails on the run read when its own records cannot be read', () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'riddle-read-'));
    write(dir, 'run-1', [outcome]);
    writeFileSync(path.join(dir, 'index.json'), '{');
    expect(() => read(dir)).toThrow(/index\.json: not valid JSON/);
  });
});
