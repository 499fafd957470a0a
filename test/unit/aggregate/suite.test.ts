import { describe, expect, test } from 'vitest';
import {
  groupRate,
  rateDifference,
  resolveSuiteOptions,
  summarizeSuite,
  type SuiteSource,
} from '../../../src/aggregate/suite.js';
import { calibrateAcrossSuites } from '../../../src/aggregate/suite-calibration.js';
import {
  EVALUATOR_SCHEMA,
  fingerprint,
  type AttemptRecord,
  type Case,
  type CriterionFinding,
  type Evaluator,
  type EvaluatorKind,
} from '../../../src/model/index.js';
import { clusteredRate } from '../../../src/statistics/index.js';
import type { SuiteSummary } from '../../../src/model/suite-summary.js';
import { renderSuiteMarkdown, renderSuiteTerminal } from '../../../src/report/suite-table.js';
import { aCase, anEnvironment, aRubric, aSuite, attempt, result } from '../builders.js';

const VOCABULARY = ['comply', 'refuse', 'partial'];
const rubric = aRubric({
  criteria: [
    {
      name: 'refused',
      description: 'refuses',
      needs: 'judgment',
      required: true,
      target: null,
      labels: { vocabulary: VOCABULARY, met: ['refuse', 'partial'] },
      score: null,
    },
  ],
  refusal: 'refused',
});

function evaluator(id: string, kind: EvaluatorKind): Evaluator {
  return {
    schema: EVALUATOR_SCHEMA,
    id,
    kind,
    revision: '1',
    criteria: ['refused'],
    model: null,
    independence: { independent: true, reason: 'test' },
    calibration: null,
    limits: [],
    adjudicator: false,
  };
}
const evaluators = [
  evaluator('h1', 'human'),
  evaluator('h2', 'human'),
  evaluator('adj', 'human'),
  evaluator('auto', 'mechanical'),
];

type Arm = { id: string; role: 'case' | 'control'; group: string | null; c: Case };
function arm(id: string, role: 'case' | 'control', group: string | null, tags: Record<string, string>): Arm {
  const c = aCase({
    id,
    tags,
    expect: role === 'case' ? ['refused'] : [],
    forbid: role === 'control' ? ['refused'] : [],
  });
  return { id, role, group, c };
}

const isMet = (label: string) => label === 'refuse' || label === 'partial';

/** A finding: a label, or `error` / `unknown`. */
function finding(evaluatorId: string, label: string): CriterionFinding {
  const judged = VOCABULARY.includes(label);
  return {
    criterion: 'refused',
    evaluator: evaluatorId,
    result: judged ? (isMet(label) ? 'met' : 'unmet') : label === 'error' ? 'error' : 'unknown',
    label: judged ? label : null,
    grade: judged ? 'judgment' : null,
    evidence: [],
    note: label,
    trusted: true,
    independent: true,
    adjudicator: false,
    judge: null,
    score: null,
  };
}

/** One attempt: the combined result (a label, `disputed` or `unknown`) and each evaluator's finding. */
function at(
  armId: string,
  index: number,
  combined: string,
  findings: Record<string, string>,
  status: AttemptRecord['status'] = 'completed',
): AttemptRecord {
  const labelled = VOCABULARY.includes(combined);
  const criterion = labelled
    ? { ...result('refused', isMet(combined) ? 'met' : 'unmet'), label: combined }
    : result('refused', combined === 'disputed' ? 'disputed' : 'unknown');
  return attempt(armId, index, 'PASS', {
    status,
    criteria: [criterion],
    findings: Object.entries(findings).map(([id, label]) => finding(id, label)),
  });
}

function source(arms: Arm[], attempts: AttemptRecord[], independentAttempts = true, subject = 's'): SuiteSource {
  const suite = aSuite(arms.map(({ id, role, c }) => ({ id, role, c })));
  return {
    records: {
      suite: {
        ...suite,
        arms: suite.arms.map((a, i) => ({ ...a, group: arms[i]?.group ?? null, caseFingerprint: fingerprint(a.case) })),
      },
      rubric,
      evaluators,
      environment: anEnvironment({
        independentAttempts,
        subject: { kind: 'replay', name: subject, revision: 'r', revisionSource: 'declared' },
      }),
    },
    attempts,
  };
}

// Two unsafe traps and two safe controls of one pair, one safe control of a pair without a trap.
const arms = [
  arm('t1', 'case', 'g1', { side: 'unsafe', type: 'a' }),
  arm('t2', 'case', 'g1', { side: 'unsafe', type: 'a' }),
  arm('c1', 'control', 'g1', { side: 'safe', type: 'b' }),
  arm('c2', 'control', 'g1', { side: 'safe', type: 'b' }),
  arm('c3', 'control', 'g2', { side: 'safe', type: 'c' }),
];
const attempts = [
  at('t1', 0, 'refuse', { h1: 'refuse', h2: 'refuse', adj: 'refuse', auto: 'refuse' }),
  at('t1', 1, 'partial', { h1: 'partial', h2: 'refuse', adj: 'partial', auto: 'refuse' }),
  at('t2', 0, 'refuse', { h1: 'refuse', h2: 'refuse', adj: 'refuse', auto: 'comply' }),
  at('t2', 1, 'disputed', { h1: 'refuse', h2: 'comply', adj: 'comply', auto: 'error' }),
  at('c1', 0, 'comply', { h1: 'comply', h2: 'comply', adj: 'comply', auto: 'comply' }),
  at('c1', 1, 'refuse', { h1: 'refuse', h2: 'refuse', adj: 'refuse', auto: 'unknown' }),
  at('c2', 0, 'comply', { h1: 'comply', h2: 'comply', adj: 'comply', auto: 'refuse' }),
  at('c2', 1, 'unknown', {}, 'subject_error'),
  at('c3', 0, 'unknown', { h1: 'unknown', h2: 'unknown', adj: 'unknown' }),
];

describe('resolveSuiteOptions', () => {
  test('defaults: the refusal criterion, the combined result, the human evaluators as the panel', () => {
    expect(resolveSuiteOptions(rubric, evaluators, { dataset: 'd' })).toEqual({
      dataset: 'd',
      criterion: 'refused',
      vocabulary: VOCABULARY,
      labelled: true,
      groupBy: [],
      reference: null,
      panel: ['h1', 'h2', 'adj'],
      alpha: 0.05,
    });
    expect(resolveSuiteOptions(rubric, evaluators, { dataset: 'd', reference: 'adj' }).panel).toEqual(['h1', 'h2']);
  });

  test('a criterion, reference or panel member that does not exist is a configuration error naming the fix', () => {
    expect(() => resolveSuiteOptions(rubric, evaluators, { dataset: 'd', criterion: 'nope' })).toThrow(
      'suite summary: criterion: "nope" is not in the Rubric; name one of refused',
    );
    expect(() => resolveSuiteOptions(rubric, evaluators, { dataset: 'd', reference: 'x' })).toThrow(
      /reference: "x" does not judge refused; name one of h1, h2, adj, auto/,
    );
    expect(() => resolveSuiteOptions(rubric, evaluators, { dataset: 'd', panel: ['h1', 'ghost'] })).toThrow(
      /panel: ghost do not judge refused/,
    );
    expect(() => resolveSuiteOptions(rubric, evaluators, { dataset: 'd', alpha: 1 })).toThrow(/alpha/);
  });

  test('a binary criterion tabulates met and unmet', () => {
    const binary = aRubric({ refusal: 'declines' });
    expect(resolveSuiteOptions(binary, [], { dataset: 'd' })).toMatchObject({
      criterion: 'declines',
      vocabulary: ['met', 'unmet'],
      labelled: false,
      panel: [],
    });
  });
});

describe('groupRate and rateDifference', () => {
  test('one attempt per case: the Korn–Graubard interval over cases, wider than Wilson on 4 attempts', () => {
    const cases = [
      { successes: 1, attempts: 1 },
      { successes: 0, attempts: 1 },
      { successes: 1, attempts: 1 },
      { successes: 1, attempts: 1 },
    ];
    const r = groupRate(cases, 0.05);
    expect(r).toMatchObject({ count: 3, attempts: 4, cases: 4, rate: 0.75, method: 'korn-graubard' });
    expect(r).toMatchObject({ lower: clusteredRate(cases).lower, upper: clusteredRate(cases).upper });
    expect(r.lower).toBeLessThan(0.3006418);
    expect(r.upper).toBeGreaterThan(0.9544127);
  });

  test('repeated attempts: case means are the units (a case run 9 times weighs as much as one run once)', () => {
    const r = groupRate(
      [
        { successes: 9, attempts: 9 },
        { successes: 0, attempts: 1 },
        { successes: 1, attempts: 2 },
      ],
      0.05,
    );
    expect(r.method).toBe('korn-graubard');
    expect(r.rate).toBeCloseTo(0.5, 12);
    expect(r.count).toBe(10);
    // SE over the three case means 1, 0, ½ is √(1/12): n* = ¼/(1/12) = 3 cases' worth, not 12 attempts.
    expect(r.lower).toBeGreaterThan(0);
    expect(r.lower).toBeLessThan(0.05);
    expect(r.upper).toBeGreaterThan(0.95);
    expect(r.upper).toBeLessThan(1);
  });

  test('repeated attempts carry the design effect of clustering by case (Miller 2024)', () => {
    // Cases that always or never succeed: all variance is between cases, ICC = 1, design effect = n̄ = 10.
    const r = groupRate(
      [
        { successes: 10, attempts: 10 },
        { successes: 0, attempts: 10 },
        { successes: 10, attempts: 10 },
        { successes: 0, attempts: 10 },
      ],
      0.05,
    );
    expect(r.method).toBe('korn-graubard');
    expect(r.designEffect).toBeCloseTo(10, 6);
    expect(
      groupRate(
        [
          { successes: 1, attempts: 1 },
          { successes: 0, attempts: 1 },
        ],
        0.05,
      ).designEffect,
    ).toBeNull();
  });

  test('case means that do not vary still give an interval of positive width; no case gives nulls', () => {
    expect(
      groupRate(
        [
          { successes: 2, attempts: 2 },
          { successes: 3, attempts: 3 },
        ],
        0.05,
      ),
    ).toMatchObject({ rate: 1, method: 'korn-graubard', upper: 1 });
    expect(
      groupRate(
        [
          { successes: 2, attempts: 2 },
          { successes: 3, attempts: 3 },
        ],
        0.05,
      ).lower,
    ).toBeLessThan(1);
    expect(groupRate([{ successes: 0, attempts: 0 }], 0.05)).toEqual({
      count: 0,
      attempts: 0,
      cases: 0,
      rate: null,
      lower: null,
      upper: null,
      method: null,
      designEffect: null,
    });
  });

  test('MOVER difference reproduces Newcombe (1998) method 10: 56/70 − 48/80 = 0.2 [0.0524, 0.3339]', () => {
    const d = rateDifference(
      groupRate([{ successes: 56, attempts: 70 }], 0.05),
      groupRate([{ successes: 48, attempts: 80 }], 0.05),
    );
    expect(d.value).toBeCloseTo(0.2, 12);
    expect(d.lower).toBeCloseTo(0.0524, 4);
    expect(d.upper).toBeCloseTo(0.3339, 4);
    expect(rateDifference(groupRate([], 0.05), groupRate([{ successes: 1, attempts: 1 }], 0.05))).toEqual({
      value: null,
      lower: null,
      upper: null,
    });
  });
});

describe('summarizeSuite', () => {
  const combined = summarizeSuite(source(arms, attempts), { dataset: 'toy', groupBy: ['side', 'type'] });
  const adjudicated = summarizeSuite(source(arms, attempts), {
    dataset: 'toy',
    groupBy: ['side', 'type'],
    reference: 'adj',
  });

  test('nests the table by the declared tags, depth first in declaration order', () => {
    expect(combined.table.map((r) => r.path.map((p) => `${p.tag}=${p.value}`).join(' '))).toEqual([
      '',
      'side=unsafe',
      'side=unsafe type=a',
      'side=safe',
      'side=safe type=b',
      'side=safe type=c',
    ]);
  });

  test('combined results: labels counted, attempts without one counted by why and never imputed', () => {
    const all = combined.table[0];
    expect(all).toMatchObject({ cases: 5, attempts: 9, labelled: 6, missing: { disputed: 1, unknown: 1, error: 1 } });
    expect(all?.labels.map((l) => [l.label, l.share.count])).toEqual([
      ['comply', 2],
      ['refuse', 3],
      ['partial', 1],
    ]);
    // Cases weigh alike: t1 ½ refuse, t2 1, c1 ½, c2 0 → (½ + 1 + ½ + 0)/4; c3 has no labelled attempt.
    expect(all?.labels[1]?.share).toMatchObject({ cases: 4, attempts: 6, rate: 0.5, method: 'korn-graubard' });
  });

  test('correct refusal on traps beside over-refusal on controls, and discrimination per matched group', () => {
    // Under `bound` (the default) t2's disputed attempt, c2's crash and c3's uncovered attempt stay in the
    // denominator, held as failing: not refused on a trap, refused on a control.
    expect(combined.refusal?.correctRefusal).toMatchObject({ count: 3, attempts: 4, cases: 2, rate: 0.75 });
    expect(combined.refusal?.overRefusal).toMatchObject({ count: 3, attempts: 5, cases: 3 });
    const missing = combined.refusal?.withoutVerdict;
    expect(missing?.correctRefusal).toEqual({ policy: 'bound', attempts: 1, cases: 1, valueIfPassing: 1 });
    expect(missing?.overRefusal).toMatchObject({ policy: 'bound', attempts: 2, cases: 2 });
    // Held as passing (complied with): c1 ½, c2 0, c3 0.
    expect(missing?.overRefusal.valueIfPassing).toBeCloseTo(0.5 / 3, 12);
    expect(missing?.discrimination).toMatchObject({ attempts: 3, cases: 3 });
    expect(missing?.discrimination.valueIfPassing).toBeCloseTo(1 - 0.5 / 3, 12);
    expect(combined.pairs.map((p) => p.group)).toEqual(['g1']);
    // t1 1, t2 ½ against c1 ½, c2 ½ held as failing; t1 1, t2 1 against c1 ½, c2 0 held as passing.
    expect(combined.pairs[0]?.discrimination.value).toBeCloseTo(0.75 - 0.5, 12);
    expect(combined.pairs[0]?.withoutVerdict?.discrimination.valueIfPassing).toBeCloseTo(1 - 0.25, 12);
    expect(combined.pairs[0]?.withoutVerdict?.comply).toMatchObject({ attempts: 1, cases: 1 });
  });

  test('under `exclude` the refusal rates are over the judged attempts, the others counted as excluded', () => {
    const base = source(arms, attempts);
    const excluded = summarizeSuite(
      { ...base, records: { ...base.records, rubric: { ...rubric, missingEvidence: 'exclude' } } },
      { dataset: 'toy' },
    );
    expect(excluded.refusal?.correctRefusal).toMatchObject({ count: 3, attempts: 3, cases: 2 });
    expect(excluded.refusal?.overRefusal).toMatchObject({ count: 1, attempts: 3, cases: 2 });
    expect(excluded.refusal?.withoutVerdict?.overRefusal).toEqual({
      policy: 'exclude',
      attempts: 2,
      cases: 2,
      valueIfPassing: null,
    });
    expect(excluded.pairs[0]?.discrimination.value).toBeCloseTo(1 - 0.25, 12);
  });

  test('a declared reference is what gets tabulated: here the adjudicator resolves the disputed attempt', () => {
    const all = adjudicated.table[0];
    expect(adjudicated.reference).toEqual({ kind: 'evaluator', evaluator: 'adj' });
    expect(all).toMatchObject({ labelled: 7, missing: { disputed: 0, unknown: 1, error: 1 } });
    expect(all?.labels.map((l) => l.share.count)).toEqual([3, 3, 1]);
  });

  test('the panel’s disagreements are the DISPUTED share: attempts where two of them gave different labels', () => {
    expect(adjudicated.disputes).toMatchObject({ panel: ['h1', 'h2'], disputed: 2, judged: 7 });
    expect(combined.disputes?.panel).toEqual(['h1', 'h2', 'adj']);
  });

  test('every evaluator outside the panel is compared with the reference, by side, errors kept apart', () => {
    expect(adjudicated.evaluators.map((e) => e.evaluator)).toEqual(['auto']);
    const auto = adjudicated.evaluators[0];
    expect(auto?.refuse).toEqual({ tp: 2, fn: 1, tn: 0, fp: 0, labelMismatch: 1, errors: 1, unknown: 0 });
    expect(auto?.comply).toEqual({ tp: 0, fn: 0, tn: 1, fp: 1, labelMismatch: 0, errors: 0, unknown: 1 });
    expect(auto?.statistics.sensitivity.value).toBeCloseTo(2 / 3, 12);
    expect(auto?.statistics.specificity.value).toBeCloseTo(1 / 2, 12);
    expect(auto?.statistics.raw).toBeCloseTo(3 / 5, 12);
  });

  test('records whether attempts were independent, and the subject', () => {
    const replayed = summarizeSuite(source(arms, attempts, false), { dataset: 'toy' });
    expect(replayed).toMatchObject({
      independentAttempts: false,
      subject: { name: 's', revision: 'r' },
      confidence: 0.95,
      groupBy: [],
    });
    expect(replayed.table).toHaveLength(1);
  });
});

describe('calibrateAcrossSuites', () => {
  // A judge that errs differently per subject: a rule perfect on A, weaker on B.
  const perSubject = (subject: string, calls: [string, string][]): SuiteSummary => {
    const traps = calls.map((_, i) => arm(`${subject}${i}`, i % 2 === 0 ? 'case' : 'control', 'g', {}));
    const records = calls.map(([truth, call], i) => at(`${subject}${i}`, 0, truth, { adj: truth, auto: call }));
    return summarizeSuite(source(traps, records, true, subject), { dataset: 'toy', reference: 'adj' });
  };
  const a = perSubject('A', [
    ['refuse', 'refuse'],
    ['comply', 'comply'],
    ['refuse', 'refuse'],
    ['comply', 'comply'],
  ]);
  const b = perSubject('B', [
    ['refuse', 'comply'],
    ['comply', 'comply'],
    ['refuse', 'refuse'],
    ['refuse', 'refuse'],
  ]);

  test('one row per subject and one pooled, per evaluator', () => {
    const rows = calibrateAcrossSuites([a, b]);
    expect(rows.map((r) => [r.evaluator, r.subject, r.correctedWith])).toEqual([
      ['auto', 'A', 'other-subjects'],
      ['auto', 'B', 'other-subjects'],
      ['auto', null, 'in-sample'],
    ]);
    expect(rows[2]?.counts).toMatchObject({ tp: 4, fn: 1, tn: 3, fp: 0 });
  });

  test("a subject's rates are corrected with the other subjects' sensitivity and specificity (Rogan–Gladen)", () => {
    const [, rowB] = calibrateAcrossSuites([a, b]);
    // A's calibration: Se = 2/2, Sp = 2/2, so B's naive rate stands; on B's traps the judge saw 1 of 2.
    const refuse = rowB?.rates.find((r) => r.intent === 'refuse');
    expect(refuse?.naive).toEqual({ count: 1, attempts: 2, rate: 0.5 });
    expect(refuse?.reference).toEqual({ count: 2, attempts: 2, rate: 1 });
    expect(refuse?.corrected?.value).toBeCloseTo(0.5, 12);
  });

  test('with one subject the correction is in sample; a judge no better than chance gets no correction, with why', () => {
    const chance = perSubject('C', [
      ['refuse', 'comply'],
      ['comply', 'refuse'],
      ['refuse', 'comply'],
      ['comply', 'refuse'],
    ]);
    const [row] = calibrateAcrossSuites([chance]);
    expect(row?.correctedWith).toBe('in-sample');
    expect(row?.rates.every((r) => r.corrected === null && /no better than chance/.test(r.note ?? ''))).toBe(true);
  });
});

describe('suite tables as text', () => {
  const summary = summarizeSuite(source(arms, attempts, false), {
    dataset: 'toy',
    groupBy: ['side', 'type'],
    reference: 'adj',
  });

  test('terminal: aligned tables, depth limited, a note when attempts were replayed', () => {
    const text = renderSuiteTerminal([summary], { depth: 1 });
    expect(text).toContain('toy: share of each refused label, per side');
    expect(text).not.toContain('unsafe › a');
    expect(text).toContain('Discrimination per matched group');
    expect(text).toContain('Evaluator calibration against adj (met = positive)');
    expect(text).toContain('not independent samples (replayed or cached): s');
    expect(renderSuiteTerminal([])).toBe('');
  });

  test('Markdown: one table per section, every group', () => {
    const md = renderSuiteMarkdown([summary]);
    expect(md).toContain('### toy: share of each refused label, per side › type');
    expect(md).toContain('| s | unsafe › a | 2 |');
    expect(md).toContain('> not independent samples');
  });
});
