import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { canonicalJson, sha256, lazySchema } from '../model/index.js';
import { withFolderLock } from './folder-lock.js';

export const HOLDOUT_LEDGER_SCHEMA = 'riddle.holdout-ledger/2';
/** `prev` of the first entry: there is nothing before it. */
const GENESIS = `sha256:${'0'.repeat(64)}`;

const LedgerEntry = lazySchema(() =>
  z.object({
    /** 1-based position in the chain. */
    seq: z.number().int().min(1),
    /** The holdout trial's declared name: the budget belongs to it, whatever its Cases or the salt become. */
    holdout: z.string(),
    /** `access`: a run of the holdout, counted against its budget; `reveal`: that run's attempts were shown. */
    event: z.enum(['access', 'reveal']),
    /** Which access of the budget (the reveal names the access it showed). */
    access: z.number().int().min(1),
    budget: z.number().int().min(1),
    /** Fingerprint of the holdout's Cases at that access: an edit between accesses shows here. */
    cases: z.string(),
    at: z.string(),
    /** `hash` of the entry before (GENESIS for the first). */
    prev: z.string(),
    /** sha256 of this entry's other fields, canonical JSON. */
    hash: z.string(),
  }),
);
type LedgerEntry = z.infer<typeof LedgerEntry>;

const Ledger = lazySchema(() => z.object({ schema: z.literal(HOLDOUT_LEDGER_SCHEMA), entries: z.array(LedgerEntry) }));
type Ledger = z.infer<typeof Ledger>;

export type HoldoutAccess =
  | { granted: true; access: number; budget: number; revealed: boolean }
  | { granted: false; used: number; budget: number };

const entryHash = ({ hash: _hash, ...entry }: Omit<LedgerEntry, 'hash'> & { hash?: string }) =>
  `sha256:${sha256(canonicalJson(entry))}`;

const restore = 'restore it from version control (the ledger is meant to be committed)';

/**
 * Read the ledger and verify its chain: every entry's `prev` is the hash of the one before and its own `hash`
 * matches its content. An edited, reordered or removed entry breaks the chain, and the ledger is refused rather than
 * trusted or reset.
 */
export function readHoldoutLedger(file: string): Ledger {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    return { schema: HOLDOUT_LEDGER_SCHEMA, entries: [] };
  }
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    throw new Error(`riddle: ${file} is not a holdout ledger (not valid JSON); ${restore}`);
  }
  const parsed = Ledger.safeParse(data);
  if (!parsed.success)
    throw new Error(
      `riddle: ${file} is not a ${HOLDOUT_LEDGER_SCHEMA} ledger (${parsed.error.issues[0]?.message ?? 'invalid'} at ${parsed.error.issues[0]?.path.join('.') ?? '?'}); ${restore}`,
    );
  let prev = GENESIS;
  for (const [i, entry] of parsed.data.entries.entries()) {
    if (entry.seq !== i + 1 || entry.prev !== prev || entry.hash !== entryHash(entry))
      throw new Error(
        `riddle: the holdout ledger ${file} has been altered: its hash chain breaks at entry ${i + 1} (${entry.event} of "${entry.holdout}"); ${restore}`,
      );
    prev = entry.hash;
  }
  return parsed.data;
}

/**
 * Count one access to a holdout in the project's ledger (`.riddle/holdouts.json`, meant to be committed so the
 * count survives machines), or refuse it once the declared budget is spent. The budget is keyed by the holdout's
 * declared name, so editing its Cases or changing the salt does not reset it. Each entry is chained to the one
 * before by sha256, so an edit to the file shows on the next read; a `reveal` entry records that this access's
 * attempts were shown in full.
 */
export async function claimHoldoutAccess(
  root: string,
  holdout: { name: string; budget: number; cases: string; reveal: boolean },
  now: () => Date = () => new Date(),
): Promise<HoldoutAccess> {
  const dir = path.join(root, '.riddle');
  mkdirSync(dir, { recursive: true });
  const file = path.join(dir, 'holdouts.json');
  return withFolderLock(dir, 'holdouts', () => {
    const ledger = readHoldoutLedger(file);
    const used = ledger.entries.filter((e) => e.holdout === holdout.name && e.event === 'access').length;
    if (used >= holdout.budget) return { granted: false, used, budget: holdout.budget };
    const append = (event: LedgerEntry['event']) => {
      const entry = {
        seq: ledger.entries.length + 1,
        holdout: holdout.name,
        event,
        access: used + 1,
        budget: holdout.budget,
        cases: holdout.cases,
        at: now().toISOString(),
        prev: ledger.entries.at(-1)?.hash ?? GENESIS,
      };
      ledger.entries.push({ ...entry, hash: entryHash(entry) });
    };
    append('access');
    if (holdout.reveal) append('reveal');
    const temp = `${file}.${process.pid}.tmp`;
    writeFileSync(temp, `${JSON.stringify(ledger, null, 2)}\n`);
    renameSync(temp, file);
    return { granted: true, access: used + 1, budget: holdout.budget, revealed: holdout.reveal };
  });
}
