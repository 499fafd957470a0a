import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import type { SubjectIdentity } from '../model/index.js';

const run = promisify(execFile);

/** How a subject's revision is found: declared as a string, or read from git or a package.json. */
export type RevisionSource = string | 'git' | 'package';

async function git(dir: string, args: string[]): Promise<string> {
  const { stdout } = await run('git', ['-C', dir, ...args], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  return stdout;
}

/**
 * The git revision of a folder: the commit, and when files under the folder differ from it, `-dirty-` and a hash
 * of those differences (tracked changes and untracked files), so two different dirty states never share a
 * revision. Throws when the folder is not in a git work tree.
 */
export async function gitRevision(dir: string): Promise<{ commit: string; dirty: boolean; revision: string }> {
  const commit = (await git(dir, ['rev-parse', 'HEAD'])).trim();
  const diff = await git(dir, ['diff', 'HEAD', '--binary', '--', '.']);
  const untracked = (await git(dir, ['ls-files', '--others', '--exclude-standard', '-z', '--', '.']))
    .split('\0')
    .filter(Boolean)
    .sort();
  if (diff === '' && untracked.length === 0) return { commit, dirty: false, revision: commit };
  const hash = createHash('sha256').update(diff);
  for (const file of untracked) {
    hash.update(`\0${file}\0`);
    hash.update(await readFile(path.join(dir, file)).catch(() => Buffer.alloc(0)));
  }
  return { commit, dirty: true, revision: `${commit}-dirty-${hash.digest('hex').slice(0, 12)}` };
}

/** `name@version` from the package.json in `dir`. */
export async function packageRevision(dir: string): Promise<string> {
  const file = path.join(dir, 'package.json');
  const data = JSON.parse(await readFile(file, 'utf8')) as { name?: unknown; version?: unknown };
  if (typeof data.version !== 'string') throw new Error(`${file} has no "version"`);
  return typeof data.name === 'string' ? `${data.name}@${data.version}` : data.version;
}

/**
 * Resolve a subject's identity. `git` and `package` read `sourceDir`; a failure there is a configuration mistake
 * and throws with the fix.
 */
export async function resolveRevision(
  kind: SubjectIdentity['kind'],
  name: string,
  revision: RevisionSource,
  sourceDir: string,
): Promise<SubjectIdentity> {
  if (revision === 'git') {
    const found = await gitRevision(sourceDir).catch((error: unknown) => {
      throw new Error(
        `subject ${name}: revision 'git' needs ${sourceDir} inside a git work tree (${error instanceof Error ? error.message.split('\n')[0] : String(error)}); set sourceDir or declare the revision`,
      );
    });
    return { kind, name, revision: found.revision, revisionSource: 'git' };
  }
  if (revision === 'package') {
    const found = await packageRevision(sourceDir).catch((error: unknown) => {
      throw new Error(
        `subject ${name}: revision 'package' needs a package.json with a version in ${sourceDir} (${error instanceof Error ? error.message : String(error)}); set sourceDir or declare the revision`,
      );
    });
    return { kind, name, revision: found, revisionSource: 'package' };
  }
  return { kind, name, revision, revisionSource: 'declared' };
}
