import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { canonicalJson, RecordError, type AttemptRecord, type Outcome } from '../../../src/model/index.js';
import {
  DETAILED_ATTEMPTS,
  renderHtml,
  renderJobSummary,
  renderTerminal,
  summarizeAttempts,
  summarizeAttemptsFile,
} from '../../../src/report/index.js';
import { SANDBOXES_LISTED, scriptJson } from '../../../src/report/attempts-summary.js';
import { mapStrings, neutraliseText } from '../../../src/report/safe-text.js';
import { exampleOutcomes } from './example-run.js';

/** Each Outcome's attempts written as a trial's stream writes them, then its compact form and the file's summary. */
async function fromFiles(outcomes: readonly Outcome[]) {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'riddle-summary-'));
  const compact: Outcome[] = [];
  const summaries = [];
  for (const [i, outcome] of outcomes.entries()) {
    const lines = outcome.attempts.map((attempt) => `${canonicalJson(attempt)}\n`).join('');
    writeFileSync(path.join(dir, `trial-${i}.attempts.jsonl`), lines);
    compact.push({ ...outcome, attempts: [] });
    summaries.push(await summarizeAttemptsFile(outcome, path.join(dir, `trial-${i}.attempts.jsonl`)));
  }
  return { dir, compact, summaries };
}

describe('attempts summarised for the reports', () => {
  it('render the terminal, HTML and job summary from the attempts file exactly as from the attempts inline', async () => {
    const outcomes = exampleOutcomes();
    expect(outcomes.some((o) => o.attempts.some((a) => a.claims.some((c) => c.status === 'contradicted')))).toBe(true);
    const { compact, summaries } = await fromFiles(outcomes);
    expect(summaries.map((s) => s.count)).toEqual(outcomes.map((o) => o.attempts.length));
    expect(renderTerminal(compact, [], summaries)).toBe(renderTerminal(outcomes, []));
    expect(renderHtml(compact, 'run-1', summaries)).toBe(renderHtml(outcomes, 'run-1'));
    const links = { runDir: 'r', html: 'r/index.html', runUrl: null };
    expect(renderJobSummary(compact, [], links, summaries)).toBe(renderJobSummary(outcomes, [], links));
    // Without the summaries the compact Outcomes show no attempts: the summaries are what carries them.
    expect(renderHtml(compact, 'run-1')).not.toBe(renderHtml(outcomes, 'run-1'));
  });

  it('keep only what the reports show: one verdict per attempt, capped lists, and rows without detail past the cap', () => {
    const [outcome] = exampleOutcomes().filter((o) => o.attempts.length > 0 && o.arms.length === 1);
    if (!outcome) throw new Error('the example has a trial of one arm');
    const [first] = outcome.attempts;
    if (!first) throw new Error('no attempt');
    const many = DETAILED_ATTEMPTS + 1;
    const attempts: AttemptRecord[] = Array.from({ length: many }, (_, i) => ({ ...first, index: i, sequence: i }));
    const summary = summarizeAttempts({ ...outcome, attempts });
    expect(summary.count).toBe(many);
    expect(summary.verdicts).toEqual([attempts.map((a) => a.verdict)]);
    expect(summary.samples.length).toBeLessThanOrEqual(3);
    expect(summary.contradicted.length).toBeLessThanOrEqual(10);
    expect(summary.rows).toHaveLength(many);
    expect(JSON.parse(summary.rows[0] ?? '')[5]).toBeNull();
    const few = summarizeAttempts({ ...outcome, attempts: attempts.slice(0, 3) });
    expect(JSON.parse(few.rows[0] ?? '')[5]).toMatchObject({ criteria: expect.any(Array) });
  });

  it('list the first kept sandboxes and count the rest, and the terminal says how many it left out', () => {
    const [outcome] = exampleOutcomes().filter((o) => o.attempts.length > 0 && o.arms.length === 1);
    const first = outcome?.attempts[0];
    if (!outcome || !first) throw new Error('the example has a trial of one arm');
    const kept = SANDBOXES_LISTED + 25;
    const attempts: AttemptRecord[] = Array.from({ length: kept + 5 }, (_, i) => ({
      ...first,
      index: i,
      sequence: i,
      // Every attempt but the last five kept its sandbox.
      sandbox: i < kept ? `/tmp/riddle-kept-${i}` : null,
    }));
    const summary = summarizeAttempts({ ...outcome, attempts });
    expect(summary.sandboxesKept).toBe(kept);
    expect(summary.sandboxes.map((s) => s.sandbox)).toEqual(
      Array.from({ length: SANDBOXES_LISTED }, (_, i) => `/tmp/riddle-kept-${i}`),
    );
    const text = renderTerminal([{ ...outcome, attempts }], []);
    expect(text.match(/sandbox kept/g)).toHaveLength(SANDBOXES_LISTED + 1);
    expect(text).toContain(`and ${kept - SANDBOXES_LISTED} more (each attempt's sandbox is in the attempts file)`);
    expect(text).not.toContain(`/tmp/riddle-kept-${SANDBOXES_LISTED}`);
  });

  it('make rows without detail as the detailed ones are made, hostile and long reasons too, read across chunks', async () => {
    const [outcome] = exampleOutcomes().filter((o) => o.attempts.length > 0 && o.arms.length === 1);
    const first = outcome?.attempts[0];
    if (!outcome || !first) throw new Error('the example has a trial of one arm');
    const hostile = ['</script><!-- & \u202e\u0007 end', 'x'.repeat(3000), 'plain'];
    // More distinct reasons than the summary keeps made rows for, and lines long enough to span 1 MB chunks.
    const reason = (i: number) => `${hostile[i % 3]} ${i % 1500}`;
    const attempts: AttemptRecord[] = Array.from({ length: DETAILED_ATTEMPTS + 1 }, (_, i) => ({
      ...first,
      index: i,
      sequence: i,
      reason: reason(i),
    }));
    const summary = summarizeAttempts({ ...outcome, attempts });
    const clipped = (text: string) => (text.length > 160 ? `${text.slice(0, 159)}…` : text);
    expect(summary.rows).toEqual(
      attempts.map((a) =>
        scriptJson(mapStrings([0, a.index, a.verdict, a.status, clipped(a.reason), null], neutraliseText)),
      ),
    );
    expect(summary.rows.some((row) => row.includes('<') || row.includes('\u202e'))).toBe(false);
    const order = attempts.map((a) => `${a.arm}#${a.index}`);
    const { summaries } = await fromFiles([{ ...outcome, attempts, execution: { ...outcome.execution, order } }]);
    expect(summaries[0]?.rows).toEqual(summary.rows);
  });

  it('read a small attempts file without making a megabyte buffer for it', async () => {
    const [outcome] = exampleOutcomes().filter((o) => o.attempts.length > 0);
    if (!outcome) throw new Error('no Outcome with attempts');
    const { dir } = await fromFiles([outcome]);
    const file = path.join(dir, 'trial-0.attempts.jsonl');
    expect(readFileSync(file).length).toBeLessThan(1 << 16);
    const sizes: number[] = [];
    const spies = [vi.spyOn(Buffer, 'alloc'), vi.spyOn(Buffer, 'allocUnsafe'), vi.spyOn(Buffer, 'allocUnsafeSlow')];
    try {
      const summary = await summarizeAttemptsFile(outcome, file);
      expect(summary.count).toBe(outcome.attempts.length);
      for (const spy of spies) for (const [size] of spy.mock.calls) sizes.push(Number(size));
    } finally {
      for (const spy of spies) spy.mockRestore();
    }
    // One zero-filled megabyte per trial was the main process's largest cost per one-attempt trial at the run's end.
    expect(Math.max(0, ...sizes)).toBeLessThanOrEqual(1 << 16);
  });

  it('name the file and line of an attempts file that is not JSON Lines', async () => {
    const [outcome] = exampleOutcomes();
    if (!outcome) throw new Error('no Outcome');
    const { dir } = await fromFiles([outcome]);
    const file = path.join(dir, 'trial-0.attempts.jsonl');
    const lines = readFileSync(file, 'utf8').split('\n');
    writeFileSync(file, [lines[0], '{ truncated', ...lines.slice(1)].join('\n'));
    const failure = await summarizeAttemptsFile(outcome, file).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(RecordError);
    expect(String((failure as Error).message)).toContain(`${file}:2`);
  });
});
