import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/**
 * One temporary folder for the whole test run, given to every worker and the Vitest processes the tests start (through
 * TMPDIR, which `os.tmpdir()` reads), and removed when the run ends. Tests make hundreds of temporary folders (fixture
 * projects, ledgers, report folders, the sandboxes of the trials they run) and many are not removed one by one: a
 * machine running the tests again and again kept them all in its temporary folder.
 */
export default function setup(): () => void {
  const previous = process.env.TMPDIR;
  const folder = mkdtempSync(path.join(os.tmpdir(), 'riddle-tests-'));
  process.env.TMPDIR = folder;
  return () => {
    if (previous === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = previous;
    rmSync(folder, { recursive: true, force: true, maxRetries: 3 });
  };
}
