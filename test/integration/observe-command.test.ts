import { mkdtempSync, readFileSync, realpathSync, rmSync } from 'node:fs';
import { createHash } from 'node:crypto';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { commandSubject, observeAttempt } from '../../src/observe/index.js';
import { alive, eventually, plan, SCRIPTED } from './observe-support.js';

const scratch = mkdtempSync(path.join(os.tmpdir(), 'riddle-observe-command-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const scripted = (extra: Partial<Parameters<typeof commandSubject>[0]> = {}) =>
  commandSubject({ name: 'scripted', command: process.execPath, args: [SCRIPTED], killGraceMs: 300, ...extra });

describe('command subjects', () => {
  test('a completed round keeps the reply, claims, exit, output and resources', async () => {
    const subject = scripted({ stdout: 'json' });
    const steps = [
      ['stderr', 'thinking\n'],
      ['burn', 120],
      ['alloc', 40],
      ['reply', { reply: 'done', claims: [{ action: 'created', target: 'a.txt', text: 'I made a.txt' }] }],
    ];
    const observed = await observeAttempt(plan(subject, JSON.stringify(steps)));
    expect(observed.error).toBeNull();
    expect(observed.status).toBe('completed');
    const observation = observed.observation!;
    expect(observation.rounds[0]?.reply).toBe('done');
    expect(observation.rounds[0]?.claims).toEqual([
      { action: 'created', target: 'a.txt', text: 'I made a.txt', source: 'structured', round: 1 },
    ]);
    expect(observation.exit).toMatchObject({ code: 0, signal: null, timedOut: false, stopReason: null });
    expect(observation.exit?.stderr.text).toBe('thinking\n');
    expect(observation.resources.wallMs).toBeGreaterThanOrEqual(120);
    expect(observation.resources.cpuMs).toBeGreaterThanOrEqual(50);
    expect(observation.resources.peakRssBytes).toBeGreaterThan(40 * 1024 * 1024);
    expect(observation.observers).toContainEqual({ part: 'exit', observer: 'process', grade: 'observation' });
    expect(observation.observers).toContainEqual({ part: 'resources', observer: 'process', grade: 'observation' });
  });

  test('input can go as an argument; only allowlisted variables reach the process', async () => {
    process.env.RIDDLE_TEST_VISIBLE = 'visible-value';
    process.env.RIDDLE_TEST_HIDDEN = 'hidden-value';
    try {
      const envFile = path.join(scratch, 'env.json');
      const subject = scripted({
        input: 'argument',
        env: { allow: ['PATH', 'RIDDLE_TEST_VISIBLE'], set: { EXTRA: '1' } },
      });
      const observed = await observeAttempt(plan(subject, JSON.stringify([['env', envFile]])));
      expect(observed.status).toBe('completed');
      const env = JSON.parse(readFileSync(envFile, 'utf8')) as Record<string, string>;
      expect(env.RIDDLE_TEST_VISIBLE).toBe('visible-value');
      expect(env.EXTRA).toBe('1');
      expect(env.RIDDLE_TEST_HIDDEN).toBeUndefined();
      expect(env.HOME).toBeUndefined();
      expect(env.RIDDLE_ROUND).toBe('1');
      // The command runs in a fresh sandbox, never in the project.
      expect(env.RIDDLE_WORKSPACE?.startsWith(realpathSync(os.tmpdir()))).toBe(true);
    } finally {
      delete process.env.RIDDLE_TEST_VISIBLE;
      delete process.env.RIDDLE_TEST_HIDDEN;
    }
  });

  test('a crash is a subject_error that keeps the exit code and stderr', async () => {
    const observed = await observeAttempt(
      plan(
        scripted(),
        JSON.stringify([
          ['stdout', 'partial'],
          ['throw', 'boom'],
        ]),
      ),
    );
    expect(observed.status).toBe('subject_error');
    expect(observed.error?.where).toBe('subject scripted');
    expect(observed.error?.message).toMatch(/exited with code 1: .*boom/s);
    expect(observed.observation?.exit).toMatchObject({ code: 1, signal: null, timedOut: false });
    expect(observed.observation?.exit?.stderr.text).toContain('Error: boom');
    expect(observed.observation?.rounds[0]?.reply).toBe('partial');
  });

  test('death by a signal is a subject_error naming it', async () => {
    const observed = await observeAttempt(plan(scripted(), JSON.stringify([['signal', 'SIGSEGV']])));
    expect(observed.status).toBe('subject_error');
    expect(observed.observation?.exit).toMatchObject({ code: null, signal: 'SIGSEGV' });
    expect(observed.error?.message).toMatch(/killed by SIGSEGV/);
  });

  test('declared exit codes count as completed', async () => {
    const observed = await observeAttempt(plan(scripted({ exitCodes: [0, 2] }), JSON.stringify([['exit', 2]])));
    expect(observed.status).toBe('completed');
    expect(observed.observation?.exit?.code).toBe(2);
  });

  test('a hang is killed at the declared timeout, with its grandchild: no process is left behind', async () => {
    const pidFile = path.join(scratch, 'grandchild.pid');
    const started = Date.now();
    const observed = await observeAttempt(
      plan(scripted(), JSON.stringify([['grandchild', pidFile], ['hang']]), {
        caseOverrides: { stop: { timeoutMs: 800, maxOutputBytes: 4096, maxRounds: 1 } },
      }),
    );
    const elapsed = Date.now() - started;
    const grandchild = Number(readFileSync(pidFile, 'utf8'));
    expect(grandchild).toBeGreaterThan(0);
    expect(observed.status).toBe('subject_error');
    expect(observed.error?.message).toMatch(/budget/);
    expect(observed.observation?.exit).toMatchObject({ timedOut: true, stopReason: 'timeout', signal: 'SIGKILL' });
    // Both ignore SIGTERM: SIGKILL follows after the grace period.
    expect(elapsed).toBeGreaterThanOrEqual(800);
    expect(elapsed).toBeLessThan(800 + 300 + 2000);
    expect(await eventually(() => !alive(grandchild))).toBe(true);
  });

  test('a grandchild left running after a normal exit is killed too', async () => {
    const pidFile = path.join(scratch, 'leftover.pid');
    const observed = await observeAttempt(plan(scripted(), JSON.stringify([['grandchild', pidFile]])));
    expect(observed.status).toBe('completed');
    const grandchild = Number(readFileSync(pidFile, 'utf8'));
    expect(await eventually(() => !alive(grandchild))).toBe(true);
  });

  test('a process that leaves the group cannot hold the round open (it escapes; riddle says so)', async () => {
    const pidFile = path.join(scratch, 'escaped.pid');
    const started = Date.now();
    const observed = await observeAttempt(
      plan(
        scripted(),
        JSON.stringify([
          ['escape', pidFile],
          ['stdout', 'bye'],
        ]),
      ),
    );
    const escaped = Number(readFileSync(pidFile, 'utf8'));
    process.kill(escaped, 'SIGKILL');
    expect(observed.status).toBe('completed');
    expect(Date.now() - started).toBeLessThan(3000);
    expect(observed.observation?.notes).toContainEqual(expect.stringMatching(/outside the subject's process group/));
  });

  test('output past the cap stops the process; the record says it was cut, with the hash of all it read', async () => {
    const cap = 10_000;
    const observed = await observeAttempt(
      plan(scripted(), JSON.stringify([['flood', 5_000_000], ['hang']]), {
        caseOverrides: { stop: { timeoutMs: 10_000, maxOutputBytes: cap, maxRounds: 1 } },
      }),
    );
    expect(observed.status).toBe('subject_error');
    expect(observed.error?.message).toMatch(/stdout went past the cap of 10000 bytes/);
    const stdout = observed.observation!.exit!.stdout;
    expect(observed.observation?.exit?.stopReason).toBe('output_limit');
    expect(stdout.truncated).toBe(true);
    expect(stdout.text).toHaveLength(cap);
    expect(stdout.bytes).toBeGreaterThan(cap);
    expect(stdout.sha256).toBe(createHash('sha256').update('x'.repeat(stdout.bytes)).digest('hex'));
  });

  test('stdout declared JSON: not JSON, or malformed claims, is a subject_error; other JSON is the reply', async () => {
    const json = scripted({ stdout: 'json' });
    const notJson = await observeAttempt(plan(json, JSON.stringify([['stdout', 'plain words']])));
    expect(notJson.status).toBe('subject_error');
    expect(notJson.error?.message).toMatch(/stdout is not JSON/);
    expect(notJson.observation?.rounds[0]?.reply).toBe('plain words');
    const badClaims = await observeAttempt(
      plan(
        json,
        JSON.stringify([['reply', { reply: 'x', claims: [{ action: 'teleported', target: 'a', text: 'b' }] }]]),
      ),
    );
    expect(badClaims.error?.message).toMatch(/stdout claims are malformed at claims\.0\.action/);
    const other = await observeAttempt(plan(json, JSON.stringify([['reply', [1, 2]]])));
    expect(other.observation?.rounds[0]?.reply).toEqual([1, 2]);
  });

  test('a command that cannot start is a harness_error', async () => {
    const subject = commandSubject({ name: 'missing', command: path.join(scratch, 'no-such-program') });
    const observed = await observeAttempt(plan(subject, 'hello'));
    expect(observed.status).toBe('harness_error');
    expect(observed.error?.message).toMatch(/could not start/);
  });

  test('several rounds: each gets its input, the history file and its round number', async () => {
    const subject = commandSubject({
      name: 'rounds',
      command: process.execPath,
      args: [
        '-e',
        "const fs=require('fs');process.stdout.write(JSON.stringify({round:process.env.RIDDLE_ROUND,input:fs.readFileSync(0,'utf8'),history:JSON.parse(fs.readFileSync(process.env.RIDDLE_HISTORY,'utf8'))}))",
      ],
      stdout: 'json',
    });
    const observed = await observeAttempt(plan(subject, 'first', { caseOverrides: { followUps: ['second'] } }));
    expect(observed.status).toBe('completed');
    expect(observed.observation?.rounds.map((r) => r.reply)).toEqual([
      { round: '1', input: 'first', history: [] },
      {
        round: '2',
        input: 'second',
        history: [{ input: 'first', reply: { round: '1', input: 'first', history: [] } }],
      },
    ]);
  });
});
