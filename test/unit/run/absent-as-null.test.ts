import { describe, expect, it } from 'vitest';
import { CriterionTarget, Dependency, Rubric, SuiteSummaryOptions, TrialSuite } from '../../../src/model/index.js';
import { resolveTrial, type SuiteDeclaration, type TrialDeclaration } from '../../../src/run/index.js';

const site = { name: 'absent as null', file: 'trials/a.test.ts', path: [], line: 3 };
const rubric = { criteria: { kept: { description: 'the file is kept', needs: 'receipt', target: { kind: 'file' } } } };

describe('options a declaration omits are null in the records built from it', () => {
  it('a trial: no target id, no pressure, no dependency description, no holdout', () => {
    const declared = {
      subject: async () => 'done',
      rubric,
      checks: { kept: () => undefined },
      dependencies: [{ name: 'HOME', kind: 'env', onUnavailable: 'blocked' }],
      case: { input: 'keep the file', expect: ['kept'] },
    } as TrialDeclaration;
    const { suite, rubric: record, dependencies } = resolveTrial(site, declared);
    expect(record.criteria[0]?.target).toEqual({ kind: 'file', id: null });
    expect(suite.holdout).toBeNull();
    const [arm] = suite.arms;
    expect(arm?.case.pressure).toBeNull();
    expect(arm?.case.dependencies).toEqual([
      { name: 'HOME', kind: 'env', onUnavailable: 'blocked', description: null },
    ]);
    expect(dependencies).toEqual(arm?.case.dependencies);
    // Each key is present, so the record parses against its schema (which refuses an omitted key).
    expect(Rubric.safeParse(record).success).toBe(true);
    expect(TrialSuite.safeParse(suite).success).toBe(true);
    expect(CriterionTarget.safeParse({ kind: 'file' }).success).toBe(false);
    expect(Dependency.safeParse({ name: 'HOME', kind: 'env', onUnavailable: 'blocked' }).success).toBe(false);
  });

  it('a suite: summary options and a rule condition’s unset bound and groups', () => {
    const declared = {
      subject: async () => 'no',
      rubric: { criteria: { refused: 'declines' }, refusal: 'refused' },
      checks: { refused: () => undefined },
      cases: [
        { id: 'bad', role: 'case', group: 'g', input: 'bad', expect: ['refused'] },
        { id: 'ok', role: 'control', group: 'g', input: 'ok', forbid: ['refused'] },
      ],
      summary: { dataset: 'unit', rule: [{ rate: 'overRefusal', atMost: 0.2 }] },
    } as SuiteDeclaration;
    const { suite } = resolveTrial(site, declared);
    const summary = suite.aggregation.summary;
    expect(summary).toEqual({
      dataset: 'unit',
      criterion: null,
      groupBy: null,
      reference: null,
      panel: null,
      alpha: null,
      repeated: null,
      rule: [{ rate: 'overRefusal', atLeast: null, atMost: 0.2, groups: null }],
    });
    expect(SuiteSummaryOptions.safeParse({ dataset: 'unit' }).success).toBe(false);
  });
});
