import { describe, expect, it } from 'vitest';
import { executionFindings } from '../../../src/evaluate/execution-findings.js';
import { MAX_DISTINCT_PROBLEMS } from '../../../src/evaluate/problem-groups.js';

const stray = (strayErrors: string[]) => executionFindings({ strayErrors, outsideWrites: null });
const where = 'while this trial ran (not tied to one attempt)';

describe('executionFindings: errors raised outside every attempt', () => {
  it('gives one finding per distinct error, as it was said, and counts an error that repeats', () => {
    const findings = stray([
      'uncaught exception outside the awaited call: Error: a',
      'unhandled rejection: b',
      'uncaught exception outside the awaited call: Error: a',
    ]);
    expect(findings.map((f) => [f.owner, f.kind, f.message])).toEqual([
      ['harness', 'stray-error', `uncaught exception outside the awaited call: Error: a, 2 times ${where}`],
      ['harness', 'stray-error', `unhandled rejection: b, ${where}`],
    ]);
    // One id per distinct error: the same error twice was two findings with one id.
    expect(new Set(findings.map((f) => f.id)).size).toBe(2);
  });

  it('stays a few findings when every error names its request, 10,000 of them, and still counts every one', () => {
    const errors = Array.from({ length: 10_000 }, (_, k) =>
      k % 4 === 3
        ? `unhandled rejection: Error: cache ${k} evicted`
        : `unhandled rejection: Error: background job ${k} failed`,
    );
    const findings = stray(errors);
    expect(findings.map((f) => f.message)).toEqual([
      `unhandled rejection: Error: background job 0 failed, 7500 times ${where} (in 7500 messages alike but for numbers or ids)`,
      `unhandled rejection: Error: cache 3 evicted, 2500 times ${where} (in 2500 messages alike but for numbers or ids)`,
    ]);
  });

  it('gathers the least frequent forms past the limit into one finding, saying how many errors and messages', () => {
    const forms = Array.from({ length: MAX_DISTINCT_PROBLEMS + 5 }, (_, f) => `failure kind ${'x'.repeat(f + 1)}`);
    // Form 0 most frequent (3 errors), the others once or twice each.
    const errors = [
      ...forms.map((form, f) => `${form} #${f}`),
      `${forms[0]} #100`,
      `${forms[0]} #101`,
      `${forms[1]} #102`,
    ];
    const findings = stray(errors);
    expect(findings).toHaveLength(MAX_DISTINCT_PROBLEMS);
    expect(findings[0]?.message).toMatch(/^failure kind x #0, 3 times /);
    const gathered = findings.at(-1);
    expect(gathered?.message).toBe(
      `6 more errors raised outside the awaited call ${where}, in 6 other messages; the first: ${forms[9]} #9`,
    );
    expect(new Set(findings.map((f) => f.id)).size).toBe(MAX_DISTINCT_PROBLEMS);
  });
});
