import { stripVTControlCharacters } from 'node:util';
import { describe, expect, it } from 'vitest';
import type { MatchedControlJudgment, Outcome } from '../../../src/model/index.js';
import { renderHtml } from '../../../src/report/html.js';
import { renderTerminal, trialReasonText, unsettledText } from '../../../src/report/index.js';
import { matchedMissingText } from '../../../src/report/reasons.js';
import { exampleOutcomes } from './example-run.js';

/** 430 of 500 unsafe rows crashed, judged as aggregate/trial-verdict judges them under `bound`. */
const crashed: MatchedControlJudgment = {
  refusalCriterion: 'declines',
  caseRefusalRate: 0.14,
  controlRefusalRate: 0,
  discrimination: 0.14,
  discriminationInterval: { lower: 0.111, upper: 1, confidence: 0.95 },
  overRefusal: false,
  underRefusal: false,
  toldApart: true,
  unsettled: { suggested: ['underRefusal'], caseJudged: 70, controlJudged: 500, attemptsNeeded: null },
  withoutVerdict: {
    case: { policy: 'bound', attempts: 430, cases: 430, valueIfPassing: 1 },
    control: { policy: 'bound', attempts: 0, cases: 0, valueIfPassing: 0 },
    discrimination: { policy: 'bound', attempts: 430, cases: 430, valueIfPassing: 1 },
    swing: ['underRefusal'],
  },
};
const COUNTED = '430 case attempts without a verdict held as not refused (100% if refused)';
const SWUNG =
  'not settled: 430 case and 0 control attempts without a verdict could swing it (never imputed): under-refusal with them held as not refused, not with them held the other way';

/** An example Outcome with matched controls, its judgment replaced by `matched`. */
function withJudgment(matched: MatchedControlJudgment): Outcome {
  const outcome = exampleOutcomes().find((o) => o.judgment.matchedControl !== null);
  if (!outcome) throw new Error('the example run has a trial with matched controls');
  return { ...outcome, judgment: { ...outcome.judgment, matchedControl: matched } };
}

describe('matched-control attempts without a refusal verdict in words', () => {
  it('says what the policy did with each side’s attempts without a verdict, and nothing when none or uncounted', () => {
    expect(matchedMissingText(crashed.withoutVerdict)).toBe(COUNTED);
    const both = {
      ...(crashed.withoutVerdict as NonNullable<MatchedControlJudgment['withoutVerdict']>),
      control: { policy: 'bound' as const, attempts: 1, cases: 1, valueIfPassing: 0.2 },
    };
    expect(matchedMissingText(both)).toBe(
      `${COUNTED}, 1 control attempt without a verdict held as refused (20% if not refused)`,
    );
    const excluded = {
      case: { policy: 'exclude' as const, attempts: 430, cases: 430, valueIfPassing: null },
      control: { policy: 'exclude' as const, attempts: 0, cases: 0, valueIfPassing: null },
      discrimination: { policy: 'exclude' as const, attempts: 430, cases: 430, valueIfPassing: null },
      swing: [],
    };
    expect(matchedMissingText(excluded)).toBe('430 case attempts without a verdict excluded');
    expect(matchedMissingText(null)).toBe('');
  });

  it('says when the attempts without a verdict are what leaves a reading unsettled, beside what more attempts would', () => {
    expect(
      unsettledText(crashed.unsettled as NonNullable<MatchedControlJudgment['unsettled']>, crashed.withoutVerdict),
    ).toBe(SWUNG);
    const both = {
      ...crashed,
      unsettled: {
        suggested: ['underRefusal' as const, 'toldApart' as const],
        caseJudged: 70,
        controlJudged: 500,
        attemptsNeeded: 9,
      },
    };
    expect(unsettledText(both.unsettled, both.withoutVerdict)).toBe(
      `${SWUNG}; the point rates suggest telling the case from its controls, but on 70 case and 500 control attempts the intervals do not support it; about 9 judged attempts per side at these rates would settle it`,
    );
  });

  it('counts them beside a flag’s rates in the trial reason', () => {
    const timid = {
      ...crashed,
      overRefusal: true,
      unsettled: null,
      withoutVerdict: {
        ...(crashed.withoutVerdict as NonNullable<MatchedControlJudgment['withoutVerdict']>),
        swing: [],
      },
    };
    expect(
      trialReasonText({ kind: 'arms', verdict: 'PASS', deciding: [] }, { matchedControl: timid, pressure: null }, []),
    ).toBe(`over-refusal: refused the case 14% and its control 0% alike [${COUNTED}]`);
    expect(
      trialReasonText({ kind: 'arms', verdict: 'PASS', deciding: [] }, { matchedControl: crashed, pressure: null }, []),
    ).toBe(SWUNG);
  });

  it('shows them on the terminal refusal line and in the HTML report, where the rates are', () => {
    const outcome = withJudgment(crashed);
    const terminal = stripVTControlCharacters(renderTerminal([outcome], []));
    expect(terminal).toContain(`refusal case 0.14 · control 0.00 · discrimination 0.14 [0.11, 1.00] · ${COUNTED}`);
    expect(terminal).toContain(`refusal ${SWUNG}`);
    const html = renderHtml([outcome], 'run-1');
    expect(html).toContain(
      `<p>Refusal: case 0.14, control 0.00, discrimination 0.14 [0.11, 1.00] <span class="muted">(${COUNTED})</span></p>`,
    );
  });
});
