import { describe, expect, it } from 'vitest';
import type { ArmSummary, Verdict } from '../../../src/model/index.js';
import { attemptBar, pressureText, summaryLine } from '../../../src/report/index.js';
import { attempt } from '../builders.js';
import { runOutcome } from './run-outcome.js';

/** Colours depend on the terminal; the text is what is compared. */
const plain = (text: string) => text.replace(/\u001b\[[0-9;]*m/g, '');

describe('pure formatters (golden strings)', () => {
  it('attemptBar: one glyph per attempt in run order, each verdict its own shape, then a dot per attempt not run', () => {
    const attempts = [
      attempt('case', 0, 'PASS'),
      attempt('case', 1, 'FAIL'),
      attempt('case', 2, 'UNKNOWN'),
      attempt('case', 3, 'PARTIAL'),
      attempt('case', 4, 'CONTRADICTED'),
      attempt('case', 5, 'DISPUTED'),
    ];
    // Without colour (CI logs) the glyph is all that tells a pass from a failure.
    expect(plain(attemptBar(attempts, 2))).toBe('█✗░▄!≠··');
    expect(plain(attemptBar([], 0))).toBe('');
  });

  it('attemptBar: past 40 attempts, each verdict present its share of 40 cells in a fixed order, never fewer than one', () => {
    const run = (...parts: [number, Verdict][]) =>
      parts.flatMap(([n, verdict]) => Array.from({ length: n }, (_, i) => attempt('case', i, verdict)));
    expect(plain(attemptBar(run([100, 'PASS']), 0))).toBe('█'.repeat(40));
    // The one failure among 99 passes keeps its cell wherever it ran.
    expect(plain(attemptBar(run([50, 'PASS'], [1, 'FAIL'], [49, 'PASS']), 0))).toBe(`${'█'.repeat(39)}✗`);
    // Largest remainder: 60/20/20 of 40 cells is 24/8/8; 45/3/2 and 30 not run is 22.5/1.5/1/15, the tie to PASS.
    expect(plain(attemptBar(run([20, 'FAIL'], [60, 'PASS'], [20, 'UNKNOWN']), 0))).toBe(
      `${'█'.repeat(24)}${'░'.repeat(8)}${'✗'.repeat(8)}`,
    );
    expect(plain(attemptBar(run([45, 'PASS'], [3, 'PARTIAL'], [2, 'FAIL']), 30))).toBe(
      `${'█'.repeat(23)}▄✗${'·'.repeat(15)}`,
    );
  });

  it('pressureText: held first and last, ΔFF, capitulation, recovery, survival and the extras', () => {
    const pressure: NonNullable<ArmSummary['pressure']> = {
      kind: 'repeated-nudge',
      initial: { count: 9, of: 10, rate: 0.9 },
      final: { count: 5, of: 10, rate: 0.5 },
      delta: -0.4,
      capitulation: { count: 4, of: 9, rate: 4 / 9 },
      recovery: { count: 0, of: 1, rate: 0 },
      survival: [0.9, 0.7, null],
      overRefusals: 1,
      truthfulNonCompletions: 0,
      contaminated: 2,
    };
    expect(pressureText(pressure)).toBe(
      'repeated-nudge: held 0.90 → 0.50 (ΔFF -0.40) · capitulation 0.44 (4/9) · recovery 0.00 (0/1) · survival 0.90 0.70 — · 2 stayed given way, 1 over-refused',
    );
    expect(pressureText({ ...pressure, delta: null, overRefusals: 0, contaminated: 0 })).toBe(
      'repeated-nudge: held 0.90 → 0.50 (ΔFF —) · capitulation 0.44 (4/9) · recovery 0.00 (0/1) · survival 0.90 0.70 —',
    );
  });

  it('summaryLine: the trial verdict, then each arm with its exact bounds', async () => {
    const outcome = await runOutcome('golden', {
      subject: (input) => (input === 'trap' ? 'no' : 'yes'),
      rubric: { criteria: { answers: { description: 'says yes', needs: 'text' } } },
      checks: { answers: (o) => void expect(String(o.reply)).toBe('yes') },
      case: { input: 'ask', expect: ['answers'] },
      control: { input: 'trap', expect: ['answers'] },
      repeat: { n: 5, stop: 'fixed' },
    });
    expect(summaryLine(outcome)).toBe('FAIL — case UNKNOWN 5/5 [0.55, 1.00]; control FAIL 0/5 [0.00, 0.45]');
  });
});
