import { describe, expect, it } from 'vitest';
import {
  combineFindings,
  gatherFindings,
  mechanicalEvaluator,
  replyText,
  scorer,
  type CriterionCheck,
  type EvaluatorDefinition,
} from '../../../src/evaluate/index.js';
import { armScores } from '../../../src/aggregate/index.js';
import { judgeObservation } from '../../../src/run/judge.js';
import type { Rubric } from '../../../src/model/index.js';
import { attempt, type AttemptFields } from '../builders.js';
import { criterion, finding, observation, rubric, testCase } from './helpers.js';

const closeness = criterion('close', { needs: 'text', score: { cutoff: 0.7 } });
const plain = criterion('polite', { needs: 'text' });
const scoredRubric: Rubric = rubric(closeness, plain);

/** Share of the expected word's letters found in the reply: a deterministic text scorer. */
const lettersOf = scorer((view) => {
  const text = replyText(view.reply);
  const expected = 'paris';
  return [...expected].filter((c) => text.toLowerCase().includes(c)).length / expected.length;
});

function evaluatorOf(checks: Record<string, CriterionCheck>): EvaluatorDefinition {
  return mechanicalEvaluator({ id: 'letters', revision: '1', checks });
}

async function judge(reply: string, checks: Record<string, CriterionCheck>, rubricUsed = scoredRubric) {
  const input = {
    observation: observation({ reply }),
    case: testCase(['close']),
    arm: 'case',
    attempt: 0,
    rubric: rubricUsed,
    evaluators: [evaluatorOf(checks)],
    expect: () => undefined,
  };
  return { findings: await gatherFindings(input), judged: await judgeObservation({ ...input, claims: {} }) };
}

describe('scored criteria', () => {
  it('a score at or above the cutoff meets the criterion; the finding keeps the score and the grade it read', async () => {
    const { findings, judged } = await judge('Paris', { close: lettersOf, polite: () => undefined });
    const close = findings.find((f) => f.criterion === 'close');
    expect(close).toMatchObject({ result: 'met', score: 1, grade: 'text', note: 'score 1 ≥ cutoff 0.7' });
    expect(findings.find((f) => f.criterion === 'polite')?.score).toBeNull();
    expect(judged.status).toBe('completed');
    expect(judged.criteria.find((c) => c.criterion === 'close')?.result).toBe('met');
    expect(judged.verdict).toBe('PASS');
  });

  it('a score below the cutoff leaves it unmet, so the attempt fails on it', async () => {
    const { findings, judged } = await judge('Rome', { close: lettersOf, polite: () => undefined });
    expect(findings[0]).toMatchObject({ result: 'unmet', score: 0.2, note: 'score 0.2 < cutoff 0.7' });
    expect(judged.verdict).toBe('FAIL');
  });

  it('decides a score equal to the cutoff within the tie tolerance as met (≥), one clearly below as unmet', async () => {
    const tie = rubric(criterion('close', { needs: 'text', score: { cutoff: 0.1 + 0.2 } }));
    const at = await judge('x', { close: scorer(() => 0.3) }, tie);
    expect(at.findings[0]?.result).toBe('met');
    const below = await judge('x', { close: scorer(() => 0.3 - 1e-6) }, tie);
    expect(below.findings[0]?.result).toBe('unmet');
  });

  it.each([
    ['NaN', Number.NaN],
    ['1.2', 1.2],
    ['-0.1', -0.1],
    ['Infinity', Number.POSITIVE_INFINITY],
  ])('a score of %s is an evaluator error naming the criterion and the value, never clamped', async (shown, value) => {
    const { findings, judged } = await judge('Paris', { close: scorer(() => value), polite: () => undefined });
    expect(findings[0]).toMatchObject({ result: 'error', score: null });
    expect(findings[0]?.note).toContain(`criterion "close" returned the score ${shown}`);
    expect(judged.status).toBe('evaluator_error');
    expect(judged.error?.where).toBe('evaluator letters on close');
    expect(judged.verdict).toBe('UNKNOWN');
  });

  it('a scorer answering something other than a number is an evaluator error naming what it answered', async () => {
    const text = scorer((() => '0.8') as unknown as () => number);
    const { findings } = await judge('Paris', { close: text });
    expect(findings[0]?.result).toBe('error');
    expect(findings[0]?.note).toContain('scorer for criterion "close" returned "0.8"');
    const nothing = scorer((() => undefined) as unknown as () => number);
    expect((await judge('Paris', { close: nothing })).findings[0]?.note).toContain('returned nothing');
    const badObject = scorer(() => ({ score: Number.NaN, note: 'x' }));
    expect((await judge('Paris', { close: badObject })).findings[0]?.note).toContain('returned the score NaN');
  });

  it('takes { score, note } and keeps the note; a plain check returning a number on a scored criterion also scores', async () => {
    const noted = await judge('Paris', { close: scorer(() => ({ score: 0.75, note: 'near enough' })) });
    expect(noted.findings[0]).toMatchObject({
      result: 'met',
      score: 0.75,
      note: 'score 0.75 ≥ cutoff 0.7: near enough',
    });
    const unmarked = await judge('Paris', { close: () => 0.5 });
    expect(unmarked.findings[0]).toMatchObject({ result: 'unmet', score: 0.5 });
    const passing = await judge('Paris', { close: () => undefined });
    expect(passing.findings[0]).toMatchObject({ result: 'met', score: null });
  });

  it('a score on a criterion the Rubric does not score is an evaluator error saying to declare a cutoff', async () => {
    const marked = await judge('Paris', { polite: scorer(() => 0.9) });
    expect(marked.findings[0]?.result).toBe('error');
    expect(marked.findings[0]?.note).toContain('criterion "polite" is not scored, but a scorer judges it');
    const returned = await judge('Paris', { polite: () => 0.9 });
    expect(returned.findings[0]?.note).toContain('its check returned the score 0.9: declare score: { cutoff }');
  });

  it('a scorer may still find nothing to score: the criterion stays UNKNOWN, not a low score', async () => {
    const { findings } = await judge('Paris', { close: scorer((_view, context) => context.unknown('no reply')) });
    expect(findings[0]).toMatchObject({ result: 'unknown', score: null, note: 'no reply' });
    expect(combineFindings(scoredRubric, findings)[0]?.result).toBe('unknown');
  });
});

describe('armScores: the distribution of an arm’s scores', () => {
  const scored = (index: number, score: number | null, extra: AttemptFields = {}) =>
    attempt('case', index, 'PASS', {
      findings:
        score === null
          ? []
          : [finding({ criterion: 'close', evaluator: 'letters', result: score >= 0.7 ? 'met' : 'unmet', score })],
      ...extra,
    });

  it('keeps mean, interval, quantiles, histogram and the share at the cutoff, unscored attempts apart', () => {
    const attempts = [
      scored(0, 0.9),
      scored(1, 0.5),
      scored(2, 1),
      scored(3, 0.7),
      scored(4, null, { status: 'subject_error' }),
    ];
    const [row, ...rest] = armScores(scoredRubric, attempts);
    expect(rest).toEqual([]);
    expect(row).toMatchObject({
      criterion: 'close',
      evaluator: 'letters',
      cutoff: 0.7,
      scored: 4,
      unscored: 1,
      atCutoff: 3,
      trusted: true,
      quantiles: { min: 0.5, median: 0.8, max: 1 },
      histogram: [0, 0, 0, 0, 0, 1, 0, 1, 0, 2],
    });
    expect(row?.mean).toBeCloseTo(0.775, 12);
    expect(row?.interval?.lower).toBeLessThan(0.775);
    expect(row?.interval?.upper).toBeGreaterThan(0.775);
    expect(row?.interval).toMatchObject({ confidence: 0.95, method: 'betting' });
  });

  it('shows a scored criterion nobody scored as a row of unscored attempts; an unscored Rubric has no rows', () => {
    expect(armScores(scoredRubric, [scored(0, null), scored(1, null)])).toEqual([
      {
        criterion: 'close',
        evaluator: null,
        cutoff: 0.7,
        scored: 0,
        unscored: 2,
        atCutoff: 0,
        mean: null,
        interval: null,
        quantiles: null,
        histogram: [0, 0, 0, 0, 0, 0, 0, 0, 0, 0],
        trusted: true,
      },
    ]);
    expect(armScores(rubric(plain), [scored(0, 0.9)])).toEqual([]);
  });

  it('marks the row untrusted when an untrusted judge gave any of the scores', () => {
    const untrusted = attempt('case', 0, 'UNKNOWN', {
      findings: [finding({ criterion: 'close', evaluator: 'letters', result: 'met', score: 0.8, trusted: false })],
    });
    expect(armScores(scoredRubric, [untrusted, scored(1, 0.9)])[0]?.trusted).toBe(false);
  });
});
