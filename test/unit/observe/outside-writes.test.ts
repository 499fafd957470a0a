import { linkSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { snapshotFolder } from '../../../src/observe/file-snapshot.js';
import { NoticeStream } from '../../../src/observe/outside-notices.js';
import {
  defaultOutsideRoots,
  OutsideWatch,
  type OutsideRoot,
  outsideWindow,
} from '../../../src/observe/outside-writes.js';

// Every behaviour holds for both ways of looking: marks in the change notifications, and walks where there are none.
const ways = [
  ['notifications', () => new NoticeStream()],
  ['walks', () => null],
] as const;

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
  return { name: 'project', path: dir, depth: null, skipNames: ['node_modules'], skipFolders: [] };
}

describe.each(ways)('OutsideWatch, looking by %s', (way, notices) => {
  const watchOf = (roots: OutsideRoot[], window: 'attempt' | 'trial', maxEntries?: number) =>
    new OutsideWatch(roots, window, maxEntries, notices());

  it('ties a change to the one attempt running between two walks, and a change between attempts to none', async () => {
    const root = project();
    const watch = watchOf([root], 'attempt');
    watch.started('case#0');
    writeFileSync(path.join(root.path, 'src', 'a.ts'), 'changed by attempt 0');
    writeFileSync(path.join(root.path, 'node_modules', 'cache'), 'not watched');
    watch.ended('case#0');
    rmSync(path.join(root.path, 'src', 'a.ts'));
    watch.started('case#1');
    writeFileSync(path.join(root.path, 'new.txt'), 'x');
    watch.ended('case#1');
    await watch.finish();
    expect(watch.record().changes).toEqual([
      { root: 'project', path: 'src/a.ts', change: 'modified', attempts: ['case#0'] },
      { root: 'project', path: 'src/a.ts', change: 'deleted', attempts: [] },
      { root: 'project', path: 'new.txt', change: 'created', attempts: ['case#1'] },
    ]);
  });

  it('ties a change made while attempts overlapped to all of them, not to one', async () => {
    const root = project();
    const watch = watchOf([root], 'attempt');
    watch.started('case#0');
    watch.started('case#1');
    writeFileSync(path.join(root.path, 'shared.txt'), 'x');
    watch.ended('case#0');
    watch.ended('case#1');
    await watch.finish();
    expect(watch.record().changes).toEqual([
      { root: 'project', path: 'shared.txt', change: 'created', attempts: ['case#0', 'case#1'] },
    ]);
  });

  it('stops at its entry bound and says so, without calling unseen entries created or deleted', async () => {
    const root = project();
    for (let i = 0; i < 20; i++) writeFileSync(path.join(root.path, `f${String(i).padStart(2, '0')}.txt`), 'x');
    const watch = watchOf([root], 'attempt', 10);
    watch.started('case#0');
    writeFileSync(path.join(root.path, 'f00.txt'), 'changed');
    watch.ended('case#0');
    await watch.finish();
    const record = watch.record();
    expect(record.roots).toEqual([{ name: 'project', depth: null, truncated: true }]);
    expect(record.changes).toEqual([{ root: 'project', path: 'f00.txt', change: 'modified', attempts: ['case#0'] }]);
  });

  it('looks only at the entries directly in a depth-1 root', async () => {
    const root = project();
    const home: OutsideRoot = { ...root, name: 'home', depth: 1 };
    const watch = watchOf([home], 'attempt');
    watch.started('case#0');
    writeFileSync(path.join(root.path, 'src', 'deeper.txt'), 'not itself seen: below the depth');
    writeFileSync(path.join(root.path, 'top.txt'), 'seen');
    watch.ended('case#0');
    await watch.finish();
    // The deeper file shows only as its folder's changed stamp.
    expect(watch.record().changes).toEqual([
      { root: 'home', path: 'src', change: 'modified', attempts: ['case#0'] },
      { root: 'home', path: 'top.txt', change: 'created', attempts: ['case#0'] },
    ]);
  });

  it("records a project file its workspace's snapshot holds a hard link to as modified, written through or not", async () => {
    const root = project();
    writeFileSync(path.join(root.path, 'src', 'b.ts'), 'b');
    const workspace = mkdtempSync(path.join(os.tmpdir(), 'outside-writes-workspace-'));
    made.push(workspace);
    const watch = watchOf([root], 'attempt');
    watch.started('case#0');
    // A write through a hard link tells only the workspace's folder; the project's watch hears nothing of it.
    linkSync(path.join(root.path, 'src', 'a.ts'), path.join(workspace, 'h'));
    writeFileSync(path.join(workspace, 'h'), 'PWNED');
    await snapshotFolder(workspace, 0);
    watch.ended('case#0');
    watch.started('case#1');
    // Only linked, in a later attempt with nothing else changed: its mtime and size are as they were.
    linkSync(path.join(root.path, 'src', 'b.ts'), path.join(workspace, 'k'));
    rmSync(path.join(workspace, 'h'));
    await snapshotFolder(workspace, 0);
    watch.ended('case#1');
    await watch.finish();
    expect(watch.record().changes).toEqual([
      { root: 'project', path: 'src/a.ts', change: 'modified', attempts: ['case#0'] },
      { root: 'project', path: 'src/b.ts', change: 'modified', attempts: ['case#1'] },
    ]);
  });

  it("takes no snapshot of a folder it looks at (the project's fixtures) for a workspace linked out of it", async () => {
    const root = project();
    mkdirSync(path.join(root.path, 'fixtures'));
    linkSync(path.join(root.path, 'src', 'a.ts'), path.join(root.path, 'fixtures', 'a.ts'));
    const watch = watchOf([root], 'attempt');
    watch.started('case#0');
    await snapshotFolder(path.join(root.path, 'fixtures'), 0);
    watch.ended('case#0');
    await watch.finish();
    expect(watch.record().changes).toEqual([]);
  });

  it('records a link to a folder as an entry, never walking through it; a change behind the link is not seen', async () => {
    const root = project();
    const elsewhere = mkdtempSync(path.join(os.tmpdir(), 'outside-writes-target-'));
    made.push(elsewhere);
    symlinkSync(elsewhere, path.join(root.path, 'linked'));
    const watch = watchOf([root], 'attempt');
    watch.started('case#0');
    writeFileSync(path.join(elsewhere, 'behind-the-link.txt'), 'x');
    writeFileSync(path.join(root.path, 'src', 'b.ts'), 'deep in a walked folder');
    rmSync(path.join(root.path, 'linked'));
    mkdirSync(path.join(root.path, 'linked'));
    writeFileSync(path.join(root.path, 'linked', 'now-a-folder.txt'), 'x');
    watch.ended('case#0');
    await watch.finish();
    expect(watch.record().changes).toEqual([
      { root: 'project', path: 'linked', change: 'deleted', attempts: ['case#0'] },
      { root: 'project', path: 'linked/now-a-folder.txt', change: 'created', attempts: ['case#0'] },
      { root: 'project', path: 'src/b.ts', change: 'created', attempts: ['case#0'] },
    ]);
  });

  it('takes entries in name order, folder by folder, up to its bound: the same entries every look', async () => {
    const root = project();
    mkdirSync(path.join(root.path, 'b'));
    mkdirSync(path.join(root.path, 'a'));
    for (const name of ['z', 'y', 'x']) writeFileSync(path.join(root.path, 'b', name), name);
    for (const name of ['3', '1', '2']) writeFileSync(path.join(root.path, 'a', name), name);
    writeFileSync(path.join(root.path, 'top'), 't');
    // Bound 5: top, then a/1, a/2, a/3, then b/x; src/a.ts and b/y, b/z are past it.
    const watch = watchOf([root], 'attempt', 5);
    watch.started('case#0');
    for (const file of ['top', 'a/1', 'a/2', 'a/3', 'b/x', 'b/y', 'src/a.ts'])
      writeFileSync(path.join(root.path, file), 'changed!');
    watch.ended('case#0');
    await watch.finish();
    // Walks stop at the fifth entry. Notifications watch whole folders in the same order while the bound leaves room
    // for all their entries: the root's four, then src's one; a and b (three each) are left unwatched.
    expect(watch.record().changes.map((change) => change.path)).toEqual(
      way === 'walks' ? ['a/1', 'a/2', 'a/3', 'b/x', 'top'] : ['src/a.ts', 'top'],
    );
    expect(watch.record().roots[0]?.truncated).toBe(true);
  });

  it('in a trial window walks only before the first attempt and after the last, tying changes to no attempt', async () => {
    const root = project();
    const watch = watchOf([root], 'trial');
    watch.started('case#0');
    writeFileSync(path.join(root.path, 'during-0.txt'), 'x');
    watch.ended('case#0');
    // Nothing walked around the attempt: the change is not seen until the closing walk.
    expect(watch.record().changes).toEqual([]);
    watch.started('case#1');
    watch.ended('case#1');
    await watch.finish();
    const record = watch.record();
    expect(record.window).toBe('trial');
    expect(record.changes).toEqual([{ root: 'project', path: 'during-0.txt', change: 'created', attempts: [] }]);
  });

  it("leaves riddle's report folder out of the project's walk under any name, and nothing else", async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'outside-writes-reports-'));
    made.push(dir);
    mkdirSync(path.join(dir, 'out', 'riddle', 'streaming'), { recursive: true });
    mkdirSync(path.join(dir, 'out', 'riddle-other'), { recursive: true });
    const [projectRoot] = defaultOutsideRoots(dir, [
      path.join(dir, 'out', 'riddle'),
      path.join(dir, '..', 'elsewhere'),
    ]);
    if (!projectRoot) throw new Error('no project root');
    const watch = watchOf([projectRoot], 'attempt');
    watch.started('case#0');
    writeFileSync(path.join(dir, 'out', 'riddle', 'streaming', 'trial.attempts.jsonl'), '{}\n');
    writeFileSync(path.join(dir, 'out', 'riddle-other', 'x.txt'), 'x');
    watch.ended('case#0');
    await watch.finish();
    expect(watch.record().changes).toEqual([
      { root: 'project', path: 'out/riddle-other/x.txt', change: 'created', attempts: ['case#0'] },
    ]);
  });
});

describe('outside roots and windows', () => {
  it('watches commands around each attempt and functions over the trial; isolated subjects not at all', () => {
    expect(outsideWindow({ kind: 'command', isolation: null })).toBe('attempt');
    expect(outsideWindow({ kind: 'function', isolation: null })).toBe('trial');
    expect(outsideWindow({ kind: 'http', isolation: null })).toBeNull();
    expect(outsideWindow({ kind: 'command', isolation: { engine: 'bwrap', network: 'none' } })).toBeNull();
  });

  it('never watches the temporary folder, which every process on the machine writes to', () => {
    const roots = defaultOutsideRoots(path.join(os.homedir(), 'no-such-project-outside-home-check'));
    expect(roots.map((root) => root.name)).not.toContain('temp');
    expect(roots.every((root) => root.path !== os.tmpdir())).toBe(true);
  });
});
