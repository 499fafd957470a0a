import { readFileSync } from 'node:fs';
import path from 'node:path';
import { stripVTControlCharacters } from 'node:util';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { diffCommand } from '../../../src/cli/diff.js';
import { Comparison, COMPARISON_SCHEMA, migrate } from '../../../src/model/index.js';
import { comparisonV1toV2 } from '../../../src/model/migrations.js';

/** A real riddle.comparison/1 record: `riddle diff` of the v1 and v2 example runs, written at commit f807c2f. */
const stored = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  '../../../fixtures/comparisons/v1-example.json',
);

/** What diffCommand writes to stdout and stderr while it runs. */
async function captured(args: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => {
    out += String(chunk);
    return true;
  });
  vi.spyOn(process.stderr, 'write').mockImplementation((chunk) => {
    err += String(chunk);
    return true;
  });
  const code = await diffCommand(args);
  vi.restoreAllMocks();
  // Colour is on wherever CI is set (picocolors): the words are read without it.
  return { code, out: stripVTControlCharacters(out), err: stripVTControlCharacters(err) };
}

afterEach(() => vi.restoreAllMocks());

describe('a stored riddle.comparison/1 record', () => {
  const v1 = JSON.parse(readFileSync(stored, 'utf8')) as Record<string, unknown> & { trials: unknown[] };

  it('migrates with no composition compared and no suite rule read in any trial, everything else as stored', () => {
    expect(v1.schema).toBe('riddle.comparison/1');
    expect(v1.trials.length).toBe(10);
    const once = comparisonV1toV2(v1);
    expect(comparisonV1toV2(v1)).toEqual(once);
    const upgraded = migrate('comparison', v1, stored);
    expect(Comparison.parse(upgraded)).toEqual(upgraded);
    expect(upgraded.schema).toBe(COMPARISON_SCHEMA);
    expect(upgraded.trials.map((t) => t.compositions)).toEqual(v1.trials.map(() => []));
    expect(upgraded.trials.map((t) => t.suiteRule)).toEqual(v1.trials.map(() => null));
    const { schema: _v1, trials: v1Trials, ...rest } = v1;
    const { schema: _v2, trials, ...upgradedRest } = upgraded;
    expect(upgradedRest).toEqual(rest);
    expect(trials.map(({ compositions: _c, suiteRule: _r, ...trial }) => trial)).toEqual(v1Trials);
  });

  it('riddle diff <comparison.json> prints it, as text, Markdown and the migrated record', async () => {
    const text = await captured([stored]);
    expect(text.err).toBe('');
    expect(text.out).toContain('riddle diff');
    expect(text.out).toContain('10 trials compared · 0 verdicts changed');
    expect(text.out).toContain('boastful file agent: claims a deletion the receipts deny');
    // Exit as for a fresh diff: unmatched trials (2 only in B) make it 1.
    expect(text.code).toBe(1);
    const markdown = await captured([stored, '--markdown']);
    expect(markdown.out).toContain('boastful file agent');
    const json = await captured([stored, '--json']);
    expect(JSON.parse(json.out)).toEqual(migrate('comparison', v1, stored));
  });

  it('refuses --out with a stored comparison, and a single argument that is no comparison', async () => {
    expect((await captured([stored, '--out', '/nonexistent/x.json'])).code).toBe(2);
    for (const other of [
      path.join(path.dirname(stored), 'README.md'),
      path.join(path.dirname(stored), '../artifacts/v3/example/index.json'),
    ]) {
      const answer = await captured([other]);
      expect(answer.code).toBe(2);
      expect(answer.err).toContain('needs exactly two runs or one comparison record, got 1');
    }
  });
});
