import { existsSync, mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { TestModule } from 'vitest/node';
import { describe, expect, it } from 'vitest';
import { ARMS_IN_FILE, carriedOutcome } from '../../../src/vitest/meta.js';
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

  it('carries an Outcome of many arms whose attempts are in a file through a file beside them, read once and removed', () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'riddle-transit-'));
    const attemptsFile = path.join(dir, 'rows-0123456789ab.attempts.jsonl');
    writeFileSync(attemptsFile, '');
    // A suite's Outcome: the first example Outcome with its arm repeated past the bound, its attempts streamed.
    const arm = first.arms[0];
    if (!arm) throw new Error('the example Outcome has no arm');
    const arms = Array.from({ length: ARMS_IN_FILE + 1 }, (_, i) => ({
      ...arm,
      arm: `row-${i}`,
      reason: `row ${i} < τ`,
    }));
    const large = { outcome: { ...first, arms, attemptsFile }, leftOut: null };
    const carried = carriedOutcome(large);
    expect(carried.length).toBeLessThan(400);
    expect(readdirSync(dir).sort()).toEqual([
      'rows-0123456789ab.attempts.jsonl',
      'rows-0123456789ab.outcome-in-transit.jsonl',
    ]);
    // Fewer arms, or attempts not in a file: the text itself.
    const few = { outcome: { ...first, arms: arms.slice(0, ARMS_IN_FILE), attemptsFile }, leftOut: null };
    expect(JSON.parse(carriedOutcome(few))).toEqual(few);
    const inline = { outcome: { ...first, arms, attemptsFile: null }, leftOut: null };
    expect(JSON.parse(carriedOutcome(inline))).toEqual(inline);

    const collected = collectOutcomes([
      moduleOf([{ name: first.trial.name, meta: { riddle: { trial: first.trial.name, outcome: carried } } }]),
    ]);
    expect(collected.missing).toEqual([]);
    expect(collected.outcomes).toEqual([large]);
    expect(existsSync(path.join(dir, 'rows-0123456789ab.outcome-in-transit.jsonl'))).toBe(false);
    // A cut-short trial's Outcome (moved into its suite's meta as it was carried) is read the same way.
    const cutShort = carriedOutcome(large);
    const fromSuite = collectOutcomes([
      moduleOf([{ name: first.trial.name, meta: { riddle: { trial: first.trial.name } } }], {
        riddleCutShort: [cutShort],
      }),
    ]);
    expect(fromSuite.outcomes).toEqual([large]);
    // Read again (its file gone): the trial is missing, and the reason names the file.
    const again = collectOutcomes([
      moduleOf([{ name: first.trial.name, meta: { riddle: { trial: first.trial.name, outcome: carried } } }]),
    ]);
    expect(again.outcomes).toEqual([]);
    expect(again.missing).toEqual([
      {
        name: first.trial.name,
        file: 'trials/a.test.ts',
        reason: expect.stringMatching(
          /^its Outcome could not be read from .*rows-0123456789ab\.outcome-in-transit\.jsonl: ENOENT/,
        ),
      },
    ]);
  });
});
