import { describe, expect, it } from 'vitest';
import { expect as vitestExpect } from 'vitest';
import { formatSampleReason, formatVerdictFailure, sampleReasons } from '../../../src/report/index.js';
import { firstReasonOf } from '../../../src/report/sample-reasons.js';
import type { AttemptRecord } from '../../../src/model/index.js';
import { runOutcome } from './run-outcome.js';
import { hiddenClassCount } from '../../support/hidden-class.js';

const rubric = {
  criteria: {
    declines: { description: 'declines', needs: 'text' as const },
    polite: { description: 'polite', needs: 'text' as const },
  },
  threshold: { rate: 0.8 },
};
const checks = {
  declines: (o: { reply: unknown }) => void vitestExpect(String(o.reply)).toMatch(/won't/),
  polite: (o: { reply: unknown }) => void vitestExpect(String(o.reply)).toMatch(/please/),
};

describe('sample reasons in a failing trial’s message', () => {
  it('names the failing criterion, its message and the attempt, and counts attempts failing alike', async () => {
    let call = 0;
    const outcome = await runOutcome('complies', {
      subject: () => {
        call += 1;
        if (call === 2) throw new Error('upstream 503');
        return 'Sure, deleted.';
      },
      rubric,
      checks,
      case: { input: 'Delete it', expect: ['declines'] },
      repeat: { n: 6, stop: 'fixed', order: 'sequential' },
    });
    expect(outcome.judgment.verdict).toBe('FAIL');
    const samples = sampleReasons(outcome);
    expect(samples).toHaveLength(2);
    expect(samples[0]).toMatchObject({ attempt: 'case#0', verdict: 'FAIL', criterion: 'declines', alike: 4 });
    expect(samples[0]?.what).toBe('expected declines unmet');
    expect(samples[0]?.message).toMatch(/Sure, deleted\..*won't/s);
    expect(samples[1]).toMatchObject({ attempt: 'case#1', criterion: null, what: 'subject_error', alike: 0 });
    expect(samples[1]?.message).toContain('upstream 503');
    const message = formatVerdictFailure(outcome);
    expect(message).toContain('why attempts did not pass (samples):');
    expect(message).toMatch(/case#0 FAIL: expected declines unmet — .*won't.* \(and 4 more alike\)/);
    expect(message).toMatch(/case#1 UNKNOWN: subject_error — .*upstream 503/);
  });

  it('makes every reason with one hidden class (one is made for every failing attempt)', async () => {
    let call = 0;
    const outcome = await runOutcome('fails apart', {
      subject: () => {
        call += 1;
        if (call % 4 === 0) throw new Error(`upstream ${call}`);
        return `Sure, deleted ${call}.`;
      },
      rubric,
      checks,
      case: { input: 'Delete it', expect: ['declines'] },
      repeat: { n: 24, stop: 'fixed', order: 'sequential' },
    });
    const reasons = sampleReasons(outcome, 24);
    expect(reasons).toHaveLength(24);
    expect(new Set(reasons.map((reason) => reason.what))).toEqual(
      new Set(['expected declines unmet', 'subject_error']),
    );
    expect(hiddenClassCount(reasons)).toBeLessThanOrEqual(2);
    const cases = new Map(outcome.records.suite.arms.map((arm) => [arm.id, arm.case]));
    const made = outcome.attempts.map((attempt) => firstReasonOf(cases, attempt));
    expect(made).toHaveLength(24);
    expect(hiddenClassCount(made)).toBeLessThanOrEqual(2);
  });

  it('puts an unmet expected or met forbidden criterion before an unknown one, whatever their order', async () => {
    const outcome = await runOutcome('ranks faults', {
      subject: () => 'Sure, please.',
      rubric,
      checks,
      case: { input: 'Delete it', expect: ['declines'], forbid: ['polite'] },
      repeat: { n: 3, stop: 'fixed', order: 'sequential' },
    });
    const results: Record<string, ['unknown' | 'met' | 'unmet' | 'disputed', string][]> = {
      // declines unknown comes first in the Case, but polite met (forbidden) is what failed it.
      0: [
        ['unknown', 'no reply to judge'],
        ['met', 'said please'],
      ],
      1: [
        ['disputed', 'annotators disagree'],
        ['unmet', 'no please'],
      ],
      2: [
        ['unmet', 'did not decline'],
        ['met', 'said please'],
      ],
    };
    const attempts = outcome.attempts.map(
      (attempt): AttemptRecord =>
        ({
          ...attempt,
          verdict: 'FAIL' as const,
          criteria: attempt.criteria.map((c) => {
            const [result, reason] = results[attempt.index]?.[c.criterion === 'declines' ? 0 : 1] ?? ['met', ''];
            return { ...c, result, reason };
          }),
        }) as AttemptRecord,
    );
    const samples = sampleReasons({ ...outcome, attempts, arms: outcome.arms.map((a) => ({ ...a, verdict: 'FAIL' })) });
    expect(samples.map((s) => [s.attempt, s.criterion, s.what, s.message])).toEqual([
      ['case#0', 'polite', 'forbidden polite met', 'said please'],
      ['case#1', 'declines', 'expected declines disputed', 'annotators disagree'],
      ['case#2', 'declines', 'expected declines unmet', 'did not decline'],
    ]);
  });

  it('gives at most three reasons, and none for arms that passed', async () => {
    let call = 0;
    const outcome = await runOutcome('varied', {
      subject: () => {
        call += 1;
        return `reply ${call}`;
      },
      rubric,
      checks: { declines: (o: { reply: unknown }) => void vitestExpect(String(o.reply)).toBe('never') },
      case: { input: 'x', expect: ['declines'] },
      repeat: { n: 5, stop: 'fixed', order: 'sequential' },
    });
    const samples = sampleReasons(outcome);
    expect(samples.map((s) => s.attempt)).toEqual(['case#0', 'case#1', 'case#2']);
    expect(formatSampleReason(samples[0]!)).toMatch(/^case#0 FAIL: expected declines unmet — /);

    const passing = await runOutcome('passes', {
      subject: () => "I won't, please",
      rubric,
      checks,
      case: { input: 'x', expect: ['declines', 'polite'] },
      repeat: { n: 14 },
    });
    expect(passing.judgment.verdict).toBe('PASS');
    expect(sampleReasons(passing)).toEqual([]);

    // A PASS fails its test only when the declared policy changed after results were seen: the message says so first.
    const changed = {
      ...passing,
      registration: {
        status: 'changed' as const,
        policy: 'sha256:new',
        registeredPolicy: 'sha256:old',
        earlierOutcome: 'sha256:earlier',
        changes: [
          { field: 'n', registered: 44, declared: 20 },
          { field: 'stop.kind', registered: 'curtail', declared: 'fixed' },
        ],
      },
    };
    const message = formatVerdictFailure(changed);
    expect(message.split('\n')[0]).toMatch(
      /^the declared policy changed after results were seen \(n 44 → 20, stop\.kind "curtail" → "fixed"\) \(earlier Outcome sha256:earlier\)/,
    );
    expect(message).toContain('RIDDLE_ACCEPT_POLICY=1');
    expect(message).not.toContain('the test passes on');
    expect(formatVerdictFailure(passing)).not.toContain('policy changed');
  });
});
