import { mkdirSync, readFileSync, renameSync, rmdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { z } from 'zod';

const Ledger = z.object({
  schema: z.literal('riddle.holdout-ledger/1'),
  accesses: z.record(z.string(), z.number().int().min(0)),
});
type Ledger = z.infer<typeof Ledger>;

export type HoldoutAccess =
  | { granted: true; access: number; budget: number }
  | { granted: false; used: number; budget: number };

/** Hold a lock folder while the ledger is read and rewritten: trials of several files run in parallel workers. */
async function withLock<T>(dir: string, work: () => T): Promise<T> {
  const lock = path.join(dir, 'holdouts.lock');
  for (let waited = 0; ; waited += 10) {
    try {
      mkdirSync(lock);
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      if (waited > 10_000)
        throw new Error(`riddle: ${lock} has been held for 10 s; remove it if no riddle run is active`);
      await sleep(10);
    }
  }
  try {
    return work();
  } finally {
    rmdirSync(lock);
  }
}

function read(file: string): Ledger {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    return { schema: 'riddle.holdout-ledger/1', accesses: {} };
  }
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    throw new Error(`riddle: ${file} is not a holdout ledger (not valid JSON); restore it from version control`);
  }
  const parsed = Ledger.safeParse(data);
  if (!parsed.success)
    throw new Error(
      `riddle: ${file} is not a holdout ledger (${parsed.error.issues[0]?.message ?? 'invalid'}); restore it from version control`,
    );
  return parsed.data;
}

/**
 * Count one access to a holdout in the project's ledger (`.riddle/holdouts.json`, meant to be committed so the count
 * survives machines), or refuse it once the declared budget is spent. The key is the holdout's content fingerprint.
 */
export async function claimHoldoutAccess(root: string, key: string, budget: number): Promise<HoldoutAccess> {
  const dir = path.join(root, '.riddle');
  mkdirSync(dir, { recursive: true });
  const file = path.join(dir, 'holdouts.json');
  return withLock(dir, () => {
    const ledger = read(file);
    const used = ledger.accesses[key] ?? 0;
    if (used >= budget) return { granted: false, used, budget };
    ledger.accesses[key] = used + 1;
    const temp = `${file}.${process.pid}.tmp`;
    writeFileSync(temp, `${JSON.stringify(ledger, null, 2)}\n`);
    renameSync(temp, file);
    return { granted: true, access: used + 1, budget };
  });
}
