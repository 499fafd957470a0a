import { type Dirent, lstatSync, readdirSync, type Stats } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { OutsideWrite, OutsideWrites, WatchedRoot } from '../model/outside-writes.js';
import type { Subject } from './subject.js';

/** Entries walked per root and walk at most, by default: it bounds what one walk costs. */
export const DEFAULT_OUTSIDE_ENTRIES = 5000;
/** Changes listed in the record at most; the rest are counted. */
const MAX_LISTED_CHANGES = 100;
/** Project folders that are not the subject's to change and that churn by themselves (caches, riddle's own files). */
const PROJECT_SKIPS = new Set(['node_modules', '.git', '.riddle', 'riddle-report']);

/** A root to watch: walked as a tree (`depth` null) or only its own entries (`depth` 1). */
export interface OutsideRoot {
  name: WatchedRoot['name'];
  path: string;
  depth: number | null;
  /** Entries (relative, `/`-separated) not to look at or into. */
  skip: (relative: string) => boolean;
}

interface Stamp {
  mtimeMs: number;
  size: number;
}

interface Walk {
  entries: Map<string, Stamp>;
  truncated: boolean;
}

const within = (parent: string, child: string) => {
  const relative = path.relative(parent, child);
  return relative === '' || (!relative.startsWith('..') && !path.isAbsolute(relative));
};

/**
 * The places an unisolated subject could write to that matter: the project folder (a tree, without node_modules,
 * .git, riddle's own folders, and the temporary folder when it sits inside), and the entries directly in the home
 * folder. The temporary folder is left out: the whole machine writes there (other tests and workers, riddle's own
 * sandboxes), so what appears in it cannot be read as the subject's, and on a busy machine it holds thousands of
 * entries, which made it the dearest walk. `ownFolders` (absolute) are riddle's too and left out wherever they sit in
 * the project: the report folder under any name, where every trial's attempts are written while it runs.
 */
export function defaultOutsideRoots(project: string, ownFolders: readonly string[] = []): OutsideRoot[] {
  const temp = os.tmpdir();
  const home = os.homedir();
  const left = [temp, ...ownFolders]
    .filter((folder) => folder !== project && within(project, folder))
    .map((folder) => path.relative(project, folder).split(path.sep).join('/'));
  const roots: OutsideRoot[] = [
    {
      name: 'project',
      path: project,
      depth: null,
      skip: (relative) =>
        PROJECT_SKIPS.has(relative.split('/').pop() ?? '') ||
        left.some((folder) => relative === folder || relative.startsWith(`${folder}/`)),
    },
  ];
  // A home folder that holds the project is watched as the project is, not again at its top.
  if (!within(home, project)) roots.push({ name: 'home', path: home, depth: 1, skip: () => false });
  return roots;
}

const byName = (a: Dirent, b: Dirent) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);

/**
 * (modification time, size) of every entry under the root, breadth-first in name order, up to `maxEntries`; links
 * not followed. A folder walked into needs no stamp of its own, so its type from the listing is enough: only the
 * entries recorded are looked at one by one (two walks an attempt of a command subject, so this is kept lean).
 */
function walk(root: OutsideRoot, maxEntries: number): Walk {
  const entries = new Map<string, Stamp>();
  const queue: { dir: string; relative: string; depth: number }[] = [{ dir: root.path, relative: '', depth: 0 }];
  for (let at = 0; at < queue.length; at += 1) {
    const next = queue[at] as (typeof queue)[number];
    let dirents: Dirent[];
    try {
      dirents = readdirSync(next.dir, { withFileTypes: true });
    } catch {
      continue; // gone, or not readable: nothing seen there
    }
    const prefix = next.dir.endsWith(path.sep) ? next.dir : `${next.dir}${path.sep}`;
    // A folder's own stamp changes when entries are created or removed directly in it: kept for folders at the
    // depth limit; deeper folders are walked instead.
    const deeper = root.depth === null || next.depth + 1 < root.depth;
    for (const dirent of dirents.sort(byName)) {
      const { name } = dirent;
      const relative = next.relative ? `${next.relative}/${name}` : name;
      if (root.skip(relative)) continue;
      if (entries.size >= maxEntries) return { entries, truncated: true };
      const full = prefix + name;
      if (deeper && dirent.isDirectory()) {
        queue.push({ dir: full, relative, depth: next.depth + 1 });
        continue;
      }
      let info: Stats | undefined;
      try {
        info = lstatSync(full, { throwIfNoEntry: false });
      } catch {
        continue;
      }
      if (info === undefined) continue;
      if (deeper && info.isDirectory()) queue.push({ dir: full, relative, depth: next.depth + 1 });
      else entries.set(relative, { mtimeMs: info.mtimeMs, size: info.isDirectory() ? 0 : info.size });
    }
  }
  return { entries, truncated: false };
}

function compare(before: Walk, after: Walk): { path: string; change: OutsideWrite['change'] }[] {
  const changes: { path: string; change: OutsideWrite['change'] }[] = [];
  for (const [entry, now] of after.entries) {
    const was = before.entries.get(entry);
    if (was === undefined) {
      // Past a truncated walk's bound an entry is unseen, not new.
      if (!before.truncated) changes.push({ path: entry, change: 'created' });
    } else if (was.mtimeMs !== now.mtimeMs || was.size !== now.size) changes.push({ path: entry, change: 'modified' });
  }
  if (!after.truncated)
    for (const entry of before.entries.keys())
      if (!after.entries.has(entry)) changes.push({ path: entry, change: 'deleted' });
  return changes.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

/**
 * Watches the places outside the workspaces while an unisolated subject's attempts run: the roots are walked when an
 * attempt starts and when it ends, and what changed between two walks is tied to the attempts running in between —
 * one attempt when they ran one at a time, several (the trial's, not one attempt's) when they overlapped, none when
 * the change came between attempts. A cheap walk of (modification time, size) bounded in entries: it sees what
 * changed, not who changed it, so another process writing there at the time is recorded too.
 */
export class OutsideWatch {
  private last: Walk[];
  private readonly running = new Set<string>();
  private readonly changes: OutsideWrite[] = [];
  private unlisted = 0;
  private readonly truncated: boolean[];

  constructor(
    private readonly roots: readonly OutsideRoot[],
    private readonly window: OutsideWrites['window'],
    private readonly maxEntries = DEFAULT_OUTSIDE_ENTRIES,
  ) {
    this.last = roots.map((root) => walk(root, maxEntries));
    this.truncated = this.last.map((w) => w.truncated);
  }

  /** An attempt (`arm#index`) is about to run: walked now in an `attempt` window. */
  started(attempt: string): void {
    if (this.window !== 'attempt') return;
    this.look();
    this.running.add(attempt);
  }

  /** An attempt has returned: walked now in an `attempt` window. */
  ended(attempt: string): void {
    if (this.window !== 'attempt') return;
    this.look();
    this.running.delete(attempt);
  }

  /** The trial's last attempt has returned: the closing walk of a `trial` window. */
  finished(): void {
    if (this.window === 'trial') this.look();
  }

  private look(): void {
    const attempts = [...this.running].sort();
    const now = this.roots.map((root) => walk(root, this.maxEntries));
    now.forEach((after, i) => {
      const root = this.roots[i];
      const before = this.last[i];
      if (!root || !before) return;
      if (after.truncated) this.truncated[i] = true;
      for (const { path: entry, change } of compare(before, after)) {
        if (this.changes.length < MAX_LISTED_CHANGES)
          this.changes.push({ root: root.name, path: entry, change, attempts });
        else this.unlisted += 1;
      }
    });
    this.last = now;
  }

  record(): OutsideWrites {
    return {
      window: this.window,
      roots: this.roots.map((root, i) => ({
        name: root.name,
        depth: root.depth,
        truncated: this.truncated[i] ?? false,
      })),
      maxEntries: this.maxEntries,
      changes: [...this.changes],
      unlisted: this.unlisted,
    };
  }
}

/**
 * How an unisolated subject's writes outside its workspace are watched: around each attempt for a command, over the
 * whole trial for a function (see OutsideWrites.window); null when the subject is isolated or cannot write files.
 */
export function outsideWindow(subject: Pick<Subject, 'kind' | 'isolation'>): OutsideWrites['window'] | null {
  if ((subject.isolation ?? null) !== null) return null;
  return subject.kind === 'command' ? 'attempt' : subject.kind === 'function' ? 'trial' : null;
}
