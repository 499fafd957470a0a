import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { OutsideWatch, type OutsideRoot } from '../../../src/observe/outside-writes.js';

const made: string[] = [];
afterEach(() => {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function project(): OutsideRoot {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'outside-writes-'));
  made.push(dir);
  mkdirSync(path.join(dir, 'src'));
  mkdirSync(path.join(dir, 'node_modules'));
  writeFileSync(path.join(dir, 'src', 'a.ts'), 'a');
  return { name: 'project', path: dir, depth: null, compares: 'stamps', skip: (r) => r === 'node_modules' };
}

describe('OutsideWatch', () => {
  it('ties a change to the one attempt running between two walks, and a change between attempts to none', () => {
    const root = project();
    const watch = new OutsideWatch([root]);
    watch.started('case#0');
    writeFileSync(path.join(root.path, 'src', 'a.ts'), 'changed by attempt 0');
    writeFileSync(path.join(root.path, 'node_modules', 'cache'), 'not watched');
    watch.ended('case#0');
    rmSync(path.join(root.path, 'src', 'a.ts'));
    watch.started('case#1');
    writeFileSync(path.join(root.path, 'new.txt'), 'x');
    watch.ended('case#1');
    expect(watch.record().changes).toEqual([
      { root: 'project', path: 'src/a.ts', change: 'modified', attempts: ['case#0'] },
      { root: 'project', path: 'src/a.ts', change: 'deleted', attempts: [] },
      { root: 'project', path: 'new.txt', change: 'created', attempts: ['case#1'] },
    ]);
  });

  it('ties a change made while attempts overlapped to all of them, not to one', () => {
    const root = project();
    const watch = new OutsideWatch([root]);
    watch.started('case#0');
    watch.started('case#1');
    writeFileSync(path.join(root.path, 'shared.txt'), 'x');
    watch.ended('case#0');
    watch.ended('case#1');
    expect(watch.record().changes).toEqual([
      { root: 'project', path: 'shared.txt', change: 'created', attempts: ['case#0', 'case#1'] },
    ]);
  });

  it('stops at its entry bound and says so, without calling unseen entries created or deleted', () => {
    const root = project();
    for (let i = 0; i < 20; i++) writeFileSync(path.join(root.path, `f${String(i).padStart(2, '0')}.txt`), 'x');
    const watch = new OutsideWatch([root], 10);
    watch.started('case#0');
    writeFileSync(path.join(root.path, 'f00.txt'), 'changed');
    watch.ended('case#0');
    const record = watch.record();
    expect(record.roots).toEqual([{ name: 'project', depth: null, compares: 'stamps', truncated: true }]);
    expect(record.changes).toEqual([{ root: 'project', path: 'f00.txt', change: 'modified', attempts: ['case#0'] }]);
  });

  it('looks only at the entries directly in a depth-1 root; with `entries`, only whether they exist', () => {
    const root = project();
    const temp: OutsideRoot = { ...root, name: 'temp', depth: 1, compares: 'entries' };
    const watch = new OutsideWatch([temp]);
    watch.started('case#0');
    writeFileSync(path.join(root.path, 'src', 'deeper.txt'), 'not seen: below the depth');
    writeFileSync(path.join(root.path, 'top.txt'), 'seen');
    watch.ended('case#0');
    expect(watch.record().changes).toEqual([
      { root: 'temp', path: 'top.txt', change: 'created', attempts: ['case#0'] },
    ]);
  });
});
