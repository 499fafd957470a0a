import { describe, expect, it } from 'vitest';
import type { ArmSummary } from '../../../src/model/index.js';
import { attemptBar, pressureText, summaryLine } from '../../../src/report/index.js';
import { attempt } from '../builders.js';
import { runOutcome } from './run-outcome.js';

/** Colours depend on the terminal; the text is what is compared. */
const plain = (text: string) => text.replace(/\u001b\[[0-9;]*m/g, '');

describe('pure formatters (golden strings)', () => {
  it('attemptBar: one glyph per attempt in run order, then a dot per attempt not run', () => {
    const attempts = [
      attempt('case', 0, 'PASS'),
      attempt('case', 1, 'FAIL'),
      attempt('case', 2, 'UNKNOWN'),
      attempt('case', 3, 'PARTIAL'),
    ];
    expect(plain(attemptBar(attempts, 2))).toBe('██░▆··');
    expect(plain(attemptBar([], 0))).toBe('');
    // Past 40 cells the bar is sampled, never longer.
    expect(
      plain(
        attemptBar(
          Array.from({ length: 100 }, (_, i) => attempt('case', i, 'PASS')),
          0,
        ),
      ),
    ).toBe('█'.repeat(40));
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
