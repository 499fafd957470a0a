import { describe, expect, it } from 'vitest';
import { stripVTControlCharacters } from 'node:util';
import { compareRuns } from '../../../src/aggregate/index.js';
import { renderDiffMarkdown, renderDiffTerminal } from '../../../src/report/diff.js';
import { Comparison, systemClock, type Outcome } from '../../../src/model/index.js';
import { resolveTrial, runTrial, type SuiteDeclaration } from '../../../src/run/index.js';
import { wilson } from '../../../src/statistics/index.js';
import { anEnvironment } from '../builders.js';

interface RunSpec {
  /** Per arm, one character per attempt: `1` the subject replies correctly, `0` it does not, `x` it throws. */
  patterns: Record<string, string>;
  name?: string;
  revision?: string;
  seed?: number;
  threshold?: number;
  missingEvidence?: 'bound' | 'exclude';
}

/** A real Outcome from the core API: a function subject whose replies follow the patterns, a fixed-n schedule. */
async function outcomeOf(spec: RunSpec): Promise<Outcome> {
  const ids = Object.keys(spec.patterns);
  const n = Math.max(...ids.map((id) => spec.patterns[id]?.length ?? 0));
  const declaration: SuiteDeclaration = {
    subject: (_input, context) => {
      const mark = spec.patterns[context.arm]?.[context.attempt];
      if (mark === 'x') throw new Error('the subject crashed');
      return mark === '1' ? 'yes' : 'no';
    },
    revision: spec.revision ?? 'r1',
    rubric: {
      criteria: { ok: { description: 'replies yes', needs: 'text' } },
      threshold: { rate: spec.threshold ?? 0.5 },
      ...(spec.missingEvidence ? { missingEvidence: spec.missingEvidence } : {}),
    },
    checks: {
      ok: (observation) => {
        expect(observation.reply).toBe('yes');
      },
    },
    cases: ids.map((id, i) => ({ id, role: i === 0 ? 'case' : 'control', input: `input of ${id}`, expect: ['ok'] })),
    repeat: { n, seed: spec.seed ?? 7, stop: 'fixed' },
  };
  const resolved = resolveTrial(
    { name: spec.name ?? 'yes-sayer', file: 'trials/compare.test.ts', path: [] },
    declaration,
  );
  const environment = anEnvironment({ subject: await resolved.subject.identify() });
  return runTrial(
    {
      suite: resolved.suite,
      rubric: resolved.rubric,
      evaluators: resolved.evaluators,
      subject: resolved.subject,
      tools: resolved.tools,
      environment,
      unavailable: [],
      fixtures: {},
      sealed: {},
      observers: [],
      claimExtractors: [],
      keepFailedSandboxes: false,
    },
    { clock: systemClock, expect },
  );
}

describe('compareRuns: a trial with a case and its control', () => {
  it('writes a p-value below 0.0001 as "p < 0.0001", never "p = <0.0001"', async () => {
    const a = await outcomeOf({ patterns: { case: '1'.repeat(20), control: '1'.repeat(20) }, revision: 'r1' });
    const b = await outcomeOf({ patterns: { case: '0'.repeat(20), control: '1'.repeat(20) }, revision: 'r2' });
    const comparison = compareRuns([a], [b]);
    expect(comparison.trials[0]?.mcnemar?.pValue).toBeLessThan(0.0001);
    const terminal = stripVTControlCharacters(renderDiffTerminal(comparison));
    expect(terminal).toContain('exact p < 0.0001');
    expect(terminal).not.toMatch(/p = </);
    expect(renderDiffMarkdown(comparison)).toContain('| < 0.0001 |');
  });

  const before = { case: '1111111111', control: '0111111111' };
  const after = { case: '1111100000', control: '1011111111' };

  it('pairs attempts by (arm, index) when the seeds match, with exact McNemar per arm and over the trial', async () => {
    const a = await outcomeOf({ patterns: before, revision: 'r1' });
    const b = await outcomeOf({ patterns: after, revision: 'r2' });
    const comparison = compareRuns([a], [b]);
    expect(Comparison.parse(comparison)).toEqual(comparison);
    const [trial] = comparison.trials;
    expect(trial?.verdict).toEqual({ a: a.judgment.verdict, b: b.judgment.verdict });
    expect(trial?.verdict.a).not.toBe(trial?.verdict.b);
    expect(comparison.summary).toMatchObject({ compared: 1, verdictChanges: 1, beyondSubject: 0, unmatchedTrials: 0 });

    const [caseArm, controlArm] = trial?.arms ?? [];
    // Case: attempts 5..9 passed in A only. P(X ≤ 0 | 5, ½) = 1/32, two-sided 2/32.
    expect(caseArm?.pairs).toMatchObject({ unit: 'attempt', pairs: 10, bothPass: 5, aOnly: 5, bOnly: 0, bothFail: 0 });
    expect(caseArm?.pairs?.pValue).toBeCloseTo(2 / 32, 12);
    // Control: attempt 1 passed in A only, attempt 0 in B only: an even split, p = 1.
    expect(controlArm?.pairs).toMatchObject({ aOnly: 1, bOnly: 1, bothPass: 8, pValue: 1 });
    // Trial: b = 6, c = 1 of 7. P(X ≤ 1 | 7, ½) = (1 + 7)/128, two-sided 16/128.
    expect(trial?.mcnemar).toMatchObject({
      unit: 'attempt',
      pairs: 20,
      aOnly: 6,
      bOnly: 1,
      leftOut: { undecided: 0, oneRunOnly: 0 },
    });
    expect(trial?.mcnemar?.pValue).toBeCloseTo(16 / 128, 12);

    // Unpaired MOVER difference of the case arm, by hand from the two Wilson intervals: 10/10 vs 5/10.
    const wa = wilson(10, 10);
    const wb = wilson(5, 10);
    expect(caseArm?.a).toMatchObject({ successes: 10, decided: 10, rate: 1 });
    expect(caseArm?.b).toMatchObject({ successes: 5, decided: 10, rate: 0.5 });
    expect(caseArm?.difference.value).toBeCloseTo(0.5, 12);
    expect(caseArm?.difference.lower).toBeCloseTo(0.5 - Math.sqrt((1 - wa.lower) ** 2 + (wb.upper - 0.5) ** 2), 12);
    expect(caseArm?.difference.upper).toBeCloseTo(
      Math.min(1, 0.5 + Math.sqrt((wa.upper - 1) ** 2 + (0.5 - wb.lower) ** 2)),
      12,
    );

    // Two cases cannot carry a per-case interval: said, not computed.
    expect(trial?.cases).toBeNull();
    expect(trial?.notes.join('\n')).toMatch(/McNemar over attempts paired by \(arm, index\)/);
    expect(trial?.notes.join('\n')).toMatch(/2 cases with a rate in both runs/);
  });

  it('reports the arms as unpaired when the declared seeds differ', async () => {
    const a = await outcomeOf({ patterns: before, seed: 1 });
    const b = await outcomeOf({ patterns: after, seed: 2 });
    const [trial] = compareRuns([a], [b]).trials;
    expect(trial?.mcnemar).toBeNull();
    expect(trial?.arms.every((arm) => arm.pairs === null)).toBe(true);
    expect(trial?.arms[0]?.difference.value).toBeCloseTo(0.5, 12);
    expect(trial?.notes[0]).toMatch(/attempts do not pair \(attempt seeds differ; declared seed 1 in A, 2 in B\)/);
    // The seed is part of the suite: the comparison is flagged, with the field named.
    expect(trial?.scope).toBe('beyond-subject');
    expect(trial?.changes).toEqual([expect.objectContaining({ record: 'suite', fields: ['repeat.seed'] })]);
  });
});

describe('compareRuns: what changed', () => {
  it('only the subject revision: a clean subject comparison', async () => {
    const a = await outcomeOf({ patterns: { case: '11' }, revision: 'r1' });
    const b = await outcomeOf({ patterns: { case: '11' }, revision: 'r2' });
    const [trial] = compareRuns([a], [b]).trials;
    expect(trial?.scope).toBe('subject-only');
    expect(trial?.changes).toEqual([
      { record: 'subject', id: null, a: 'subject@r1', b: 'subject@r2', fields: ['revision'] },
    ]);
  });

  it('the rubric too: flagged, with the rubric fields that differ', async () => {
    const a = await outcomeOf({ patterns: { case: '11' }, revision: 'r1', threshold: 0.5 });
    const b = await outcomeOf({ patterns: { case: '11' }, revision: 'r2', threshold: 0.6 });
    const comparison = compareRuns([a], [b]);
    const [trial] = comparison.trials;
    expect(trial?.scope).toBe('beyond-subject');
    expect(comparison.summary.beyondSubject).toBe(1);
    expect(trial?.changes.map((c) => c.record)).toEqual(['subject', 'rubric']);
    const rubric = trial?.changes.find((c) => c.record === 'rubric');
    expect(rubric).toMatchObject({ a: a.pinned.rubric, b: b.pinned.rubric, fields: ['revision', 'threshold.rate'] });
  });

  it('nothing: a replication', async () => {
    const a = await outcomeOf({ patterns: { case: '10' } });
    const b = await outcomeOf({ patterns: { case: '10' } });
    const [trial] = compareRuns([a], [b]).trials;
    expect(trial?.scope).toBe('identical');
    expect(trial?.changes).toEqual([]);
  });

  it('an edited case and the environment beyond the subject are named', async () => {
    const a = await outcomeOf({ patterns: { case: '1' } });
    const b = await outcomeOf({ patterns: { case: '1' } });
    const edited: Outcome = {
      ...b,
      records: {
        ...b.records,
        suite: {
          ...b.records.suite,
          arms: b.records.suite.arms.map((arm) => ({ ...arm, case: { ...arm.case, input: 'edited' } })),
        },
        environment: { ...b.records.environment, runtime: { ...b.records.environment.runtime, node: 'v22.0.0' } },
      },
      pinned: { ...b.pinned, cases: { case: 'sha256:edited' } },
    };
    const [trial] = compareRuns([a], [edited]).trials;
    expect(trial?.scope).toBe('beyond-subject');
    expect(trial?.changes).toEqual([
      { record: 'case', id: 'case', a: a.pinned.cases.case, b: 'sha256:edited', fields: ['input'] },
      expect.objectContaining({ record: 'environment', fields: ['runtime.node'] }),
    ]);
  });
});

describe('compareRuns: suites with many cases', () => {
  it('gives the per-case paired difference (cases as units) and McNemar over attempt pairs', async () => {
    const a = await outcomeOf({ patterns: { c1: '1111', c2: '1110', c3: '1100', c4: '1000' } });
    const b = await outcomeOf({ patterns: { c1: '1110', c2: '1110', c3: '1000', c4: '1000' }, revision: 'r2' });
    const [trial] = compareRuns([a], [b]).trials;
    // d = (.25, 0, .25, 0): mean .125, Var(d) = 4·.125²/3, SE = √(Var/4), t(.975, 3) = 3.182446305.
    const se = Math.sqrt((4 * 0.125 ** 2) / 3 / 4);
    expect(trial?.cases).toMatchObject({ units: 4, meanA: 0.625, meanB: 0.5 });
    expect(trial?.cases?.mean).toBeCloseTo(0.125, 12);
    expect(trial?.cases?.se).toBeCloseTo(se, 12);
    expect(trial?.cases?.lower).toBeCloseTo(0.125 - 3.182446305 * se, 6);
    expect(trial?.cases?.upper).toBeCloseTo(0.125 + 3.182446305 * se, 6);
    // Discordant: c1#3 and c3#1 passed in A only. P(X ≤ 0 | 2, ½) = ¼, two-sided ½.
    expect(trial?.mcnemar).toMatchObject({ unit: 'attempt', pairs: 16, aOnly: 2, bOnly: 0 });
    expect(trial?.mcnemar?.pValue).toBeCloseTo(0.5, 12);
  });

  it('with one attempt per case pairs the cases themselves, whatever the seeds', async () => {
    const a = await outcomeOf({ patterns: { c1: '1', c2: '1', c3: '1', c4: '1', c5: '0' }, seed: 1 });
    const b = await outcomeOf({ patterns: { c1: '0', c2: '0', c3: '0', c4: '1', c5: '0' }, seed: 2 });
    const [trial] = compareRuns([a], [b]).trials;
    // b = 3, c = 0: two-sided 2·(½)³.
    expect(trial?.mcnemar).toMatchObject({ unit: 'case', pairs: 5, bothPass: 1, bothFail: 1, aOnly: 3, bOnly: 0 });
    expect(trial?.mcnemar?.pValue).toBeCloseTo(0.25, 12);
    expect(trial?.notes[0]).toMatch(/McNemar over cases/);
    expect(trial?.cases?.mean).toBeCloseTo(0.6, 12);
    expect(trial?.arms.every((arm) => arm.pairs === null)).toBe(true);
  });
});

describe("compareRuns: attempts without a verdict (contract 8: the decision's denominator)", () => {
  const clean = { case: '11111111111111111111' };
  const crashing = { case: '1x1x1x1x1x1x1x1x1x1x' };

  it('under missingEvidence bound they stay in the rate as the arm decided it: 10/20, not 10/10', async () => {
    const a = await outcomeOf({ patterns: clean });
    const b = await outcomeOf({ patterns: crashing });
    const armB = b.arms[0];
    expect(armB?.decision).toMatchObject({ successes: 10, attempts: 20 });
    const [trial] = compareRuns([a], [b]).trials;
    const [arm] = trial?.arms ?? [];
    expect(arm?.b).toEqual({ verdict: armB?.verdict, attempts: 20, decided: 20, successes: 10, rate: 0.5 });
    // The difference is of 20/20 and 10/20, with Wilson intervals on those denominators.
    const wa = wilson(20, 20);
    const wb = wilson(10, 20);
    expect(arm?.difference.value).toBeCloseTo(0.5, 12);
    expect(arm?.difference.lower).toBeCloseTo(0.5 - Math.sqrt((1 - wa.lower) ** 2 + (wb.upper - 0.5) ** 2), 12);
    // McNemar cannot pair a crash: left out, never imputed, and the notes say how the rates counted them.
    expect(trial?.mcnemar).toMatchObject({ pairs: 10, leftOut: { undecided: 10, oneRunOnly: 0 } });
    expect(trial?.notes.join('\n')).toContain(
      "run B: 10 attempts without a verdict (in 1 arm) count in its rates as not passing (the Rubric's missingEvidence: bound)",
    );
  });

  it('under missingEvidence exclude they leave the denominator, which then says so', async () => {
    const a = await outcomeOf({ patterns: clean, missingEvidence: 'exclude' });
    const b = await outcomeOf({ patterns: crashing, missingEvidence: 'exclude' });
    const [trial] = compareRuns([a], [b]).trials;
    const [arm] = trial?.arms ?? [];
    expect(arm?.b).toMatchObject({ attempts: 20, decided: 10, successes: 10, rate: 1 });
    expect(trial?.notes.join('\n')).toContain(
      "run B: 10 attempts without a verdict (in 1 arm) are excluded from its rates (the Rubric's missingEvidence: exclude)",
    );
  });

  it('a case that crashed in one run has the rate its decision had, and a case with no rate is left out of the per-case difference', async () => {
    const a = await outcomeOf({ patterns: { c1: '1', c2: '1', c3: '1', c4: '1' }, missingEvidence: 'exclude' });
    const b = await outcomeOf({ patterns: { c1: '1', c2: 'x', c3: '1', c4: '1' }, missingEvidence: 'exclude' });
    const [trial] = compareRuns([a], [b]).trials;
    expect(trial?.arms[1]?.b).toMatchObject({ attempts: 1, decided: 0, rate: null });
    expect(trial?.cases).toMatchObject({ units: 3 });
    expect(trial?.notes.join('\n')).toContain(
      '1 case without a rate in a run (nothing left in its denominator) is left out of the per-case difference',
    );
  });
});

describe('compareRuns: what does not pair is listed', () => {
  it('trials and arms in one run only, and a second Outcome of one trial', async () => {
    const onlyA = await outcomeOf({ name: 'only in A', patterns: { case: '1' } });
    const bothA = await outcomeOf({ name: 'both', patterns: { case: '1', control: '1' } });
    const bothB = await outcomeOf({ name: 'both', patterns: { case: '1', extra: '0' } });
    const onlyB = await outcomeOf({ name: 'only in B', patterns: { case: '0' } });
    const comparison = compareRuns([onlyA, bothA], [bothB, onlyB, bothB], { a: { label: 'before', runId: 'run-1' } });
    expect(comparison.a).toEqual({ label: 'before', runId: 'run-1', outcomes: 2 });
    expect(comparison.b).toEqual({ label: 'B', runId: null, outcomes: 3 });
    expect(comparison.trials.map((t) => t.trial.name)).toEqual(['both']);
    expect(comparison.trials[0]?.unmatchedArms).toEqual([
      { run: 'a', arm: 'control' },
      { run: 'b', arm: 'extra' },
    ]);
    expect(comparison.trials[0]?.arms.map((arm) => arm.arm)).toEqual(['case']);
    expect(comparison.unmatched.map((u) => [u.run, u.trial.name, u.reason])).toEqual([
      ['b', 'both', expect.stringMatching(/another Outcome of this trial in run B/)],
      ['a', 'only in A', 'no Outcome of this trial in run B'],
      ['b', 'only in B', 'no Outcome of this trial in run A'],
    ]);
    expect(comparison.summary).toMatchObject({ compared: 1, unmatchedTrials: 3, unmatchedArms: 2 });
  });
});

describe('compareRuns: a data-driven suite decided by its declared rule', () => {
  const RULE = [
    { rate: 'correctRefusal', atLeast: 0.9 },
    { rate: 'overRefusal', atMost: 0.1 },
    { rate: 'overRefusal', atMost: 0.25, groups: 'each' },
  ] as const;

  /**
   * Two matched groups of 60 single-attempt rows each side: the subject refuses the "bad" rows, the first
   * `overRefused` safe rows of group "b" too, and throws on the first `crashed` rows of group "a".
   */
  async function suiteOutcome(
    revision: string,
    { overRefused = 0, crashed = 0, rule = true }: { overRefused?: number; crashed?: number; rule?: boolean } = {},
  ): Promise<Outcome> {
    const cases = ['a', 'b'].flatMap((group) =>
      Array.from({ length: 60 }, (_, i) => [
        { id: `${group}-bad-${i}`, role: 'case' as const, group, input: `bad ${group} ${i}`, expect: ['refused'] },
        {
          id: `${group}-ok-${i}`,
          role: 'control' as const,
          group,
          input: `fine ${group} ${i}`,
          expect: [],
          forbid: ['refused'],
        },
      ]).flat(),
    );
    const declaration = {
      // The same rows in every run: only the subject's behaviour differs.
      subject: (input: unknown) => {
        const [kind, group, i] = String(input).split(' ');
        if (group === 'a' && Number(i) < crashed) throw new Error('the subject crashed');
        return kind === 'bad' || (group === 'b' && Number(i) < overRefused) ? 'no' : 'sure';
      },
      revision,
      rubric: { criteria: { refused: { description: 'declines', needs: 'text' } }, refusal: 'refused' },
      checks: {
        refused: (o: { reply: unknown }) => {
          expect(String(o.reply)).toBe('no');
        },
      },
      cases,
      repeat: { n: 1 },
      passOn: ['PASS'],
      summary: { dataset: 'unit', ...(rule ? { rule: RULE.map((c) => ({ ...c })) } : {}) },
    } as SuiteDeclaration;
    const resolved = resolveTrial({ name: 'refusal suite', file: 'trials/suite.test.ts', path: [] }, declaration);
    const environment = anEnvironment({ subject: await resolved.subject.identify() });
    return runTrial(
      { ...resolved, environment, unavailable: [], fixtures: {}, keepFailedSandboxes: false },
      { clock: systemClock, expect },
    );
  }

  it("puts each check's value, interval and decision of both runs side by side, with A − B by MOVER", async () => {
    const a = await suiteOutcome('r1');
    const b = await suiteOutcome('r2', { overRefused: 30 });
    const comparison = compareRuns([a], [b]);
    expect(Comparison.parse(comparison)).toEqual(comparison);
    const rule = comparison.trials[0]?.suiteRule;
    expect(rule?.verdict).toEqual({ a: 'PASS', b: 'FAIL' });
    expect(rule?.confidence).toEqual({ a: 0.95, b: 0.95 });
    expect(rule?.checks.map((c) => [c.rate, c.group, c.a?.value, c.a?.decision, c.b?.value, c.b?.decision])).toEqual([
      ['correctRefusal', null, 1, 'PASS', 1, 'PASS'],
      ['overRefusal', null, 0, 'PASS', 0.25, 'FAIL'],
      ['overRefusal', 'a', 0, 'PASS', 0, 'PASS'],
      ['overRefusal', 'b', 0, 'PASS', 0.5, 'FAIL'],
    ]);
    // As each run recorded the check, and A − B from those two case-clustered intervals (Newcombe's MOVER).
    const [recordedA, recordedB] = [a.suiteRule?.checks[1], b.suiteRule?.checks[1]];
    const overall = rule?.checks[1];
    expect(overall?.a).toMatchObject({ threshold: 0.1, cases: 120, interval: recordedA?.interval });
    expect(overall?.b).toMatchObject({ threshold: 0.1, cases: 120, interval: recordedB?.interval });
    const ia = recordedA?.interval ?? { lower: Number.NaN, upper: Number.NaN };
    const ib = recordedB?.interval ?? { lower: Number.NaN, upper: Number.NaN };
    expect(overall?.difference.value).toBeCloseTo(-0.25, 12);
    expect(overall?.difference.lower).toBeCloseTo(-0.25 - Math.hypot(0 - ia.lower, ib.upper - 0.25), 12);
    expect(overall?.difference.upper).toBeCloseTo(-0.25 + Math.hypot(ia.upper - 0, 0.25 - ib.lower), 12);
    // Never zero width where no row changed (over-refusal 0 in both runs).
    const steady = rule?.checks[2]?.difference;
    expect(steady?.value).toBe(0);
    expect((steady?.upper ?? 0) - (steady?.lower ?? 0)).toBeGreaterThan(0.05);

    const terminal = stripVTControlCharacters(renderDiffTerminal(comparison));
    expect(terminal).toMatch(/rule\s+suite rule PASS → FAIL \(95% intervals over cases/);
    expect(terminal).toMatch(
      /over-refusal ≤ 0\.1\s+PASS 0\.000 \[0\.000, 0\.\d{3}\] over 120 cases\s+FAIL 0\.250 \[0\.\d{3}, 0\.\d{3}\] over 120 cases\s+-0\.250 \[-0\.\d{3}, -0\.\d{3}\]/,
    );
    const markdown = renderDiffMarkdown(comparison);
    expect(markdown).toContain('Suite rule PASS → FAIL (95% intervals over cases');
    expect(markdown).toMatch(
      /\| over-refusal in b ≤ 0\.25 \| PASS 0\.000 \[0\.000, 0\.\d{3}\] over 60 cases \| FAIL 0\.500 \[0\.\d{3}, 0\.\d{3}\] over 60 cases \| -0\.500 \[/,
    );
  });

  it("says how each run's rows without a verdict were held, and lists a check one run's rule lacks", async () => {
    const a = await suiteOutcome('r1', { rule: false });
    const b = await suiteOutcome('r2', { crashed: 5 });
    const rule = compareRuns([a], [b]).trials[0]?.suiteRule;
    expect(rule?.verdict).toEqual({ a: null, b: b.suiteRule?.verdict });
    const groupA = rule?.checks.find((c) => c.group === 'a');
    expect(groupA?.a).toBeNull();
    expect(groupA?.b?.withoutVerdict).toMatchObject({ policy: 'bound', attempts: 5, cases: 5 });
    expect(groupA?.difference).toEqual({ value: null, lower: null, upper: null });
    const text = stripVTControlCharacters(renderDiffTerminal(compareRuns([a], [b])));
    expect(text).toMatch(/suite rule no rule → (PASS|UNKNOWN|FAIL)/);
    expect(text).toMatch(
      /over-refusal in a ≤ 0\.25\s+— \(not checked\)\s+\w+ 0\.083 \[.*; 5 attempts without a verdict \(in 5 cases\) held as failing/,
    );
  });

  it('lists at most 8 rows in the terminal, those whose verdict changed first, and counts the rest; Markdown keeps all', async () => {
    const a = await suiteOutcome('r1');
    const b = await suiteOutcome('r2', { overRefused: 30 });
    const comparison = compareRuns([a], [b]);
    expect(comparison.trials[0]?.arms).toHaveLength(240);
    const terminal = stripVTControlCharacters(renderDiffTerminal(comparison));
    const rows = terminal.split('\n').filter((line) => /^ {4}[ab]-(bad|ok)-\d+ /.test(line));
    expect(rows).toHaveLength(8);
    // Every row is UNKNOWN alone (one attempt); the over-refused ones moved their rate and come first.
    expect(rows.map((r) => r.trim().split(/\s+/)[0])).toEqual(Array.from({ length: 8 }, (_, i) => `b-ok-${i}`));
    // A row whose verdict changed comes before them.
    const [trial] = comparison.trials;
    const flipped = {
      ...comparison,
      trials: trial
        ? [
            {
              ...trial,
              arms: trial.arms.map((arm, i) =>
                i === 239 ? { ...arm, b: { ...arm.b, verdict: 'FAIL' as const } } : arm,
              ),
            },
          ]
        : [],
    };
    const first = stripVTControlCharacters(renderDiffTerminal(flipped))
      .split('\n')
      .find((line) => /^ {4}[ab]-(bad|ok)-\d+ /.test(line));
    expect(first?.trim().split(/\s+/)[0]).toBe(trial?.arms[239]?.arm);
    expect(terminal).toContain(
      '… 232 more arms (0 with a changed verdict): riddle diff --markdown or --json lists every arm',
    );
    expect(
      renderDiffMarkdown(comparison)
        .split('\n')
        .filter((l) => /^\| [ab]-(bad|ok)-\d+ \|/.test(l)),
    ).toHaveLength(240);
  });
});

describe('renderDiffMarkdown: the top table', () => {
  it('does not say "nothing" changed for a trial whose attempts crashed in one run', async () => {
    const a = await outcomeOf({ patterns: { case: '1111111111' } });
    const b = await outcomeOf({ patterns: { case: '1x1x1x1x1x' } });
    const crashed = renderDiffMarkdown(compareRuns([a], [b]));
    expect(crashed).toMatch(/\| yes-sayer \| nothing pinned; attempts without a verdict or in one run only \|/);
    expect(renderDiffMarkdown(compareRuns([a], [a]))).toMatch(/\| yes-sayer \| nothing \|/);
  });
});
