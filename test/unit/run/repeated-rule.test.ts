import { describe, expect, it } from 'vitest';
import { expect as vitestExpect } from 'vitest';
import type { Outcome, Verdict } from '../../../src/model/index.js';
import { renderTerminal } from '../../../src/report/index.js';
import { resolveTrial, runTrial, TrialDeclarationError, type SuiteDeclaration } from '../../../src/run/index.js';
import { anEnvironment } from '../builders.js';

const site = { name: 'repeated suite', file: 'trials/repeated.test.ts', path: [], line: 3 };

/**
 * A suite of `solved + failed` tasks run 4 times each, as a benchmark's repeated trials: the first `solved` tasks
 * succeed on every attempt, the rest on none. Four attempts settle no task alone at τ = 0.8, so every row is UNKNOWN
 * or FAIL; the declared pass^4 rule decides the suite.
 */
function declaration(solved: number, failed: number, rule = { k: 4, atLeast: 0.5 }, n = 4): SuiteDeclaration {
  const ids = Array.from({ length: solved + failed }, (_, i) => `task-${i}`);
  return {
    subject: (input: unknown) => (Number(String(input).split('-')[1]) < solved ? 'done' : 'gave up'),
    rubric: { criteria: { solved: { description: 'the task was done', needs: 'text' } } },
    checks: {
      solved: (o: { reply: unknown }) => {
        vitestExpect(o.reply).toBe('done');
      },
    },
    cases: ids.map((id) => ({ id, role: 'case' as const, input: id, expect: ['solved'] })),
    repeat: { n, stop: 'fixed' },
    passOn: ['PASS'] as Verdict[],
    summary: { dataset: 'unit', criterion: 'solved', repeated: { rule } },
  } as SuiteDeclaration;
}

async function run(declared: SuiteDeclaration): Promise<Outcome> {
  const resolved = resolveTrial(site, declared);
  return runTrial(
    { ...resolved, environment: anEnvironment(), unavailable: [], fixtures: {} },
    { clock: { now: () => Date.now() }, expect: vitestExpect },
  );
}

const kinds = (outcome: Outcome) => outcome.findings.map((f) => f.kind);

describe('a suite of repeated attempts with a declared pass^k rule', () => {
  it('takes its verdict from the rule, a check of the suite rule, and its undecided rows add no finding', async () => {
    const outcome = await run(declaration(6, 24));
    // 4 of 4 cannot certify 0.8 (UNKNOWN); 0 of 4 is FAIL. Row by row the trial would FAIL on its 24 failing tasks.
    expect(new Set(outcome.arms.map((a) => a.verdict))).toEqual(new Set(['UNKNOWN', 'FAIL']));
    expect(outcome.suite?.repeated?.passHatK[3]?.value).toBeCloseTo(0.2, 12);
    expect(outcome.suiteRule?.conditions).toEqual([{ rate: 'pass^4', atLeast: 0.5 }]);
    expect(outcome.suiteRule?.checks).toEqual([
      expect.objectContaining({ condition: 0, rate: 'pass^4', group: null, bound: 'atLeast', threshold: 0.5 }),
    ]);
    const [check] = outcome.suiteRule?.checks ?? [];
    expect(check?.value).toBeCloseTo(0.2, 12);
    expect(check?.cases).toBe(30);
    // One check: PASS and FAIL read the same interval, the pass^k table's.
    const row = outcome.suite?.repeated?.passHatK[3];
    expect(check?.interval).toEqual({ lower: row?.lower, upper: row?.upper });
    expect(check?.failInterval).toEqual(check?.interval);
    expect(check?.decision).toBe('FAIL');
    expect(outcome.judgment).toMatchObject({ verdict: 'FAIL', testOutcome: 'fail' });
    expect(outcome.judgment.reason).toMatch(
      /^suite rule FAIL \(0 PASS, 1 FAIL, 0 UNKNOWN of 1 check\): pass\^4 ≥ 0\.5/,
    );
    expect(outcome.suite?.repeated?.verdict?.verdict).toBe('FAIL');
    // The rule's check is the subject's finding; rows neither FAIL nor UNKNOWN "for too few attempts" one by one.
    expect(outcome.findings.filter((f) => f.kind === 'suite-rule').map((f) => [f.owner, f.message])).toEqual([
      [
        'subject',
        expect.stringMatching(/^pass\^4 ≥ 0\.5: 0\.200, 95% interval \[0\.\d+, 0\.\d+\] over 30 cases: FAIL$/),
      ],
    ]);
    expect(kinds(outcome)).not.toContain('too-few-attempts');
    expect(kinds(outcome)).not.toContain('arm-verdict');
    // n = 4 cannot certify a row at τ = 0.8, but rows do not decide this suite: no warning says they should.
    expect(outcome.warnings.join('\n')).not.toMatch(/cannot certify PASS/);
    const terminal = renderTerminal([outcome], []).replace(/\u001b\[[0-9;]*m/g, '');
    expect(terminal).toMatch(/suite rule FAIL — 0 PASS, 1 FAIL, 0 UNKNOWN of 1 check/);
    expect(terminal).not.toMatch(/UNKNOWN for too few attempts/);
  });

  it('PASSes when pass^k clears the threshold though no row is certified, claiming the rule, not the rows', async () => {
    const outcome = await run(declaration(27, 3));
    expect(outcome.arms.some((a) => a.verdict === 'PASS')).toBe(false);
    expect(outcome.suiteRule?.checks.map((c) => c.decision)).toEqual(['PASS']);
    expect(outcome.judgment).toMatchObject({ verdict: 'PASS', testOutcome: 'pass' });
    expect(outcome.findings).toEqual([]);
    // One claim, the rule's check; none for the 30 rows that 4 attempts cannot certify.
    expect(outcome.capabilities).toHaveLength(1);
    expect(JSON.stringify(outcome.capabilities)).toContain('pass^4');
  });

  it('is UNKNOWN where the interval straddles the threshold: a harness finding, not 30 rows', async () => {
    const outcome = await run(declaration(15, 15));
    expect(outcome.judgment.verdict).toBe('UNKNOWN');
    expect(outcome.findings.map((f) => [f.owner, f.kind])).toEqual([['harness', 'suite-rule-unsettled']]);
  });

  it('checks pass^k beside refusal conditions, failing each at the Bonferroni level over all the checks', async () => {
    // 40 prompts to refuse, 40 to answer, twice each; the subject refuses what starts with "bad", except bad-0…bad-11.
    const cases = Array.from({ length: 40 }, (_, i) => [
      { id: `bad-${i}`, role: 'case' as const, input: `bad ${i}`, expect: ['refused'] },
      { id: `ok-${i}`, role: 'control' as const, input: `fine ${i}`, expect: [], forbid: ['refused'] },
    ]).flat();
    const outcome = await run({
      subject: (input: unknown) =>
        /^bad (\d+)$/.test(String(input)) && Number(String(input).slice(4)) >= 12 ? 'no' : 'sure',
      rubric: { criteria: { refused: { description: 'declines', needs: 'text' } }, refusal: 'refused' },
      checks: {
        refused: (o: { reply: unknown }) => {
          vitestExpect(o.reply).toBe('no');
        },
      },
      cases,
      repeat: { n: 2, stop: 'fixed' },
      passOn: ['PASS'] as Verdict[],
      summary: {
        dataset: 'unit',
        rule: [{ rate: 'overRefusal', atMost: 0.2 }],
        repeated: { rule: { k: 2, atLeast: 0.5 } },
      },
    } as SuiteDeclaration);
    const rule = outcome.suiteRule;
    expect(rule?.conditions).toEqual([
      { rate: 'overRefusal', atLeast: null, atMost: 0.2, groups: null },
      { rate: 'pass^2', atLeast: 0.5 },
    ]);
    expect(rule?.failConfidence).toBeCloseTo(0.975, 12);
    const [refusal, pass] = rule?.checks ?? [];
    expect(refusal).toMatchObject({ condition: 0, rate: 'overRefusal', value: 0, decision: 'PASS' });
    // pass^2 of "refused met": the 28 refusals of 80 cases; its FAIL interval is the 97.5% one, wider than the 95%.
    expect(pass).toMatchObject({ condition: 1, rate: 'pass^2', cases: 80, decision: 'FAIL' });
    expect(pass?.value).toBeCloseTo(28 / 80, 12);
    const row = outcome.suite?.repeated?.passHatK[1];
    expect(pass?.interval).toEqual({ lower: row?.lower, upper: row?.upper });
    expect(pass?.failInterval?.lower).toBeLessThan(pass?.interval?.lower ?? 0);
    expect(pass?.failInterval?.upper).toBeGreaterThan(pass?.interval?.upper ?? 1);
    expect(outcome.judgment.verdict).toBe('FAIL');
    expect(outcome.judgment.reason).toMatch(
      /^suite rule FAIL \(1 PASS, 1 FAIL, 0 UNKNOWN of 2 checks\): pass\^2 ≥ 0\.5/,
    );
  });

  it('refuses a rule over more attempts than each case runs, naming the field', () => {
    const declared = declaration(1, 1, { k: 5, atLeast: 0.5 });
    expect(() => resolveTrial(site, declared)).toThrow(TrialDeclarationError);
    expect(() => resolveTrial(site, declared)).toThrow(
      /trials\/repeated\.test\.ts:3\): summary\.repeated\.rule\.k: pass\^5 needs 5 attempts of each case, but repeat\.n is 4/,
    );
    expect(() => resolveTrial(site, declaration(1, 1, { k: 4, atLeast: 0.5 }))).not.toThrow();
  });
});
