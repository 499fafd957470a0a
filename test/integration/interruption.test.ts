import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import { migrate, type Outcome, type RunIndex } from '../../src/model/index.js';
import { readOutcomeFile } from '../../src/report/index.js';
import { fixture, outcomeNamed, readLatestRun, repoRoot, runVitest, tempDir } from './support.js';

const project = fixture('interruption');
const vitestBin = path.join(repoRoot, 'node_modules', 'vitest', 'vitest.mjs');

/** The one run written under a report folder (also when it is incomplete and the latest pointer did not move). */
function readOnlyRun(reportDir: string): { index: RunIndex; outcomes: Outcome[] } {
  const runs = readdirSync(path.join(reportDir, 'runs'));
  expect(runs).toHaveLength(1);
  const runDir = path.join(reportDir, 'runs', runs[0] as string);
  const indexFile = path.join(runDir, 'index.json');
  const index = migrate('run', JSON.parse(readFileSync(indexFile, 'utf8')), indexFile);
  const outcomes = index.trials.map((row) => readOutcomeFile(path.join(runDir, row.outcome)));
  return { index, outcomes };
}

/** Processes whose command line carries the marker, from /proc. */
function processesWith(marker: string): number[] {
  return readdirSync('/proc')
    .filter((entry) => /^\d+$/.test(entry))
    .filter((pid) => {
      try {
        return readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(marker);
      } catch {
        return false;
      }
    })
    .map(Number);
}

async function waitFor(condition: () => boolean, what: string): Promise<void> {
  for (let waited = 0; !condition(); waited += 100) {
    if (waited > 150_000) throw new Error(`gave up waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

type Pool = 'forks' | 'threads';

/** Start the interruption fixture on one trial file with the given pool, its subjects logging to a file of their own. */
async function startRun(file: string, pool: Pool, label: string) {
  const work = tempDir(label);
  const reportDir = path.join(work, 'report');
  const tmp = path.join(work, 'tmp');
  const log = path.join(work, 'attempts.log');
  const marker = `riddle-fixture-marker-${path.basename(work)}`;
  writeFileSync(log, '');
  await execa('mkdir', ['-p', tmp]);
  const child = execa(
    process.execPath,
    [vitestBin, 'run', file, `--pool=${pool}`, '--reporter=riddle', `--outputFile.riddle=${reportDir}`],
    {
      cwd: project,
      reject: false,
      all: true,
      detached: true,
      env: { NO_COLOR: '1', CI: '1', TMPDIR: tmp, RIDDLE_FIXTURE_LOG: log, RIDDLE_FIXTURE_MARKER: marker },
      timeout: 170_000,
    },
  );
  const signal = (to: 'group' | 'main', name: 'SIGINT' | 'SIGTERM') =>
    process.kill(to === 'group' ? -(child.pid as number) : (child.pid as number), name);
  return { child, signal, reportDir, tmp, marker, log };
}

/** Subject processes and sandboxes an ended run left behind: none, if it cleaned up. */
function leftBehind(run: { tmp: string; marker: string }) {
  return {
    processes: processesWith(run.marker),
    sandboxes: readdirSync(run.tmp).filter((entry) => entry.startsWith('riddle-')),
  };
}

/**
 * Start the interruption fixture, wait until two attempts of the command trial have finished and the third is
 * running, then deliver `signal` as a terminal's Ctrl-C would (to the whole process group) or as `kill` would
 * (to Vitest's main process only).
 */
async function interruptRun(signal: 'SIGINT' | 'SIGTERM', to: 'group' | 'main', pool: Pool) {
  const run = await startRun('trials/interrupt.trial.test.ts', pool, `interrupt-${signal}`);
  const { log, marker } = run;
  await waitFor(() => readFileSync(log, 'utf8').includes('start 2'), 'the third attempt');
  await waitFor(() => processesWith(marker).length > 0, "the third attempt's grandchild");
  run.signal(to, signal);
  return { ...run, result: await run.child };
}

describe('an interrupted run (Ctrl-C, SIGTERM)', () => {
  for (const [signal, to, pool] of [
    ['SIGINT', 'group', 'forks'],
    ['SIGTERM', 'main', 'forks'],
    ['SIGINT', 'group', 'threads'],
    ['SIGTERM', 'main', 'threads'],
  ] as const) {
    it(`${signal} to the ${to === 'group' ? 'process group, as Ctrl-C in a terminal' : 'main process'} (${pool} pool): subjects killed, sandboxes removed, what finished written, marked incomplete`, async () => {
      const { result, reportDir, tmp, marker, log } = await interruptRun(signal, to, pool);
      expect(result.exitCode, result.all).not.toBe(0);
      // No subject process left running, no sandbox left behind.
      expect(leftBehind({ tmp, marker })).toEqual({ processes: [], sandboxes: [] });
      // The interrupted trial's Outcome holds the two attempts that finished, and says it is incomplete.
      const { index, outcomes } = readOnlyRun(reportDir);
      const outcome = outcomeNamed(outcomes, 'a command interrupted on its third attempt');
      expect(outcome.attempts.map((a) => [a.index, a.status])).toEqual([
        [0, 'completed'],
        [1, 'completed'],
      ]);
      expect(outcome.execution.incomplete?.reason).toContain(`interrupted by ${signal}`);
      expect(outcome.judgment.verdict).toBe('UNKNOWN');
      expect(readFileSync(log, 'utf8')).not.toContain('end 2');
      // The run index says so, lists the trial that never ran, and the latest pointer did not move.
      expect(index.incomplete).toBe(true);
      expect(index.interruptedBy).toBe(signal);
      expect(index.missing).toEqual([
        expect.objectContaining({
          name: 'a trial that would have run next',
          reason: expect.stringMatching(/interrupted/),
        }),
      ]);
      expect(existsSync(path.join(reportDir, 'index.json'))).toBe(false);
      expect(result.all).toMatch(/incomplete run: interrupted by/);
      // `riddle read` says so, for the report folder and for the run's own folder.
      const cli = path.join(repoRoot, 'dist', 'cli', 'main.js');
      const folder = await execa(process.execPath, [cli, 'read', reportDir], { reject: false });
      expect(folder.stdout).toMatch(new RegExp(`incomplete run runs/[^:]+: interrupted by ${signal}`));
      const own = await execa(process.execPath, [cli, 'read', path.join(reportDir, 'runs', index.runId)], {
        reject: false,
      });
      expect(own.stdout).toContain(`incomplete run: interrupted by ${signal}`);
    });
  }
});

describe('an interrupted trial of two lanes', () => {
  it('keeps the attempts both lanes finished and judged while their next ones ran, and stops and removes those', async () => {
    const run = await startRun('trials/interrupt-concurrent.trial.test.ts', 'forks', 'interrupt-lanes');
    const starts = () =>
      readFileSync(run.log, 'utf8')
        .split('\n')
        .filter((line) => line.startsWith('start')).length;
    await waitFor(() => starts() >= 4, 'both lanes’ second attempts');
    await waitFor(() => processesWith(run.marker).length >= 2, 'the second attempts’ grandchildren');
    run.signal('group', 'SIGINT');
    const result = await run.child;
    expect(result.exitCode, result.all).not.toBe(0);
    expect(leftBehind(run)).toEqual({ processes: [], sandboxes: [] });
    const { index, outcomes } = readOnlyRun(run.reportDir);
    const outcome = outcomeNamed(outcomes, 'two lanes interrupted on their second attempts');
    expect(outcome.attempts.map((a) => [a.index, a.status, a.verdict])).toEqual([
      [0, 'completed', 'PASS'],
      [1, 'completed', 'PASS'],
    ]);
    // The two stopped part-way and the two never started are counted as not run.
    expect(outcome.arms[0]?.notRun.count).toBe(4);
    expect(outcome.execution.incomplete?.reason).toContain('interrupted by SIGINT');
    expect(outcome.judgment.verdict).toBe('UNKNOWN');
    expect(index.incomplete).toBe(true);
  });
});

describe('a signal between two trials, while the guard’s listeners linger', () => {
  it('ends the process as it would without them, also when it comes as the linger ends', async () => {
    // riddle/core's guard, held and released as a trial does, then the signal: at once, and after JavaScript ran past
    // the listeners' linger (the signal then waits for the event loop's poll phase, which follows its timers).
    const script = `import { guardSignals } from 'riddle/core';
guardSignals()();
const until = Date.now() + Number(process.argv[2]);
while (Date.now() < until);
process.kill(process.pid, process.argv[1]);
setTimeout(() => process.exit(0), 2000);`;
    for (const stallMs of ['0', '250'])
      for (const signal of ['SIGTERM', 'SIGINT']) {
        const ended = await execa(process.execPath, ['--input-type=module', '-e', script, signal, stallMs], {
          cwd: repoRoot,
          reject: false,
        });
        expect(ended.signal, `${signal} after ${stallMs} ms`).toBe(signal);
      }
  }, 120_000);
});

describe('a subject that never waits, interrupted', () => {
  it('stops at Ctrl-C within moments instead of running every declared attempt first', async () => {
    const run = await startRun('trials/busy.trial.test.ts', 'forks', 'busy');
    await waitFor(() => readFileSync(run.log, 'utf8').includes('attempt 2000\n'), 'two thousand attempts');
    run.signal('group', 'SIGINT');
    const result = await run.child;
    // Before the trial gave the event loop turns, the signal waited behind all two million attempts (minutes).
    expect(result.timedOut, result.all).toBe(false);
    expect(result.exitCode, result.all).not.toBe(0);
    const [outcome] = readOnlyRun(run.reportDir).outcomes;
    expect(outcome?.trial.name).toBe('a busy subject that never waits');
    expect(outcome?.execution.incomplete?.reason).toContain('interrupted by SIGINT');
    expect(outcome?.judgment.verdict).toBe('UNKNOWN');
    const ran = outcome?.arms[0]?.run ?? 0;
    expect(ran).toBeGreaterThanOrEqual(2000);
    expect(ran).toBeLessThan(2_000_000);
    expect(outcome?.arms[0]?.notRun.count).toBe(2_000_000 - ran);
  });
});

describe('a subject that ignores SIGTERM, interrupted', () => {
  for (const pool of ['forks', 'threads'] as const) {
    it(`(${pool} pool) is killed when the run ends after one Ctrl-C, and at once on a second`, async () => {
      for (const signals of [1, 2]) {
        const run = await startRun('trials/stubborn.trial.test.ts', pool, `stubborn-${pool}-${signals}`);
        await waitFor(() => readFileSync(run.log, 'utf8').includes('start'), 'the subject to start');
        run.signal('group', 'SIGINT');
        // The subject was told to stop and would not.
        await waitFor(() => readFileSync(run.log, 'utf8').includes('sigterm'), 'the subject to get SIGTERM');
        if (signals === 2) run.signal('group', 'SIGINT');
        const result = await run.child;
        const left = leftBehind(run);
        // Whatever the outcome, leave nothing running on the machine.
        for (const pid of left.processes) process.kill(pid, 'SIGKILL');
        expect(result.exitCode, result.all).not.toBe(0);
        expect(left, `after ${signals} signal(s)`).toEqual({ processes: [], sandboxes: [] });
      }
    });
  }
});

describe('a worker that dies', () => {
  it('lists every declared trial of its file as missing with the reason, and the run as incomplete', async () => {
    const reportDir = tempDir('worker-killed');
    const run = await runVitest(project, [
      'trials/crash.trial.test.ts',
      'trials/steady.trial.test.ts',
      '--reporter=riddle',
      `--outputFile.riddle=${reportDir}`,
    ]);
    expect(run.exitCode).not.toBe(0);
    const { index, outcomes } = readOnlyRun(reportDir);
    expect(outcomes.map((o) => o.trial.name)).toEqual(['a steady trial in another file']);
    expect(index.incomplete).toBe(true);
    expect(index.interruptedBy).toBeNull();
    expect(index.missing.map((m) => m.name).sort()).toEqual([
      'a subject that kills its worker',
      'a trial declared after it',
    ]);
    for (const entry of index.missing) expect(entry.reason).toMatch(/worker running it exited/);
    expect(run.output).toMatch(/incomplete run: 2 trials declared but without an Outcome/);
    expect(existsSync(path.join(reportDir, 'index.json'))).toBe(false);
  });

  it('leaves the attempts its trial finished filed in the run folder, and the missing trial says where', async () => {
    const reportDir = tempDir('worker-killed-late');
    const run = await runVitest(project, [
      'trials/crash-late.trial.test.ts',
      '--reporter=riddle',
      `--outputFile.riddle=${reportDir}`,
    ]);
    expect(run.exitCode).not.toBe(0);
    const { index } = readOnlyRun(reportDir);
    expect(index.missing).toHaveLength(1);
    const reason = index.missing[0]?.reason ?? '';
    const kept =
      /the (\d+) attempts it finished are kept in (unfiled\/a-subject-that-kills-its-worker-late-[0-9a-f]{12}\.attempts\.jsonl)$/.exec(
        reason,
      );
    expect(kept, reason).not.toBeNull();
    // Written before the kill: past the attempts a trial holds in memory, up to the last turn of the event loop.
    const [runId] = readdirSync(path.join(reportDir, 'runs'));
    const lines = readFileSync(path.join(reportDir, 'runs', runId ?? '', kept?.[2] ?? ''), 'utf8')
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line) as { index: number; verdict: string });
    expect(lines.length).toBe(Number(kept?.[1]));
    expect(lines.length).toBeGreaterThanOrEqual(16);
    expect(lines.length).toBeLessThan(40);
    expect(lines.map((line) => line.index)).toEqual(lines.map((_, i) => i));
    expect(lines.every((line) => line.verdict === 'PASS')).toBe(true);
    // Nothing left streaming; the terminal says where the attempts are.
    expect(existsSync(path.join(reportDir, 'streaming'))).toBe(false);
    expect(run.output).toMatch(/the finished attempts of a trial without an Outcome are kept in .*unfiled/);
  });
});

describe('a trial whose budget is past the longest timer Node keeps', () => {
  it('runs instead of timing out at once, and its sequential rule ends it early', async () => {
    const reportDir = tempDir('large-trial');
    const run = await runVitest(project, [
      'trials/large.trial.test.ts',
      '--reporter=riddle',
      `--outputFile.riddle=${reportDir}`,
    ]);
    expect(run.output).not.toMatch(/timed out/i);
    expect(run.output).not.toMatch(/TimeoutOverflowWarning/);
    expect(run.exitCode, run.output).toBe(0);
    const outcome = outcomeNamed(readLatestRun(reportDir).outcomes, 'a hundred thousand declared attempts');
    expect(outcome.judgment.verdict).toBe('PASS');
    expect(outcome.attempts.length).toBeLessThan(100);
  });
});

describe('errors a subject raises outside the awaited call', () => {
  it('are attributed to the attempt that started them as subject_error, never left as PASS', async () => {
    const reportDir = tempDir('stray-errors');
    const run = await runVitest(project, [
      'trials/stray.trial.test.ts',
      '--reporter=riddle',
      `--outputFile.riddle=${reportDir}`,
    ]);
    expect(run.exitCode).not.toBe(0);
    const { outcomes } = readLatestRun(reportDir);
    for (const [name, message] of [
      ['a subject whose timer throws', /uncaught exception outside the awaited call: Error: late failure in a timer/],
      ['a subject that leaves a rejection unhandled', /unhandled rejection outside the awaited call: .*nobody awaited/],
    ] as const) {
      const outcome = outcomeNamed(outcomes, name);
      expect(outcome.attempts.map((a) => a.status)).toEqual(['subject_error', 'subject_error', 'subject_error']);
      for (const attempt of outcome.attempts) expect(attempt.error?.message).toMatch(message);
      expect(outcome.judgment.verdict).not.toBe('PASS');
    }
    // Both attempts ran at once: each error is tied to the attempt whose async context started its callback.
    const concurrent = outcomeNamed(outcomes, 'concurrent attempts whose callbacks throw');
    expect(concurrent.attempts.map((a) => [a.index, a.status, a.error?.message])).toEqual([
      [0, 'subject_error', 'uncaught exception outside the awaited call: Error: attempt 0 timer'],
      [
        1,
        'subject_error',
        'uncaught exception outside the awaited call: Error: attempt 1 tick; uncaught exception outside the awaited call: Error: attempt 1 immediate',
      ],
    ]);
    expect(concurrent.execution.strayErrors).toEqual([]);
    // An error from outside every async context, raised while the other lane's attempt had returned and was being
    // judged: the only attempt running is the one that raised it.
    const judgedMeanwhile = outcomeNamed(
      outcomes,
      'an error outside every context while the other lane’s attempt is judged',
    );
    expect(judgedMeanwhile.attempts.map((a) => [a.index, a.status, a.error?.message ?? null])).toEqual([
      [0, 'completed', null],
      [
        1,
        'subject_error',
        'uncaught exception outside the awaited call: Error: raised while the other attempt is judged',
      ],
    ]);
    expect(judgedMeanwhile.execution.strayErrors).toEqual([]);
  });
});

describe('errors a subject raises outside the awaited call, at the edges', () => {
  it('are kept scrubbed of the secrets the subject was given', async () => {
    const reportDir = tempDir('stray-secret');
    const secret = 'sk-live-strayfixture1234567890';
    const run = await runVitest(
      project,
      [
        'trials/stray.trial.test.ts',
        '-t',
        'late error quotes a secret',
        '--reporter=riddle',
        `--outputFile.riddle=${reportDir}`,
      ],
      { RIDDLE_STRAY_TOKEN: secret },
    );
    const outcome = outcomeNamed(readLatestRun(reportDir).outcomes, 'a subject whose late error quotes a secret');
    expect(outcome.attempts[0]?.error?.message).toBe(
      'uncaught exception outside the awaited call: Error: late failure with key=[redacted]',
    );
    expect(JSON.stringify(outcome)).not.toContain(secret);
    expect(run.output).not.toContain(secret);
  });

  it('that are assertions a check did not await are the evaluators’ errors, not the subject’s', async () => {
    const reportDir = tempDir('stray-check');
    await runVitest(project, [
      'trials/stray.trial.test.ts',
      '-t',
      'a check that does not await its assertion',
      '--reporter=riddle',
      `--outputFile.riddle=${reportDir}`,
    ]);
    const outcome = outcomeNamed(readLatestRun(reportDir).outcomes, 'a check that does not await its assertion');
    expect(outcome.attempts.map((a) => [a.status, a.error?.where])).toEqual([
      ['evaluator_error', 'evaluators (an assertion a check did not await)'],
      ['evaluator_error', 'evaluators (an assertion a check did not await)'],
    ]);
    expect(outcome.attempts[0]?.error?.message).toMatch(/unhandled rejection outside the awaited call: AssertionError/);
    expect(outcome.judgment.verdict).toBe('UNKNOWN');
  });

  it('of a trial that has ended, are handed to Vitest, which fails the run, and never blamed on the trial running', async () => {
    const reportDir = tempDir('stray-after-end');
    const run = await runVitest(project, [
      'trials/stray-after-end.trial.test.ts',
      '--reporter=riddle',
      `--outputFile.riddle=${reportDir}`,
    ]);
    expect(run.exitCode, run.output).not.toBe(0);
    expect(run.output).toMatch(/Unhandled[\s\S]*thrown after its trial ended/);
    const { outcomes } = readLatestRun(reportDir);
    const running = outcomeNamed(outcomes, 'the trial running when it comes');
    expect(running.judgment.verdict).toBe('PASS');
    expect(running.execution.strayErrors).toEqual([]);
    expect(running.attempts.every((a) => a.status === 'completed')).toBe(true);
  });
});

describe('an error raised outside every attempt while a trial runs', () => {
  it('is a harness finding on the trial, which fails whatever its passOn allows, and shows in the summary', async () => {
    const reportDir = tempDir('untied-error');
    const run = await runVitest(project, [
      'trials/stray.trial.test.ts',
      '-t',
      'a trial during which an error no attempt owns is raised',
      '--reporter=riddle',
      `--outputFile.riddle=${reportDir}`,
    ]);
    // Never a clean run: the trial's test fails, so Vitest exits non-zero.
    expect(run.exitCode, run.output).not.toBe(0);
    const { index, outcomes } = readLatestRun(reportDir);
    const outcome = outcomeNamed(outcomes, 'a trial during which an error no attempt owns is raised');
    // Tied to neither attempt: both stay as they were.
    expect(outcome.attempts.map((a) => [a.status, a.verdict])).toEqual([
      ['completed', 'PASS'],
      ['completed', 'PASS'],
    ]);
    expect(outcome.execution.strayErrors).toEqual([
      'uncaught exception outside the awaited call: Error: raised outside every attempt',
    ]);
    expect(outcome.judgment).toMatchObject({ verdict: 'UNKNOWN', testOutcome: 'fail' });
    expect(outcome.judgment.reason).toMatch(/could not be tied to one attempt/);
    expect(outcome.findings).toContainEqual(
      expect.objectContaining({
        owner: 'harness',
        kind: 'stray-error',
        message: expect.stringMatching(/raised outside every attempt/),
      }),
    );
    expect(outcome.capabilities).toEqual([]);
    expect(index.trials.map((row) => [row.name, row.verdict, row.testOutcome])).toEqual([
      ['a trial during which an error no attempt owns is raised', 'UNKNOWN', 'fail'],
    ]);
    expect(run.output).toMatch(
      /harness[\s\S]*raised outside every attempt, while this trial ran \(not tied to one attempt\)/,
    );
  });
});
