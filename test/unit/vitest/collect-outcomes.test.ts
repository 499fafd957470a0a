import type { TestModule } from 'vitest/node';
import { describe, expect, it } from 'vitest';
import { collectOutcomes } from '../../../src/vitest/reporter.js';
import { exampleOutcomes } from '../report/example-run.js';

/** A test module as the reporter reads it: its suites' and tests' meta, each test's result. */
function moduleOf(tests: { name: string; meta: object }[], suiteMeta: object = {}): TestModule {
  const testCases = tests.map(({ name, meta }) => ({
    name,
    meta: () => meta,
    result: () => ({ state: 'passed' }),
    options: { mode: 'run' },
  }));
  return {
    moduleId: '/project/trials/a.test.ts',
    project: { config: { root: '/project' } },
    meta: () => suiteMeta,
    children: { allSuites: () => [], allTests: () => testCases },
  } as unknown as TestModule;
}

describe('the reporter reading Outcomes from the task tree', () => {
  const [first, second, third] = exampleOutcomes();
  if (!first || !second || !third) throw new Error('the example run has fewer than three Outcomes');
  const transit = (outcome: typeof first) => ({ outcome: { ...outcome, attemptsFile: null }, leftOut: null });

  it('reads the text this version sends, the object earlier versions sent (a merged blob), and a cut-short trial', () => {
    const collected = collectOutcomes([
      moduleOf(
        [
          {
            name: first.trial.name,
            meta: { riddle: { trial: first.trial.name, outcome: JSON.stringify(transit(first)) } },
          },
          { name: second.trial.name, meta: { riddle: { trial: second.trial.name, outcome: transit(second) } } },
          { name: third.trial.name, meta: { riddle: { trial: third.trial.name } } },
        ],
        { riddleCutShort: [JSON.stringify(transit(third))] },
      ),
    ]);
    expect(collected.missing).toEqual([]);
    expect(collected.outcomes.map((read) => read.outcome.id).sort()).toEqual([first.id, second.id, third.id].sort());
    expect(collected.outcomes.find((read) => read.outcome.id === first.id)).toEqual(transit(first));
  });

  it('lists a trial whose Outcome text is not JSON, or not of this version, as missing, naming why', () => {
    const collected = collectOutcomes([
      moduleOf([
        { name: 'cut text', meta: { riddle: { trial: 'cut text', outcome: '{"outcome": {"schema": "riddle.outc' } } },
        {
          name: 'older',
          meta: {
            riddle: {
              trial: 'older',
              outcome: JSON.stringify({ outcome: { schema: 'riddle.outcome/1' }, leftOut: null }),
            },
          },
        },
      ]),
    ]);
    expect(collected.outcomes).toEqual([]);
    expect(collected.missing.map((missing) => [missing.name, missing.reason])).toEqual([
      ['cut text', expect.stringMatching(/^not a riddle\.outcome\/\d+ Outcome/)],
      ['older', expect.stringMatching(/^not a riddle\.outcome\/\d+ Outcome/)],
    ]);
  });
});
