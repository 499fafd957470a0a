import { stripVTControlCharacters } from 'node:util';
import { describe, expect, it } from 'vitest';
import type { Outcome } from '../../../src/model/index.js';
import { renderTerminal } from '../../../src/report/index.js';
import { exampleOutcomes } from './example-run.js';

/** The trial's own line in the terminal summary (its name's line), without colours: CI may turn them on. */
const trialLine = (outcome: Outcome) =>
  stripVTControlCharacters(renderTerminal([outcome], []))
    .split('\n')
    .find((line) => line.includes(outcome.trial.name)) ?? '';

describe('the terminal’s line of a trial whose test ends otherwise than its verdict says', () => {
  const [base] = exampleOutcomes();
  const as = (verdict: Outcome['judgment']['verdict'], testOutcome: Outcome['judgment']['testOutcome']) =>
    ({ ...base, judgment: { ...base?.judgment, verdict, testOutcome } }) as Outcome;

  it('says a PASS fails its test when a passOn without PASS, or a policy changed after results were seen, fails it', () => {
    expect(trialLine(as('PASS', 'fail'))).toMatch(/✓ PASS .*\(test fails: /);
    const changed = {
      ...as('PASS', 'pass'),
      registration: { status: 'changed', policy: 'b', registeredPolicy: 'a', earlierOutcome: 'sha256:e' },
    } as Outcome;
    expect(trialLine(changed)).toMatch(/✓ PASS .*\(test fails: the declared policy changed after results were seen\)/);
  });

  it('says a verdict other than PASS passes its test where passOn allows it, and says nothing where both agree', () => {
    expect(trialLine(as('UNKNOWN', 'pass'))).toMatch(/\? UNKNOWN .*\(test passes: passOn allows it\)/);
    expect(trialLine(as('PASS', 'pass'))).not.toMatch(/\(test/);
    expect(trialLine(as('FAIL', 'fail'))).not.toMatch(/\(test/);
    expect(trialLine(as('UNKNOWN', 'skip'))).toMatch(/\(skipped\)/);
  });
});
