import { existsSync, statSync } from 'node:fs';
import { realpath } from 'node:fs/promises';
import path from 'node:path';
import { fingerprint, type TrialSuite } from '../model/index.js';
import { folderFingerprint } from '../observe/index.js';
import { TrialDeclarationError, type DeclarationSite } from './declaration.js';
import { fixturePathProblem } from './fixture-path.js';

/**
 * Pin each arm's fixture folder by the fingerprint of its contents, so editing a fixture yields a new Case and a
 * new Outcome. A folder that is missing is pinned as such: its attempts then fail to copy it (`harness_error`).
 * A folder that resolves outside the project root, directly or through a symbolic link on its way, is a
 * declaration error naming the trial and arm: it is never followed.
 */
export async function pinFixtures(
  suite: TrialSuite,
  fixtures: Readonly<Record<string, string>>,
  root: string,
  site: DeclarationSite = { name: suite.name, file: suite.file, path: [] },
): Promise<{ suite: TrialSuite; folders: Record<string, string> }> {
  const folders: Record<string, string> = {};
  // Resolved only when an arm has fixtures: most trials have none, and it cost a file system call per trial.
  let realRoot: Promise<string> | undefined;
  const arms = await Promise.all(
    suite.arms.map(async (arm) => {
      const relative = fixtures[arm.id];
      if (relative === undefined) return arm;
      const field = `fixtures of arm "${arm.id}"`;
      const problem = fixturePathProblem(relative);
      if (problem !== null) throw new TrialDeclarationError(site, field, problem);
      const folder = path.resolve(root, relative);
      if (existsSync(folder)) {
        if (!statSync(folder).isDirectory())
          throw new TrialDeclarationError(
            site,
            field,
            `"${relative}" is a file, not a folder; fixtures name a folder whose contents are copied into each attempt's workspace`,
          );
        const real = await realpath(folder);
        const inside = path.relative(await (realRoot ??= realpath(root)), real);
        if (inside.startsWith('..') || path.isAbsolute(inside))
          throw new TrialDeclarationError(
            site,
            field,
            `"${relative}" resolves through a symbolic link to ${real}, outside the project root; links leading out are not followed`,
          );
      }
      folders[arm.id] = folder;
      const contents = existsSync(folder) ? await folderFingerprint(folder) : 'missing';
      const pinned = { ...arm.case, fixtures: { path: relative, fingerprint: contents } };
      return { ...arm, case: pinned, caseFingerprint: fingerprint(pinned) };
    }),
  );
  return { suite: { ...suite, arms }, folders };
}
