import { existsSync } from 'node:fs';
import path from 'node:path';
import { fingerprint, type TrialSuite } from '../model/index.js';
import { folderFingerprint } from '../observe/index.js';

/**
 * Pin each arm's fixture folder by the fingerprint of its contents, so editing a fixture yields a new Case and a
 * new Outcome. A folder that is missing is pinned as such: its attempts then fail to copy it (`harness_error`).
 */
export async function pinFixtures(
  suite: TrialSuite,
  fixtures: Readonly<Record<string, string>>,
  root: string,
): Promise<{ suite: TrialSuite; folders: Record<string, string> }> {
  const folders: Record<string, string> = {};
  const arms = await Promise.all(
    suite.arms.map(async (arm) => {
      const relative = fixtures[arm.id];
      if (relative === undefined) return arm;
      const folder = path.resolve(root, relative);
      folders[arm.id] = folder;
      const contents = existsSync(folder) ? await folderFingerprint(folder) : 'missing';
      const pinned = { ...arm.case, fixtures: { path: relative, fingerprint: contents } };
      return { ...arm, case: pinned, caseFingerprint: fingerprint(pinned) };
    }),
  );
  return { suite: { ...suite, arms }, folders };
}
