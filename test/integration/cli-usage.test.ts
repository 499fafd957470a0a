import { readFileSync } from 'node:fs';
import path from 'node:path';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import { repoRoot } from './support.js';

const cli = path.join(repoRoot, 'dist', 'cli', 'main.js');
const riddle = (args: readonly string[]) =>
  execa(process.execPath, [cli, ...args], { reject: false, env: { NO_COLOR: '1' } });
const commands = ['read', 'diff', 'rejudge', 'calibrate', 'stopping', 'schema'];
const noStack = (text: string) => expect(text).not.toMatch(/\n\s+at .+:\d+:\d+/);

describe('the riddle command line', () => {
  it('gives every subcommand a --help and -h with its usage, exit 0', async () => {
    for (const command of commands) {
      for (const flag of ['--help', '-h']) {
        const result = await riddle([command, flag]);
        expect(result.exitCode, `${command} ${flag}`).toBe(0);
        expect(result.stdout).toMatch(new RegExp(`^usage: riddle ${command} `));
        expect(result.stdout).toMatch(/exit 0/);
        expect(result.stderr).toBe('');
      }
    }
    const overall = await riddle(['--help']);
    expect(overall.exitCode).toBe(0);
    for (const command of commands) expect(overall.stdout).toContain(`riddle ${command} `);
    expect(overall.stdout).toMatch(/exit codes: 0 .*; 1 .*\n2 /);
    expect((await riddle(['help', 'diff'])).stdout).toMatch(/^usage: riddle diff/);
  });

  it('prints its version', async () => {
    const { version } = JSON.parse(readFileSync(path.join(repoRoot, 'package.json'), 'utf8')) as { version: string };
    const result = await riddle(['--version']);
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toBe(version);
  });

  it('answers usage errors with the problem and the usage, exit 2, and no stack trace', async () => {
    for (const args of [
      ['rejudge', '--frob'],
      ['calibrate', '--bogus', 'x'],
      ['stopping', '--explain', '--nope'],
      ['read'],
      ['schema', 'nothing'],
      ['frobnicate'],
    ]) {
      const result = await riddle(args);
      expect(result.exitCode, args.join(' ')).toBe(2);
      expect(result.stderr).toMatch(/^riddle( \w+)?: /);
      expect(result.stderr).toMatch(/usage: riddle|riddle <command> --help/);
      noStack(result.stderr);
    }
    const missing = await riddle(['read', '/no/such/run']);
    expect(missing.exitCode).toBe(2);
    expect(missing.stderr).toBe('riddle: /no/such/run: no such file');
    // A missing argument reads as every command's usage errors do: `riddle <command>: …`, then the usage.
    for (const [args, message] of [
      [['calibrate'], 'riddle calibrate: needs --evaluator <module.js>\n\nusage: riddle calibrate '],
      [['rejudge'], 'riddle rejudge: needs a run folder, index.json or outcome.json\n\nusage: riddle rejudge '],
      [['rejudge', 'run'], 'riddle rejudge: needs --evaluators <module.js>'],
    ] as const) {
      const result = await riddle(args);
      expect(result.exitCode, args.join(' ')).toBe(2);
      expect(result.stderr).toContain(message);
      noStack(result.stderr);
    }
  });

  it('riddle read parses its options as the other commands do: an unknown one is named, not taken for a file', async () => {
    for (const args of [
      ['read', '--verbose', 'riddle-report'],
      ['read', '-x'],
    ]) {
      const result = await riddle(args);
      expect(result.exitCode, args.join(' ')).toBe(2);
      expect(result.stderr).toMatch(new RegExp(`^riddle read: Unknown option '${args[1]}'`));
      expect(result.stderr).toContain('usage: riddle read ');
    }
  });

  it('names the record versions the commands write as they are', async () => {
    const { COMPARISON_SCHEMA, FINDINGS_SCHEMA } = await import('../../src/model/index.js');
    expect((await riddle(['findings', '--help'])).stdout).toContain(`json (${FINDINGS_SCHEMA})`);
    expect((await riddle(['diff', '--help'])).stdout).toContain(`the ${COMPARISON_SCHEMA} record`);
  });

  it('stops quietly when the reader of its output goes away (riddle schema outcome | head)', async () => {
    const result = await execa('sh', ['-c', `"${process.execPath}" "${cli}" schema outcome | head -n 1`], {
      reject: false,
    });
    expect(result.stdout).toBe('{');
    expect(result.stderr).toBe('');
  });
});
