import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execa } from 'execa';
import { afterAll, describe, expect, test } from 'vitest';
import { runProcess } from '../../../src/observe/process-run.js';

// riddle spawned commands through execa until its CPU per round mattered; a command that cannot start is still
// recorded in execa's words, so stored attempts read the same.
const scratch = mkdtempSync(path.join(os.tmpdir(), 'start-failure-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));
const notExecutable = path.join(scratch, 'plain.txt');
writeFileSync(notExecutable, 'not a program');

const spec = (command: string, args: string[], extra: { cwd?: string; env?: Record<string, string> } = {}) => ({
  command,
  args,
  cwd: extra.cwd ?? scratch,
  env: extra.env ?? { PATH: process.env.PATH ?? '' },
  stdin: null,
  maxOutputBytes: 1024,
  killGraceMs: 100,
  signal: new AbortController().signal,
});

async function execaSays(s: ReturnType<typeof spec>): Promise<string> {
  const result = await execa(s.command, s.args, {
    cwd: s.cwd,
    env: s.env,
    extendEnv: false,
    stdin: 'ignore',
    detached: true,
    buffer: false,
    reject: false,
  });
  expect(result.failed).toBe(true);
  return String(result.shortMessage);
}

describe('a command that cannot start', () => {
  const cases: [string, ReturnType<typeof spec>][] = [
    ['missing', spec(path.join(scratch, 'no-such-program'), ['plain', 'two words', "it's", ''])],
    ['not executable', spec(notExecutable, [])],
    ['a folder', spec(scratch, ['--flag'])],
    [
      'arguments with control characters, escapes, separators and astral characters',
      spec(path.join(scratch, 'missing'), [
        '\u001b[31mred\u001b[0m',
        'tab\there',
        'new\nline',
        'nbsp\u00a0',
        'zw\u200b',
        '😀',
        '\u0007',
      ]),
    ],
    ['a working folder that does not exist', spec('/bin/true', [], { cwd: path.join(scratch, 'gone') })],
    ['a working folder that is a file', spec('/bin/true', [], { cwd: notExecutable })],
    ['an environment value with a NUL byte', spec('/bin/true', [], { env: { A: 'a\0b' } })],
    ['arguments too long for the system', spec('/bin/echo', ['x'.repeat(3_000_000)])],
  ];
  test.each(cases)('is a harness_error in the words execa used, on one line: %s', async (_, s) => {
    const run = await runProcess(s);
    expect(run.exit).toBeNull();
    // execa's first line names the command, the lines after it say why: one line, the command then the reason.
    const [first, ...why] = (await execaSays(s)).split('\n');
    const reason =
      s.command === scratch ? ['it is a folder'] : s.command === notExecutable ? ['it is not executable'] : [];
    expect(run.failure).toEqual({
      status: 'harness_error',
      message: `could not start ${s.command}: ${first}: ${[...reason, ...why].join('; ')}`,
    });
  });

  test('a folder or a file that is not executable is named with the reason, on one line', async () => {
    const folder = await runProcess(spec(scratch, []));
    expect(folder.failure?.message).toBe(
      `could not start ${scratch}: Command failed with EACCES: ${scratch}: it is a folder; spawn ${scratch} EACCES`,
    );
    const plain = await runProcess(spec(notExecutable, []));
    expect(plain.failure?.message).toBe(
      `could not start ${notExecutable}: Command failed with EACCES: ${notExecutable}: it is not executable; spawn ${notExecutable} EACCES`,
    );
  });

  test('an argument holding a NUL byte is thrown, as execa threw it', async () => {
    const s = spec('/bin/echo', ['ok', 'a\0b']);
    const thrown = await runProcess(s).catch((error: unknown) => error);
    const execaThrew = await execaSays(s).catch((error: unknown) => error);
    expect(thrown).toBeInstanceOf(TypeError);
    expect((thrown as Error).message).toBe((execaThrew as Error).message);
  });
});
