import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  symlinkSync,
  truncateSync,
  writeFileSync,
} from 'node:fs';
import { appendFile, rm, unlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { folderFingerprint, functionSubject, observeAttempt, type SubjectFunction } from '../../src/observe/index.js';
import { plan } from './observe-support.js';

const scratch = mkdtempSync(path.join(os.tmpdir(), 'riddle-observe-workspace-'));
const fixtures = path.join(scratch, 'fixtures');
const sha = (data: string | Buffer) => createHash('sha256').update(data).digest('hex');
const big = 'y'.repeat(40 * 1024);

beforeAll(() => {
  mkdirSync(path.join(fixtures, 'notes'), { recursive: true });
  writeFileSync(path.join(fixtures, 'notes/keep.txt'), 'keep me\n');
  writeFileSync(path.join(fixtures, 'notes/edit.txt'), 'before\n');
  writeFileSync(path.join(fixtures, 'notes/gone.txt'), 'soon gone\n');
  writeFileSync(path.join(fixtures, 'big.txt'), big);
  symlinkSync('/etc/hostname', path.join(fixtures, 'outside-link'));
});
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const acting = (run: SubjectFunction) => functionSubject({ name: 'acting', revision: '1', run });

describe('workspace observer', () => {
  test('fixtures are copied into a fresh sandbox; created, modified and deleted files are recorded; the sandbox is removed', async () => {
    let seen: string | null = null;
    const subject = acting(async (_input, { workspace }) => {
      seen = workspace;
      expect(readFileSync(path.join(workspace!, 'notes/keep.txt'), 'utf8')).toBe('keep me\n');
      await writeFile(path.join(workspace!, 'notes/new.txt'), 'brand new\n');
      await appendFile(path.join(workspace!, 'notes/edit.txt'), 'after\n');
      await unlink(path.join(workspace!, 'notes/gone.txt'));
      await appendFile(path.join(workspace!, 'big.txt'), 'z');
      await writeFile(path.join(workspace!, 'blob.bin'), Buffer.from([0, 1, 2, 3]));
      return 'ok';
    });
    const observed = await observeAttempt(plan(subject, 'go', { fixtures }));
    expect(observed.status).toBe('completed');
    expect(seen).not.toBeNull();
    expect(seen).not.toBe(fixtures);
    expect(existsSync(seen!)).toBe(false);
    expect(observed.sandbox).toBeUndefined();
    expect(observed.observation?.files).toEqual([
      {
        path: 'big.txt',
        change: 'modified',
        size: big.length + 1,
        sha256Before: sha(big),
        sha256After: sha(`${big}z`),
        content: null,
      },
      {
        path: 'blob.bin',
        change: 'created',
        size: 4,
        sha256Before: null,
        sha256After: sha(Buffer.from([0, 1, 2, 3])),
        content: null,
      },
      {
        path: 'notes/edit.txt',
        change: 'modified',
        size: 13,
        sha256Before: sha('before\n'),
        sha256After: sha('before\nafter\n'),
        content: 'before\nafter\n',
      },
      {
        path: 'notes/gone.txt',
        change: 'deleted',
        size: 10,
        sha256Before: sha('soon gone\n'),
        sha256After: null,
        content: 'soon gone\n',
      },
      {
        path: 'notes/new.txt',
        change: 'created',
        size: 10,
        sha256Before: null,
        sha256After: sha('brand new\n'),
        content: 'brand new\n',
      },
    ]);
    expect(observed.observation?.observers).toContainEqual({ part: 'files', observer: 'workspace', grade: 'receipt' });
    // The fixtures themselves are untouched.
    expect(readFileSync(path.join(fixtures, 'notes/gone.txt'), 'utf8')).toBe('soon gone\n');
  });

  test('a symbolic link is recorded by its target, never followed', async () => {
    const subject = acting(async (_input, { workspace }) => {
      await rm(path.join(workspace!, 'outside-link'));
      return 'ok';
    });
    const observed = await observeAttempt(plan(subject, 'go', { fixtures }));
    expect(observed.observation?.files).toEqual([
      {
        path: 'outside-link',
        change: 'deleted',
        size: '/etc/hostname'.length,
        sha256Before: sha('symlink:/etc/hostname'),
        sha256After: null,
        content: null,
      },
    ]);
  });

  test('each attempt gets its own sandbox', async () => {
    const seen: string[] = [];
    const subject = acting(async (_input, { workspace }) => {
      seen.push(workspace!);
      await writeFile(path.join(workspace!, 'notes/keep.txt'), 'changed');
      return 'ok';
    });
    const [a, b] = await Promise.all([
      observeAttempt(plan(subject, 'go', { fixtures })),
      observeAttempt(plan(subject, 'go', { fixtures, attempt: 1 })),
    ]);
    expect(new Set(seen).size).toBe(2);
    expect(a.observation?.files.map((f) => f.change)).toEqual(['modified']);
    expect(b.observation?.files.map((f) => f.change)).toEqual(['modified']);
  });

  test('without fixtures a function subject has no workspace, and files are not claimed as observed', async () => {
    const subject = acting((_input, { workspace }) => ({ reply: workspace }));
    const observed = await observeAttempt(plan(subject, 'go'));
    expect(observed.observation?.rounds[0]?.reply).toBeNull();
    expect(observed.observation?.observers?.some((o) => o.part === 'files')).toBe(false);
  });

  test('a kept sandbox survives the attempt until discarded', async () => {
    const subject = acting(() => {
      throw new Error('failed on purpose');
    });
    const observed = await observeAttempt(plan(subject, 'go', { fixtures, keepFailedSandbox: true }));
    expect(observed.status).toBe('subject_error');
    const kept = observed.sandbox!;
    expect(readFileSync(path.join(kept.path, 'notes/keep.txt'), 'utf8')).toBe('keep me\n');
    await kept.discard();
    expect(existsSync(kept.path)).toBe(false);
  });

  test("a subject that leaves a sparse file of 64 GiB is not read for an hour: its error, by the file's size, no change kept", async () => {
    const observed = await observeAttempt(
      plan(
        acting((_input, { workspace }) => {
          const file = path.join(workspace!, 'huge.bin');
          writeFileSync(file, '');
          truncateSync(file, 64 * 1024 * 1024 * 1024);
          writeFileSync(path.join(workspace!, 'notes/keep.txt'), 'changed');
          return 'made';
        }),
        'go',
        { fixtures },
      ),
    );
    expect(observed.status).toBe('subject_error');
    expect(observed.error).toEqual({
      where: 'workspace',
      message:
        "the subject left more in its workspace than riddle reads: the workspace's files come to more than 8 GiB, the most riddle reads of one (at huge.bin, 64 GiB); no file change is kept",
    });
    expect(observed.observation?.rounds[0]?.reply).toBe('made');
    expect(observed.observation?.files).toEqual([]);
    expect(observed.observation?.observers?.map((o) => o.part)).not.toContain('files');
  });

  test('a subject that leaves more entries than the bound: its error, and the listing stops there', async () => {
    const observed = await observeAttempt(
      plan(
        acting((_input, { workspace }) => {
          for (let i = 0; i < 50; i++) writeFileSync(path.join(workspace!, `n${i}.txt`), String(i));
          return 'flooded';
        }),
        'go',
        // The fixtures hold 5 entries besides the folder notes: 6.
        { fixtures, workspaceBounds: { bytes: 1024 * 1024, entries: 20 } },
      ),
    );
    expect(observed.status).toBe('subject_error');
    expect(observed.error?.message).toBe(
      'the subject left more in its workspace than riddle reads: the workspace holds more than 20 entries, the most riddle lists of one; no file change is kept',
    );
  });

  test('fixtures past the bound are a harness_error before the subject runs', async () => {
    let ran = false;
    const observed = await observeAttempt(
      plan(
        acting(() => {
          ran = true;
          return 'ok';
        }),
        'go',
        { fixtures, workspaceBounds: { bytes: 1024, entries: 100 } },
      ),
    );
    expect(observed).toMatchObject({ status: 'harness_error', observation: null, error: { where: 'workspace' } });
    expect(observed.error?.message).toMatch(/^the workspace's files come to more than 1024 bytes/);
    expect(ran).toBe(false);
  });

  test('a fixture folder that does not exist is a harness_error, and the subject never runs', async () => {
    let ran = false;
    const subject = acting(() => {
      ran = true;
      return 'ok';
    });
    const observed = await observeAttempt(plan(subject, 'go', { fixtures: path.join(scratch, 'missing') }));
    expect(observed).toMatchObject({ status: 'harness_error', observation: null, error: { where: 'workspace' } });
    expect(observed.error?.message).toMatch(/does not exist/);
    expect(ran).toBe(false);
  });

  test('a fixture that cannot be copied (a FIFO) is a harness_error and leaves no sandbox behind', async () => {
    const broken = path.join(scratch, 'broken');
    mkdirSync(broken);
    writeFileSync(path.join(broken, 'ok.txt'), 'fine');
    execFileSync('mkfifo', [path.join(broken, 'pipe')]);
    const before = new Set(listSandboxes());
    const observed = await observeAttempt(
      plan(
        acting(() => 'ok'),
        'go',
        { fixtures: broken, arm: 'fifo-check' },
      ),
    );
    expect(observed.status).toBe('harness_error');
    expect(observed.error?.message).toMatch(/could not copy fixtures/);
    expect(listSandboxes().filter((name) => !before.has(name))).toEqual([]);
  });

  test('folderFingerprint changes with content and not with location', async () => {
    const copy = path.join(scratch, 'copy');
    execFileSync('cp', ['-a', fixtures, copy]);
    expect(await folderFingerprint(copy)).toBe(await folderFingerprint(fixtures));
    writeFileSync(path.join(copy, 'notes/keep.txt'), 'other');
    expect(await folderFingerprint(copy)).not.toBe(await folderFingerprint(fixtures));
  });
});

function listSandboxes(): string[] {
  return execFileSync('ls', [os.tmpdir()], { encoding: 'utf8' })
    .split('\n')
    .filter((name) => name.startsWith('riddle-fifo-check-'));
}
