import { createHash } from 'node:crypto';
import { readFile, readlink, readdir } from 'node:fs/promises';
import path from 'node:path';
import { fingerprint, type FileChange } from '../model/index.js';

/** One file of a snapshot. */
export interface FileEntry {
  /** In bytes (for a symbolic link: the length of its target). */
  size: number;
  sha256: string;
  /** The file's text when it is small and valid UTF-8; null otherwise (kept by hash only). */
  text: string | null;
}

/** Files under a folder by relative, `/`-separated path. */
export type FolderSnapshot = ReadonlyMap<string, FileEntry>;

const utf8 = new TextDecoder('utf-8', { fatal: true });

function textOf(bytes: Buffer, retainBytes: number): string | null {
  if (bytes.length > retainBytes || bytes.includes(0)) return null;
  try {
    return utf8.decode(bytes);
  } catch {
    return null;
  }
}

/**
 * Hash every regular file and symbolic link under `root` (links are recorded by their target, never followed, so
 * a subject cannot make riddle read outside its sandbox). Sockets, FIFOs and devices are skipped.
 */
export async function snapshotFolder(root: string, retainBytes: number): Promise<FolderSnapshot> {
  const entries = new Map<string, FileEntry>();
  const walk = async (dir: string): Promise<void> => {
    for (const dirent of await readdir(dir, { withFileTypes: true })) {
      const full = path.join(dir, dirent.name);
      const relative = path.relative(root, full).split(path.sep).join('/');
      if (dirent.isDirectory()) await walk(full);
      else if (dirent.isSymbolicLink()) {
        const target = await readlink(full);
        entries.set(relative, {
          size: Buffer.byteLength(target),
          sha256: createHash('sha256').update(`symlink:${target}`).digest('hex'),
          text: null,
        });
      } else if (dirent.isFile()) {
        const bytes = await readFile(full);
        entries.set(relative, {
          size: bytes.length,
          sha256: createHash('sha256').update(bytes).digest('hex'),
          text: textOf(bytes, retainBytes),
        });
      }
    }
  };
  await walk(root);
  return new Map([...entries].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

/** Files created, modified and deleted between two snapshots, by path. Deleted files keep their former text. */
export function diffSnapshots(before: FolderSnapshot, after: FolderSnapshot): FileChange[] {
  const changes: FileChange[] = [];
  for (const [file, now] of after) {
    const was = before.get(file);
    if (was === undefined)
      changes.push({
        path: file,
        change: 'created',
        size: now.size,
        sha256Before: null,
        sha256After: now.sha256,
        content: now.text,
      });
    else if (was.sha256 !== now.sha256)
      changes.push({
        path: file,
        change: 'modified',
        size: now.size,
        sha256Before: was.sha256,
        sha256After: now.sha256,
        content: now.text,
      });
  }
  for (const [file, was] of before) {
    if (!after.has(file))
      changes.push({
        path: file,
        change: 'deleted',
        size: was.size,
        sha256Before: was.sha256,
        sha256After: null,
        content: was.text,
      });
  }
  return changes.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

/** Content fingerprint of a folder (paths and file hashes), e.g. to pin a Case's fixtures. */
export async function folderFingerprint(root: string): Promise<string> {
  const snapshot = await snapshotFolder(root, 0);
  return fingerprint([...snapshot].map(([file, entry]) => [file, entry.sha256]));
}
