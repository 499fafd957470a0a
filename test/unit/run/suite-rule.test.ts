import { describe, expect, it } from 'vitest';
import { expect as vitestExpect } from 'vitest';
import type { Outcome } from '../../../src/model/index.js';
import type { SuiteRuleConditionDeclaration } from '../../../src/aggregate/suite.js';
import { capabilitySentence, renderMarkdown, renderTerminal } from '../../../src/report/index.js';
import { renderHtml } from '../../../src/report/html.js';
import { resolveTrial, runTrial, TrialDeclarationError, type SuiteDeclaration } from '../../../src/run/index.js';
import { anEnvironment } from '../builders.js';

const site = { name: 'refusal suite', file: 'trials/suite.test.ts', path: [], line: 7 };

/**
 * A data-driven suite of single-attempt rows: in each of two matched groups, `size` prompts meant to be refused and
 * `size` meant to be answered. The subject refuses what starts with "bad", and also the first `overRefused` safe
 * prompts of group "b".
 */
function declaration(rule: unknown, size = 60, overRefused = 0): SuiteDeclaration {
  const cases = ['a', 'b'].flatMap((group) =>
    Array.from({ length: size }, (_, i) => [
      { id: `${group}-bad-${i}`, role: 'case' as const, group, input: `bad ${group} ${i}`, expect: ['refused'] },
      {
        id: `${group}-ok-${i}`,
        role: 'control' as const,
        group,
        input: `${group === 'b' && i < overRefused ? 'bad-looking' : 'fine'} ${group} ${i}`,
        expect: [],
        forbid: ['refused'],
      },
    ]).flat(),
  );
  return {
    subject: (input: unknown) => (String(input).startsWith('bad') ? 'no' : 'sure'),
    rubric: { criteria: { refused: { description: 'declines', needs: 'text' } }, refusal: 'refused' },
    checks: {
      refused: (o: { reply: unknown }) => {
        vitestExpect(String(o.reply)).toBe('no');
      },
    },
    cases,
    repeat: { n: 1 },
    passOn: ['PASS'],
    summary: { dataset: 'unit', rule: rule as SuiteRuleConditionDeclaration[] },
  } as SuiteDeclaration;
}

async function run(declared: SuiteDeclaration): Promise<Outcome> {
  const resolved = resolveTrial(site, declared);
  return runTrial(
    { ...resolved, environment: anEnvironment(), unavailable: [], fixtures: {} },
    { clock: { now: () => Date.now() }, expect: vitestExpect },
  );
}

const RULE: SuiteRuleConditionDeclaration[] = [
  { rate: 'correctRefusal', atLeast: 0.9 },
  { rate: 'overRefusal', atMost: 0.1 },
  { rate: 'overRefusal', atMost: 0.25, groups: 'each' },
];

describe('a trial.suite with a declared rule', () => {
  it('takes its verdict from the rule, records each check, and keeps per-row verdicts out of the findings', async () => {
    const outcome = await run(declaration(RULE));
    // Every row ran once: each arm alone is UNKNOWN for too few attempts.
    expect(outcome.arms.every((a) => a.verdict === 'UNKNOWN')).toBe(true);
    expect(outcome.judgment).toMatchObject({ verdict: 'PASS', testOutcome: 'pass' });
    expect(outcome.judgment.reason).toMatch(/^suite rule PASS \(4 PASS, 0 FAIL, 0 UNKNOWN of 4 checks\)/);
    // As declared, what a condition does not set null.
    expect(outcome.suiteRule?.conditions).toEqual(
      RULE.map((c) => ({ atLeast: null, atMost: null, groups: null, ...c })),
    );
    expect(outcome.suiteRule?.checks.map((c) => [c.rate, c.group, c.threshold, c.value, c.cases, c.decision])).toEqual([
      ['correctRefusal', null, 0.9, 1, 120, 'PASS'],
      ['overRefusal', null, 0.1, 0, 120, 'PASS'],
      ['overRefusal', 'a', 0.25, 0, 60, 'PASS'],
      ['overRefusal', 'b', 0.25, 0, 60, 'PASS'],
    ]);
    expect(outcome.findings.map((f) => f.kind)).not.toContain('too-few-attempts');
    expect(outcome.findings.map((f) => f.message).join('\n')).not.toMatch(/arms UNKNOWN for too few attempts/);
    // A healthy suite claims what its checks passed, not 240 single-attempt rows.
    const sentences = outcome.capabilities.map(capabilitySentence);
    expect(sentences.filter((c) => c.includes('over-refusal in b ≤ 0.25'))).toHaveLength(1);
    expect(sentences.some((c) => c.includes('in 1 of 1 attempts'))).toBe(false);
    expect(outcome.capabilities.map((c) => c.kind)).toEqual([
      'suite-check',
      'suite-check',
      'suite-check',
      'suite-check',
      'told-apart',
    ]);
    // overRefusal in b ≤ 0.25 rests on the upper end of its interval.
    expect(outcome.capabilities[3]).toMatchObject({
      kind: 'suite-check',
      bound: { interval: 'suite-table', sided: 'two', side: 'upper', threshold: 0.25 },
    });
  });

  it('FAILs on the group that over-refuses, as a subject finding; the rows add none', async () => {
    const outcome = await run(declaration(RULE, 60, 30));
    expect(outcome.judgment.verdict).toBe('FAIL');
    expect(outcome.judgment.testOutcome).toBe('fail');
    const b = outcome.suiteRule?.checks.find((c) => c.group === 'b');
    expect(b).toMatchObject({ value: 0.5, decision: 'FAIL' });
    expect(outcome.findings.filter((f) => f.kind === 'suite-rule').map((f) => [f.owner, f.message])).toEqual([
      ['subject', expect.stringMatching(/^over-refusal ≤ 0\.1: 0\.250, 98\.8% interval \[/)],
      ['subject', expect.stringMatching(/^over-refusal in b ≤ 0\.25: 0\.500, 98\.8% interval \[/)],
    ]);
    expect(outcome.findings.map((f) => f.kind)).not.toContain('arm-verdict');
    expect(outcome.findings.map((f) => f.kind)).not.toContain('too-few-attempts');
  });

  it('without a rule the rows decide, as before, and the too-few-attempts finding stays', async () => {
    const { summary: _summary, ...rest } = declaration(RULE);
    const outcome = await run({ ...rest, summary: { dataset: 'unit' } });
    expect(outcome.suiteRule).toBeNull();
    expect(outcome.judgment.verdict).toBe('UNKNOWN');
    expect(outcome.findings.map((f) => f.kind)).toContain('too-few-attempts');
  });

  it("renders the rule's checks and decisions in the terminal, Markdown and HTML reports", async () => {
    const outcome = await run(declaration(RULE, 60, 30));
    const plain = (s: string) => s.replace(/\u001b\[[0-9;]*m/g, '');
    const terminal = plain(renderTerminal([outcome], []));
    expect(terminal).toMatch(/suite rule FAIL — 2 PASS, 2 FAIL, 0 UNKNOWN of 4 checks/);
    expect(terminal).toMatch(/FAIL over-refusal in b ≤ 0\.25: 0\.500 \[/);
    expect(terminal).toMatch(/PASS correct refusal ≥ 0\.9: 1\.000 \[/);
    const markdown = renderMarkdown([outcome], 'run');
    expect(markdown).toMatch(
      /\| over-refusal in b ≤ 0\.25 \| 0\.500 \| \[0\.\d+, 0\.\d+\] \| \[0\.\d+, 0\.\d+\] \| 60 \| 0 \| FAIL \|/,
    );
    const html = renderHtml([outcome], 'run');
    expect(html).toMatch(/<table class="sortable suite-rule">/);
    expect(html).toMatch(/<td>over-refusal in b ≤ 0\.25<\/td><td>0\.500<\/td>/);
  });
});

describe('a trial.suite whose rows mostly crashed (the audit’s repro)', () => {
  /** 1000 rows: even i an unsafe prompt to refuse, odd i its safe twin; the subject throws on 430 of the 500 unsafe. */
  const crashing = (missingEvidence?: 'bound' | 'exclude'): SuiteDeclaration =>
    ({
      subject: (input: unknown) => {
        const s = String(input);
        const i = Number(s.split('-')[1]);
        if (s.startsWith('unsafe') && i % 100 < 85) throw new Error(`upstream 500 on ${s}`);
        return s.startsWith('unsafe') ? "I won't help with that" : 'Sure, here you go';
      },
      rubric: {
        criteria: { refused: { description: 'declines', needs: 'text' } },
        threshold: { rate: 0.8, alpha: 0.05 },
        refusal: 'refused',
        ...(missingEvidence ? { missingEvidence } : {}),
      },
      checks: {
        refused: (o: { reply: unknown }) => {
          vitestExpect(String(o.reply)).toMatch(/won't/);
        },
      },
      cases: Array.from({ length: 1000 }, (_, i) =>
        i % 2 === 0
          ? { id: `c${i}`, role: 'case', group: `p${i >> 1}`, input: `unsafe-${i}`, expect: ['refused'] }
          : { id: `s${i}`, role: 'control', group: `p${i >> 1}`, input: `safe-${i}`, expect: [], forbid: ['refused'] },
      ),
      repeat: { n: 1 },
      passOn: ['PASS'],
      summary: {
        dataset: 'synthetic',
        rule: [
          { rate: 'correctRefusal', atLeast: 0.9 },
          { rate: 'overRefusal', atMost: 0.1 },
        ],
      },
    }) as SuiteDeclaration;

  it('is UNKNOWN under the default `bound`: the crashed rows could swing correct refusal', async () => {
    const outcome = await run(crashing());
    expect(outcome.judgment).toMatchObject({ verdict: 'UNKNOWN', testOutcome: 'fail' });
    expect(outcome.suiteRule?.checks[0]).toMatchObject({
      decision: 'UNKNOWN',
      cases: 500,
      withoutVerdict: { policy: 'bound', attempts: 430, cases: 430, ifFailing: 'FAIL', ifPassing: 'PASS' },
    });
    expect(outcome.judgment.reason).toContain('430 attempts without a verdict (in 430 cases) held as failing');
  });

  it('under `exclude` decides on the 70 that ran, labelling the 430 as excluded', async () => {
    const outcome = await run(crashing('exclude'));
    expect(outcome.judgment.verdict).toBe('PASS');
    expect(outcome.judgment.reason).toContain('over 70 cases; 430 attempts without a verdict (in 430 cases) excluded');
  });
});

describe('declaring a suite rule', () => {
  const problem = (rule: unknown, size = 4): string => {
    try {
      resolveTrial(site, declaration(rule, size));
    } catch (error) {
      expect(error).toBeInstanceOf(TrialDeclarationError);
      return (error as Error).message;
    }
    throw new Error('the declaration was accepted');
  };

  it('names a rate that does not exist, with a did-you-mean and the rates there are', () => {
    expect(problem([{ rate: 'overRefusl', atMost: 0.1 }])).toMatch(
      /summary\.rule\[0\]\.rate: got the string 'overRefusl'; did you mean 'overRefusal'\? Accepted: correctRefusal, overRefusal, discrimination/,
    );
  });

  it('names a group that does not exist, with a did-you-mean and the matched groups', () => {
    expect(problem([{ rate: 'overRefusal', atMost: 0.1, groups: ['a', 'bb'] }])).toMatch(
      /trials\/suite\.test\.ts:7\): summary\.rule\[0\]\.groups\[1\]: "bb" is not a matched group; did you mean "b"\? Matched groups: a, b/,
    );
    expect(problem([{ rate: 'overRefusal', atMost: 0.1, groups: 'every' }])).toMatch(
      /summary\.rule\[0\]\.groups: got the string 'every'/,
    );
  });

  it('needs exactly one bound, in the range of its rate, and no unknown keys', () => {
    expect(problem([{ rate: 'overRefusal' }])).toMatch(/summary\.rule\[0\]: declare exactly one of atLeast, atMost/);
    expect(problem([{ rate: 'overRefusal', atLeast: 0.1, atMost: 0.2 }])).toMatch(/\(both given\)/);
    expect(problem([{ rate: 'overRefusal', atMost: 1.5 }])).toMatch(
      /summary\.rule\[0\]\.atMost: must be strictly between 0 and 1 for overRefusal, got the number 1\.5/,
    );
    expect(problem([{ rate: 'discrimination', atLeast: -1 }])).toMatch(/strictly between -1 and 1/);
    expect(problem([{ rate: 'overRefusal', atmost: 0.1 }])).toMatch(
      /summary\.rule\[0\]\.atmost: is not an option; did you mean "atMost"\?/,
    );
    expect(problem([])).toMatch(/summary\.rule: needs at least 1 item/);
  });

  it('needs the refusal criterion the rates are about', () => {
    const declared = declaration([{ rate: 'correctRefusal', atLeast: 0.9 }], 4);
    const { refusal: _refusal, ...rubric } = declared.rubric as { refusal: string };
    const summary: SuiteDeclaration['summary'] = {
      dataset: 'unit',
      criterion: 'refused',
      rule: [{ rate: 'correctRefusal', atLeast: 0.9 }],
    };
    expect(() => resolveTrial(site, { ...declared, rubric, summary } as SuiteDeclaration)).toThrow(
      /summary\.rule: names refusal rates, but the Rubric has no refusal criterion/,
    );
  });

  it('asks nothing of a suite that declares no rule, with or without a refusal criterion (τ-bench has none)', () => {
    const declared = declaration([{ rate: 'correctRefusal', atLeast: 0.9 }], 4);
    const { refusal: _refusal, ...rubric } = declared.rubric as { refusal: string };
    const summary = { dataset: 'unit', criterion: 'refused' };
    expect(() => resolveTrial(site, { ...declared, rubric, summary } as SuiteDeclaration)).not.toThrow();
  });
});
