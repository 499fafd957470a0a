import {
  appendFileSync,
  closeSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readlinkSync,
  renameSync,
  rmSync,
  statSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { NoticeStream, noticeStream } from '../../../src/observe/outside-notices.js';
import { OutsideWatch, type OutsideRoot } from '../../../src/observe/outside-writes.js';
import type { OutsideWrite } from '../../../src/model/outside-writes.js';
import { seededRandom } from '../../../src/statistics/seeded-random.js';

const made: string[] = [];
afterEach(() => {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function project(): OutsideRoot {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'outside-notices-'));
  made.push(dir);
  return { name: 'project', path: dir, depth: null, skipNames: ['node_modules'], skipFolders: [] };
}

/** This process's open descriptors of removed mark files. */
const markDescriptors = () =>
  readdirSync('/proc/self/fd')
    .map(Number)
    .filter((fd) => {
      try {
        return /riddle-marks-.*\(deleted\)$/.test(readlinkSync(`/proc/self/fd/${fd}`));
      } catch {
        return false;
      }
    });

const turn = () => new Promise((resolve) => setImmediate(resolve));
const key = (change: OutsideWrite) => `${change.attempts.join(',')}|${change.path}|${change.change}`;

function filesUnder(root: string, relative = ''): string[] {
  return readdirSync(path.join(root, relative), { withFileTypes: true }).flatMap((entry) => {
    const inner = relative ? `${relative}/${entry.name}` : entry.name;
    return entry.isDirectory() ? filesUnder(root, inner) : [inner];
  });
}

function foldersUnder(root: string, relative = ''): string[] {
  return [
    relative,
    ...readdirSync(path.join(root, relative), { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .flatMap((entry) => foldersUnder(root, relative ? `${relative}/${entry.name}` : entry.name)),
  ];
}

/**
 * A seeded run of a subject's file operations (write, append, remove, make and remove folders, move files and folders,
 * move a file over another, a file made and removed at once) over 15 attempts, watched at once by notifications and by
 * walks. `realistic`: the event loop turns around each look, as it does around a command's attempt; `trial`: a
 * function subject's one window, nothing awaited; `stress`: attempts' looks with nothing awaited between them.
 */
async function run(seed: number, mode: 'realistic' | 'trial' | 'stress') {
  const root = project();
  const dir = root.path;
  const random = seededRandom(seed);
  const pick = <T>(items: readonly T[]) => items[Math.floor(random() * items.length)] as T;
  let n = 0;
  const fresh = (prefix: string) => `${pick(foldersUnder(dir))}/${prefix}${n++}`.replace(/^\//, '');
  const full = (relative: string) => path.join(dir, relative);
  mkdirSync(full('d0'));
  for (let i = 0; i < 10; i++) writeFileSync(full(fresh('f')), 'x'.repeat(i + 1));
  const before = new Map(filesUnder(dir).map((file) => [file, statSync(full(file)).size]));
  const operate = () => {
    const files = filesUnder(dir);
    const folders = foldersUnder(dir).filter(Boolean);
    const roll = random();
    if (roll < 0.25 || files.length === 0) writeFileSync(full(fresh('f')), 'y'.repeat(1 + Math.floor(random() * 5)));
    else if (roll < 0.45) appendFileSync(full(pick(files)), 'z');
    else if (roll < 0.55) rmSync(full(pick(files)));
    else if (roll < 0.62) mkdirSync(full(fresh('d')));
    else if (roll < 0.67 && folders.length > 0) rmSync(full(pick(folders)), { recursive: true });
    else if (roll < 0.77) renameSync(full(pick(files)), full(fresh('f')));
    else if (roll < 0.85) {
      // Moved over another file of a different size, so a walk's stamp sees the replacement too.
      const [from, onto] = [pick(files), pick(files)];
      if (from !== onto && statSync(full(from)).size !== statSync(full(onto)).size) renameSync(full(from), full(onto));
    } else if (roll < 0.92 && folders.length > 0) {
      const folder = pick(folders);
      const target = pick(foldersUnder(dir).filter((f) => f !== folder && !f.startsWith(`${folder}/`)));
      renameSync(full(folder), full(`${target}/d${n++}`.replace(/^\//, '')));
    } else {
      const passing = fresh('t');
      writeFileSync(full(passing), 'made and removed at once');
      rmSync(full(passing));
    }
  };
  const window = mode === 'trial' ? 'trial' : 'attempt';
  const notified = new OutsideWatch([root], window, 5000, new NoticeStream());
  const walked = new OutsideWatch([root], window, 5000, null);
  const both = [notified, walked];
  const settle = mode === 'realistic' ? turn : async () => {};
  for (let attempt = 0; attempt < 15; attempt++) {
    for (const watch of both) watch.started(`case#${attempt}`);
    await settle();
    for (let i = Math.floor(random() * 5); i > 0; i--) {
      operate();
      if (mode === 'realistic' && random() < 0.5) await turn();
    }
    await settle();
    for (const watch of both) watch.ended(`case#${attempt}`);
    await settle();
    if (attempt < 14 && random() < 0.3) operate();
  }
  for (const watch of both) await watch.finish();
  const after = new Map(filesUnder(dir).map((file) => [file, statSync(full(file)).size]));
  const changedOnNet = [...new Set([...before.keys(), ...after.keys()])].filter((f) => before.get(f) !== after.get(f));
  return { notified: notified.record(), walked: walked.record(), changedOnNet };
}

describe('change notifications against walks, seeded runs of file operations', () => {
  // Notifications see what walks see and more: an entry made and removed between two looks is told as created and
  // deleted, where two walks see nothing.
  const besidesWalks = (notified: OutsideWrite[], walked: OutsideWrite[]) => {
    const seen = notified.map(key);
    const passing = (k: string) =>
      seen.includes(k.replace(/\|created$/, '|deleted')) && seen.includes(k.replace(/\|deleted$/, '|created'));
    return {
      missing: walked.map(key).filter((k) => !seen.includes(k)),
      extra: seen.filter((k) => !walked.map(key).includes(k) && !passing(k)),
    };
  };

  for (const mode of ['realistic', 'trial'] as const)
    it(`${mode}: the same changes, tied to the same attempts, as walks (100 seeds)`, async () => {
      let compared = 0;
      for (let seed = 1; seed <= 100; seed++) {
        const { notified, walked } = await run(seed, mode);
        if (notified.unlisted + walked.unlisted > 0) continue; // past the listed bound the two list different ones
        compared += 1;
        expect({ seed, ...besidesWalks(notified.changes, walked.changes) }).toEqual({ seed, missing: [], extra: [] });
        expect(notified.roots[0]?.truncated).toBe(false);
      }
      expect(compared).toBeGreaterThan(80);
    });

  it('stress (looks with nothing awaited between them): every entry changed on net over the run is told (100 seeds)', async () => {
    for (let seed = 1; seed <= 100; seed++) {
      const { notified, changedOnNet } = await run(seed, 'stress');
      if (notified.unlisted > 0) continue;
      const told = new Set(notified.changes.map((change) => change.path));
      expect({ seed, untold: changedOnNet.filter((file) => !told.has(file)) }).toEqual({ seed, untold: [] });
    }
  });
});

describe('change notifications', () => {
  it('tell a file made and removed within one attempt, which two walks cannot see', async () => {
    const root = project();
    const watch = new OutsideWatch([root], 'attempt', 5000, new NoticeStream());
    watch.started('case#0');
    writeFileSync(path.join(root.path, 'scratch.txt'), 'for a moment');
    rmSync(path.join(root.path, 'scratch.txt'));
    watch.ended('case#0');
    await watch.finish();
    expect(watch.record().changes).toEqual([
      { root: 'project', path: 'scratch.txt', change: 'created', attempts: ['case#0'] },
      { root: 'project', path: 'scratch.txt', change: 'deleted', attempts: ['case#0'] },
    ]);
  });

  it('take a file moved over another as a change of it, even when it is written again before its notices are read', async () => {
    const root = project();
    for (const name of ['draft', 'target']) writeFileSync(path.join(root.path, name), name);
    const watch = new OutsideWatch([root], 'attempt', 5000, new NoticeStream());
    watch.started('case#0');
    renameSync(path.join(root.path, 'draft'), path.join(root.path, 'target'));
    watch.ended('case#0');
    watch.started('case#1');
    appendFileSync(path.join(root.path, 'target'), ' and more');
    watch.ended('case#1');
    // Told as a removal alone (a move over an entry says nothing of the entry it replaced), put right by the write.
    await watch.finish();
    expect(watch.record().changes.map(key)).toEqual([
      'case#0|draft|deleted',
      'case#0|target|modified',
      'case#1|target|modified',
    ]);
  });

  it('tell a file whose name holds a newline, escape sequences and quotes by its exact name', async () => {
    const root = project();
    const hostile = 'evil\n\u001b[31mred\u001b[0m "quoted" \u202eexe.txt';
    const watch = new OutsideWatch([root], 'trial', 5000, new NoticeStream());
    writeFileSync(path.join(root.path, hostile), 'x');
    await watch.finish();
    // Kept exact in the record; the renderers neutralise what they show (report/safe-text).
    expect(watch.record().changes).toEqual([{ root: 'project', path: hostile, change: 'created', attempts: [] }]);
  });

  it('tell what is written deep in a folder tree made during the attempt', async () => {
    const root = project();
    const watch = new OutsideWatch([root], 'trial', 5000, new NoticeStream());
    mkdirSync(path.join(root.path, 'a', 'b', 'c'), { recursive: true });
    writeFileSync(path.join(root.path, 'a', 'b', 'c', 'deep.txt'), 'x');
    writeFileSync(path.join(root.path, 'a', 'top.txt'), 'x');
    await watch.finish();
    expect(watch.record().changes.map(key)).toEqual(['|a/b/c/deep.txt|created', '|a/top.txt|created']);
  });

  it('keep two trials watching at once apart: each is told only what happened in its own window', async () => {
    const root = project();
    const stream = new NoticeStream();
    const first = new OutsideWatch([root], 'trial', 5000, stream);
    writeFileSync(path.join(root.path, 'one.txt'), 'x');
    await turn();
    const second = new OutsideWatch([root], 'trial', 5000, stream);
    writeFileSync(path.join(root.path, 'two.txt'), 'x');
    await first.finish();
    writeFileSync(path.join(root.path, 'three.txt'), 'x');
    await second.finish();
    expect(first.record().changes.map(key)).toEqual(['|one.txt|created', '|two.txt|created']);
    expect(second.record().changes.map(key)).toEqual(['|three.txt|created', '|two.txt|created']);
  });

  it('say the watch did not see everything when more notifications came at once than the queue holds', async () => {
    const root = project();
    const files = ['a', 'b'].map((name) => path.join(root.path, name));
    for (const file of files) writeFileSync(file, '');
    // A small queue limit stands in for the kernel's (16,384 by default): the batch reaches it, so some may be lost.
    const watch = new OutsideWatch([root], 'trial', 5000, new NoticeStream(50));
    for (let i = 1; i <= 60; i++) utimesSync(files[i % 2] as string, i, i);
    await watch.finish();
    expect(watch.record().roots).toEqual([{ name: 'project', depth: null, truncated: true }]);
  });

  it('say the watch did not see everything when its marks cannot be made, and do not wait for them', async () => {
    const root = project();
    const marksBefore = markDescriptors();
    const stream = new NoticeStream();
    const watch = new OutsideWatch([root], 'attempt', 5000, stream);
    watch.started('case#0');
    writeFileSync(path.join(root.path, 'seen.txt'), 'x');
    await turn();
    // The stream's mark files, already removed from the disk, are closed behind its back.
    for (const fd of markDescriptors().filter((fd) => !marksBefore.includes(fd))) closeSync(fd);
    watch.ended('case#0');
    await watch.finish();
    expect(stream.broken).toBe(true);
    expect(watch.record().roots[0]?.truncated).toBe(true);
    expect(watch.record().changes.map(key)).toEqual(['case#0|seen.txt|created']);
  });

  it('leave nothing in the temporary folder, even while running', () => {
    const before = readdirSync(os.tmpdir()).filter((entry) => entry.startsWith('riddle-marks-'));
    const stream = new NoticeStream();
    expect(stream.broken).toBe(false);
    expect(readdirSync(os.tmpdir()).filter((entry) => entry.startsWith('riddle-marks-'))).toEqual(before);
  });

  it('set up once per process: a later trial reads the same stream, and a broken one is replaced', () => {
    const stream = noticeStream();
    expect(stream).not.toBeNull();
    expect(noticeStream()).toBe(stream);
    if (stream) stream.broken = true;
    const replaced = noticeStream();
    expect(replaced).not.toBe(stream);
    expect(replaced?.broken).toBe(false);
  });

  it('watch folders in the order a walk takes them up to the bound, and say when folders were left out', async () => {
    const root = project();
    for (const folder of ['a', 'b']) {
      mkdirSync(path.join(root.path, folder));
      for (let i = 0; i < 3; i++) writeFileSync(path.join(root.path, folder, `f${i}`), 'x');
    }
    const within = new OutsideWatch([root], 'trial', 8, new NoticeStream());
    const over = new OutsideWatch([root], 'trial', 4, new NoticeStream());
    writeFileSync(path.join(root.path, 'b', 'f0'), 'changed');
    // A change to the unwatched folder itself tells nothing of the entries it already held.
    utimesSync(path.join(root.path, 'b'), 1, 1);
    for (const watch of [within, over]) await watch.finish();
    expect(within.record().roots[0]?.truncated).toBe(false);
    expect(within.record().changes.map(key)).toEqual(['|b/f0|modified']);
    // Bound 4: the root's two folders leave room for two entries more, fewer than a or b holds: neither is watched.
    expect(over.record().roots[0]?.truncated).toBe(true);
    expect(over.record().changes).toEqual([]);
  });

  it('read a folder too large to list in one call a few entries at a time, to the same entries and the same bound', async () => {
    const root = project();
    const big = path.join(root.path, 'big');
    mkdirSync(big);
    const name = (i: number) => `${String(i).padStart(6, '0')}-${'n'.repeat(54)}`;
    // Each name a file of its own: a link to another would change with it.
    for (let i = 0; i < 4000; i++) writeFileSync(path.join(big, name(i)), 'x');
    // Its size says it is large on ext4, xfs, btrfs and tmpfs alike: the streamed listing is the one taken.
    expect(statSync(big).size).toBeGreaterThan(64 * 1024);
    const within = new OutsideWatch([root], 'trial', 5000, new NoticeStream());
    const over = new OutsideWatch([root], 'trial', 3000, new NoticeStream());
    writeFileSync(path.join(big, name(1234)), 'changed');
    for (const watch of [within, over]) await watch.finish();
    expect(within.record().roots[0]?.truncated).toBe(false);
    expect(within.record().changes.map(key)).toEqual([`|big/${name(1234)}|modified`]);
    expect(over.record().roots[0]?.truncated).toBe(true);
    expect(over.record().changes).toEqual([]);
  });

  it('walk a root whose own folder holds more entries than the bound, as before notifications', async () => {
    const root = project();
    for (let i = 0; i < 30; i++) writeFileSync(path.join(root.path, `f${i}`), 'x');
    // A file made and removed within the attempt: notifications tell it, walks cannot see it.
    const seen = async (maxEntries: number) => {
      const watch = new OutsideWatch([root], 'attempt', maxEntries, new NoticeStream());
      watch.started('case#0');
      writeFileSync(path.join(root.path, 'scratch'), 'x');
      rmSync(path.join(root.path, 'scratch'));
      watch.ended('case#0');
      await watch.finish();
      return watch.record();
    };
    expect((await seen(100)).changes.map(key)).toEqual(['case#0|scratch|created', 'case#0|scratch|deleted']);
    const walked = await seen(10);
    expect(walked.changes).toEqual([]);
    expect(walked.roots[0]?.truncated).toBe(true);
  });

  it('leave a folder made during the trial unwatched when it holds more than the bound leaves room for, and say so', async () => {
    const root = project();
    const watch = new OutsideWatch([root], 'attempt', 50, new NoticeStream());
    watch.started('case#0');
    await turn();
    mkdirSync(path.join(root.path, 'huge'));
    for (let i = 0; i < 60; i++) writeFileSync(path.join(root.path, 'huge', `f${i}`), 'x');
    writeFileSync(path.join(root.path, 'small.txt'), 'x');
    await turn();
    watch.ended('case#0');
    await watch.finish();
    expect(watch.record().roots[0]?.truncated).toBe(true);
    expect(watch.record().changes.map(key)).toEqual(['case#0|small.txt|created']);
  });
});
