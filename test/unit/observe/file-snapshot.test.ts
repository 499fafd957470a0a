import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import { diffSnapshots, type FileEntry, snapshotFolder } from '../../../src/observe/file-snapshot.js';

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

  test('FIFOs and sockets are skipped, never opened (a FIFO would wait for a writer)', async () => {
    const dir = folder();
    writeFileSync(path.join(dir, 'a.txt'), 'a');
    execFileSync('mkfifo', [path.join(dir, 'pipe')]);
    expect([...(await snapshotFolder(dir, 100)).keys()]).toEqual(['a.txt']);
  });
});
