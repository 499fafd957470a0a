import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { linkSync, lstatSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, truncateSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import {
  diffSnapshots,
  type FileEntry,
  hearLinkedFiles,
  type LinkedFile,
  SnapshotBoundError,
  snapshotFolder,
} from '../../../src/observe/file-snapshot.js';

const entry = (sha256: string, size = 1, text: string | null = 'x'): FileEntry => ({ sha256, size, text });

describe('diffSnapshots', () => {
  test('created, modified and deleted files by path; unchanged ones are left out', () => {
    const before = new Map([
      ['same.txt', entry('s')],
      ['edit.txt', entry('e1', 2, 'old')],
      ['gone.txt', entry('g', 3, 'bye')],
    ]);
    const after = new Map([
      ['same.txt', entry('s')],
      ['edit.txt', entry('e2', 4, 'new!')],
      ['a/new.bin', entry('n', 9, null)],
    ]);
    expect(diffSnapshots(before, after)).toEqual([
      { path: 'a/new.bin', change: 'created', size: 9, sha256Before: null, sha256After: 'n', content: null },
      { path: 'edit.txt', change: 'modified', size: 4, sha256Before: 'e1', sha256After: 'e2', content: 'new!' },
      { path: 'gone.txt', change: 'deleted', size: 3, sha256Before: 'g', sha256After: null, content: 'bye' },
    ]);
  });

  test('no change, no record', () => {
    const snapshot = new Map([['a', entry('1')]]);
    expect(diffSnapshots(snapshot, new Map(snapshot))).toEqual([]);
  });
});

describe('snapshotFolder', () => {
  const made: string[] = [];
  afterEach(() => {
    for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
  });
  const folder = () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'snapshot-'));
    made.push(dir);
    return dir;
  };
  const sha256 = (bytes: Buffer | string) => createHash('sha256').update(bytes).digest('hex');

  test('tells of a file with links outside the folder, not of one whose links are all inside it', async () => {
    const outside = folder();
    const dir = folder();
    writeFileSync(path.join(outside, 'project.txt'), 'p');
    linkSync(path.join(outside, 'project.txt'), path.join(dir, 'door'));
    mkdirSync(path.join(dir, 'sub'));
    writeFileSync(path.join(dir, 'sub', 'object'), 'o');
    linkSync(path.join(dir, 'sub', 'object'), path.join(dir, 'clone'));
    writeFileSync(path.join(dir, 'plain'), 'x');
    const heard: [string, readonly LinkedFile[]][] = [];
    const stop = hearLinkedFiles((where, files) => heard.push([where, files]));
    try {
      expect([...(await snapshotFolder(dir, 0)).keys()]).toEqual(['clone', 'door', 'plain', 'sub/object']);
    } finally {
      stop();
    }
    const { dev, ino } = lstatSync(path.join(outside, 'project.txt'));
    expect(heard).toEqual([[dir, [{ paths: ['door'], dev, ino }]]]);
    await snapshotFolder(dir, 0);
    expect(heard).toHaveLength(1);
  });

  test('small and large files by their whole content, text kept up to the bound, links by target', async () => {
    const dir = folder();
    const large = Buffer.alloc(2 * 1024 * 1024 + 5, 'ab');
    writeFileSync(path.join(dir, 'large.txt'), large);
    const binary = Buffer.alloc(3 * 1024 * 1024 + 1, 0);
    binary.write('not text', 100);
    mkdirSync(path.join(dir, 'deep', 'er'), { recursive: true });
    writeFileSync(path.join(dir, 'deep', 'er', 'binary.bin'), binary);
    writeFileSync(path.join(dir, 'small.txt'), 'héllo');
    writeFileSync(path.join(dir, 'empty'), '');
    symlinkSync('/etc/passwd', path.join(dir, 'deep', 'link'));
    for (let i = 0; i < 300; i++) writeFileSync(path.join(dir, `n${i}`), String(i));
    const snapshot = await snapshotFolder(dir, 4 * 1024 * 1024);
    expect(snapshot.get('large.txt')).toEqual({ size: large.length, sha256: sha256(large), text: large.toString() });
    expect(snapshot.get('deep/er/binary.bin')).toEqual({ size: binary.length, sha256: sha256(binary), text: null });
    expect(snapshot.get('small.txt')).toEqual({ size: 6, sha256: sha256('héllo'), text: 'héllo' });
    expect(snapshot.get('empty')).toEqual({ size: 0, sha256: sha256(''), text: '' });
    expect(snapshot.get('deep/link')).toEqual({ size: 11, sha256: sha256('symlink:/etc/passwd'), text: null });
    expect(snapshot.size).toBe(305);
    const paths = [...snapshot.keys()];
    expect(paths).toEqual([...paths].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)));
    // Past the retained bound: by hash only.
    expect((await snapshotFolder(dir, 1024 * 1024)).get('large.txt')?.text).toBeNull();
    expect((await snapshotFolder(dir, 5)).get('small.txt')?.text).toBeNull();
  });

  test('within its bounds, a snapshot is the unbounded one', async () => {
    const dir = folder();
    for (let i = 0; i < 20; i++) writeFileSync(path.join(dir, `f${i}`), 'x'.repeat(i));
    mkdirSync(path.join(dir, 'sub'));
    writeFileSync(path.join(dir, 'sub', 'big'), Buffer.alloc(2 * 1024 * 1024, 1));
    const bounded = await snapshotFolder(dir, 100, { bytes: 190 + 2 * 1024 * 1024, entries: 22 });
    expect(bounded).toEqual(await snapshotFolder(dir, 100));
  });

  test('past its bytes, nothing more is read: a sparse file of 64 GiB is refused by its size at once', async () => {
    const dir = folder();
    writeFileSync(path.join(dir, 'a.txt'), 'a');
    const sparse = path.join(dir, 'sparse.bin');
    writeFileSync(sparse, '');
    // A moment to make and, hashed whole, minutes to read.
    truncateSync(sparse, 64 * 1024 * 1024 * 1024);
    const bounds = { bytes: 8 * 1024 * 1024 * 1024, entries: 100 };
    await expect(snapshotFolder(dir, 100, bounds)).rejects.toThrow(SnapshotBoundError);
    await expect(snapshotFolder(dir, 100, bounds)).rejects.toThrow(
      "the workspace's files come to more than 8 GiB, the most riddle reads of one (at sparse.bin, 64 GiB)",
    );
  });

  test('past its bytes by many files, the snapshot stops at the file that crosses the bound', async () => {
    const dir = folder();
    for (let i = 0; i < 10; i++) writeFileSync(path.join(dir, `f${i}`), 'x'.repeat(100));
    await expect(snapshotFolder(dir, 100, { bytes: 999, entries: 100 })).rejects.toThrow(
      /^the workspace's files come to more than 999 bytes, the most riddle reads of one \(at f\d, 100 bytes\)$/,
    );
    expect((await snapshotFolder(dir, 100, { bytes: 1000, entries: 100 })).size).toBe(10);
  });

  test('past its entries (folders and files alike), the listing stops', async () => {
    const dir = folder();
    mkdirSync(path.join(dir, 'a', 'b'), { recursive: true });
    for (let i = 0; i < 8; i++) writeFileSync(path.join(dir, 'a', 'b', `f${i}`), '');
    // a, a/b and 8 files: 10 entries.
    await expect(snapshotFolder(dir, 100, { bytes: 1000, entries: 9 })).rejects.toThrow(
      'the workspace holds more than 9 entries, the most riddle lists of one',
    );
    expect((await snapshotFolder(dir, 100, { bytes: 1000, entries: 10 })).size).toBe(8);
  });

  test('FIFOs and sockets are skipped, never opened (a FIFO would wait for a writer)', async () => {
    const dir = folder();
    writeFileSync(path.join(dir, 'a.txt'), 'a');
    execFileSync('mkfifo', [path.join(dir, 'pipe')]);
    expect([...(await snapshotFolder(dir, 100)).keys()]).toEqual(['a.txt']);
  });
});
