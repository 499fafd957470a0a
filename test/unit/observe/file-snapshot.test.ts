import { describe, expect, test } from 'vitest';
import { diffSnapshots, type FileEntry } from '../../../src/observe/file-snapshot.js';

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
