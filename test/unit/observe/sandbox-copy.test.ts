import { execFileSync } from 'node:child_process';
import {
  chmodSync,
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readlinkSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import { snapshotFolder } from '../../../src/observe/file-snapshot.js';
import { createSandbox, FixtureError } from '../../../src/observe/sandbox.js';

const made: string[] = [];
afterEach(() => {
  for (const dir of made.splice(0)) {
    execFileSync('chmod', ['-R', 'u+rwx', dir]);
    rmSync(dir, { recursive: true, force: true });
  }
});

function scratch(): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'sandbox-copy-'));
  made.push(dir);
  return dir;
}

const mode = (file: string) => lstatSync(file).mode & 0o7777;

describe('createSandbox copies fixtures as fs.cp did', () => {
  test('files and folders keep their modes, links their targets (not followed), large files and many entries too', async () => {
    const fixtures = scratch();
    writeFileSync(path.join(fixtures, 'run.sh'), '#!/bin/sh\n');
    chmodSync(path.join(fixtures, 'run.sh'), 0o751);
    mkdirSync(path.join(fixtures, 'locked'));
    writeFileSync(path.join(fixtures, 'locked', 'inside.txt'), 'inside');
    chmodSync(path.join(fixtures, 'locked', 'inside.txt'), 0o400);
    mkdirSync(path.join(fixtures, 'many'));
    for (let i = 0; i < 600; i++) writeFileSync(path.join(fixtures, 'many', `f${i}.txt`), `file ${i}`);
    // Larger than the synchronous copy's bound: copied without blocking, byte for byte.
    const large = Buffer.alloc(3 * 1024 * 1024 + 17, 7);
    large.write('start', 0);
    writeFileSync(path.join(fixtures, 'large.bin'), large);
    symlinkSync('/etc/hostname', path.join(fixtures, 'outside-link'));
    symlinkSync('../run.sh', path.join(fixtures, 'many', 'relative-link'));
    chmodSync(path.join(fixtures, 'locked'), 0o555);
    const sandbox = await createSandbox(fixtures, 'copy-check');
    try {
      expect(mode(path.join(sandbox.path, 'run.sh'))).toBe(0o751);
      expect(mode(path.join(sandbox.path, 'locked'))).toBe(0o555);
      expect(mode(path.join(sandbox.path, 'locked', 'inside.txt'))).toBe(0o400);
      expect(readlinkSync(path.join(sandbox.path, 'outside-link'))).toBe('/etc/hostname');
      expect(lstatSync(path.join(sandbox.path, 'outside-link')).isSymbolicLink()).toBe(true);
      expect(readlinkSync(path.join(sandbox.path, 'many', 'relative-link'))).toBe('../run.sh');
      expect(readFileSync(path.join(sandbox.path, 'large.bin')).equals(large)).toBe(true);
      // The sandbox holds exactly what the fixture folder holds.
      expect([...(await snapshotFolder(sandbox.path, 1024))]).toEqual([...(await snapshotFolder(fixtures, 1024))]);
      expect((await snapshotFolder(sandbox.path, 0)).size).toBe(605);
    } finally {
      chmodSync(path.join(sandbox.path, 'locked'), 0o755);
      await sandbox.remove();
    }
  });

  test('a FIFO anywhere in the fixtures is a FixtureError naming it, and no sandbox is left', async () => {
    const fixtures = scratch();
    mkdirSync(path.join(fixtures, 'deep'));
    writeFileSync(path.join(fixtures, 'ok.txt'), 'fine');
    execFileSync('mkfifo', [path.join(fixtures, 'deep', 'pipe')]);
    const error = await createSandbox(fixtures, 'fifo-copy-check').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(FixtureError);
    expect((error as Error).message).toMatch(/could not copy fixtures from .*deep\/pipe is not a file, folder or link/);
    const left = execFileSync('ls', [os.tmpdir()], { encoding: 'utf8' }).split('\n');
    expect(left.filter((name) => name.startsWith('riddle-fifo-copy-check-'))).toEqual([]);
  });
});

describe("a sandbox's removal", () => {
  test.each([
    ['a few entries, a link to a folder', 10, 'folder'],
    ['a few entries, a link to a file', 10, 'file'],
    ['more than are removed synchronously', 400, 'folder'],
  ] as const)('takes everything in it (%s), and nothing a link in it points to', async (_, count, link) => {
    const outside = scratch();
    writeFileSync(path.join(outside, 'keep.txt'), 'keep');
    const sandbox = await createSandbox(null, 'removal-check');
    mkdirSync(path.join(sandbox.path, 'a', 'b'), { recursive: true });
    for (let i = 0; i < count; i++) writeFileSync(path.join(sandbox.path, 'a', 'b', `f${i}`), 'x');
    if (link === 'folder') symlinkSync(outside, path.join(sandbox.path, 'a', 'to-outside'));
    else symlinkSync(path.join(outside, 'keep.txt'), path.join(sandbox.path, 'file-link'));
    await sandbox.remove();
    expect(existsSync(sandbox.path)).toBe(false);
    expect(readFileSync(path.join(outside, 'keep.txt'), 'utf8')).toBe('keep');
  });

  test('a sandbox replaced by a link (by a hostile subject) is removed as a link: its target keeps its files', async () => {
    const outside = scratch();
    writeFileSync(path.join(outside, 'keep.txt'), 'keep');
    mkdirSync(path.join(outside, 'sub'));
    writeFileSync(path.join(outside, 'sub', 'keep.txt'), 'keep');
    const sandbox = await createSandbox(null, 'replaced-check');
    rmSync(sandbox.path, { recursive: true });
    symlinkSync(outside, sandbox.path);
    await sandbox.remove();
    expect(existsSync(sandbox.path)).toBe(false);
    expect(readFileSync(path.join(outside, 'keep.txt'), 'utf8')).toBe('keep');
    expect(readFileSync(path.join(outside, 'sub', 'keep.txt'), 'utf8')).toBe('keep');
  });
});
