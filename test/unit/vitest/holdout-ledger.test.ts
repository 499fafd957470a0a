import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { claimHoldoutAccess } from '../../../src/vitest/holdout-ledger.js';

describe('the holdout ledger', () => {
  it('grants exactly the budget when many claims race', async () => {
    const root = mkdtempSync(path.join(os.tmpdir(), 'riddle-ledger-'));
    const results = await Promise.all(Array.from({ length: 25 }, () => claimHoldoutAccess(root, 'sha256:holdout', 10)));
    const granted = results.filter((r) => r.granted);
    expect(granted).toHaveLength(10);
    expect(granted.map((r) => (r.granted ? r.access : 0)).sort((a, b) => a - b)).toEqual([
      1, 2, 3, 4, 5, 6, 7, 8, 9, 10,
    ]);
    expect(results.filter((r) => !r.granted).every((r) => !r.granted && r.used === 10)).toBe(true);
    expect(JSON.parse(readFileSync(path.join(root, '.riddle', 'holdouts.json'), 'utf8')).accesses).toEqual({
      'sha256:holdout': 10,
    });
  });

  it('refuses a corrupt ledger with its path rather than resetting the counts', async () => {
    const root = mkdtempSync(path.join(os.tmpdir(), 'riddle-ledger-'));
    await claimHoldoutAccess(root, 'k', 3);
    const file = path.join(root, '.riddle', 'holdouts.json');
    writeFileSync(file, '{"schema":"something else"}');
    await expect(claimHoldoutAccess(root, 'k', 3)).rejects.toThrow(`${file} is not a holdout ledger`);
  });
});
