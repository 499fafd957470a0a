import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { claimHoldoutAccess, readHoldoutLedger } from '../../../src/run/holdout-ledger.js';

const holdout = (budget: number, extra: { cases?: string; reveal?: boolean; name?: string } = {}) => ({
  name: extra.name ?? 'capital cities',
  budget,
  cases: extra.cases ?? 'sha256:cases-1',
  reveal: extra.reveal ?? false,
});
const ledgerFile = (root: string) => path.join(root, '.riddle', 'holdouts.json');
const fresh = () => mkdtempSync(path.join(os.tmpdir(), 'riddle-ledger-'));

describe('the holdout ledger', () => {
  it('grants exactly the budget when many claims race', async () => {
    const root = fresh();
    const results = await Promise.all(Array.from({ length: 25 }, () => claimHoldoutAccess(root, holdout(10))));
    const granted = results.filter((r) => r.granted);
    expect(granted).toHaveLength(10);
    expect(granted.map((r) => (r.granted ? r.access : 0)).sort((a, b) => a - b)).toEqual([
      1, 2, 3, 4, 5, 6, 7, 8, 9, 10,
    ]);
    expect(results.filter((r) => !r.granted).every((r) => !r.granted && r.used === 10)).toBe(true);
    expect(readHoldoutLedger(ledgerFile(root)).entries).toHaveLength(10);
  });

  it('keys the budget by the declared name: edited Cases or another salt do not reset it', async () => {
    const root = fresh();
    expect(await claimHoldoutAccess(root, holdout(2, { cases: 'sha256:a' }))).toMatchObject({ granted: true });
    expect(await claimHoldoutAccess(root, holdout(2, { cases: 'sha256:b' }))).toMatchObject({ granted: true });
    expect(await claimHoldoutAccess(root, holdout(2, { cases: 'sha256:c' }))).toEqual({
      granted: false,
      used: 2,
      budget: 2,
    });
    expect(await claimHoldoutAccess(root, holdout(2, { name: 'another holdout' }))).toMatchObject({ granted: true });
  });

  it('records every reveal beside the access it showed', async () => {
    const root = fresh();
    await claimHoldoutAccess(root, holdout(3));
    expect(await claimHoldoutAccess(root, holdout(3, { reveal: true }))).toMatchObject({ access: 2, revealed: true });
    expect(readHoldoutLedger(ledgerFile(root)).entries.map((e) => [e.event, e.access])).toEqual([
      ['access', 1],
      ['access', 2],
      ['reveal', 2],
    ]);
  });

  it.each([
    ['an entry edited', (entries: { budget: number }[]) => Object.assign(entries[0]!, { budget: 99 })],
    ['an entry removed', (entries: unknown[]) => entries.splice(0, 1)],
    ['entries reordered', (entries: unknown[]) => entries.reverse()],
  ])('refuses a ledger with %s: the chain breaks, with the file and entry named', async (_what, tamper) => {
    const root = fresh();
    for (let i = 0; i < 3; i++) await claimHoldoutAccess(root, holdout(5));
    const file = ledgerFile(root);
    const data = JSON.parse(readFileSync(file, 'utf8')) as { entries: { budget: number }[] };
    tamper(data.entries);
    writeFileSync(file, JSON.stringify(data));
    await expect(claimHoldoutAccess(root, holdout(5))).rejects.toThrow(
      new RegExp(`${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} has been altered: its hash chain breaks at entry 1`),
    );
  });

  it('refuses a file that is not a ledger rather than resetting the counts', async () => {
    const root = fresh();
    await claimHoldoutAccess(root, holdout(3));
    const file = ledgerFile(root);
    writeFileSync(file, '{"schema":"something else"}');
    await expect(claimHoldoutAccess(root, holdout(3))).rejects.toThrow(`${file} is not a riddle.holdout-ledger/2`);
    rmSync(root, { recursive: true, force: true });
  });
});
