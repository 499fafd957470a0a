import { describe, expect, it } from 'vitest';
import { gatherFindings, mechanicalEvaluator, type SoftAssertions } from '../../../src/evaluate/index.js';
import { resolveTrial, runTrial } from '../../../src/run/index.js';
import { softAssertionsOf } from '../../../src/vitest/soft-assertions.js';
import { anEnvironment } from '../builders.js';
import { criterion, observation, rubric, testCase } from '../evaluate/helpers.js';

const judge = (checks: Parameters<typeof mechanicalEvaluator>[0]['checks'], softAssertions: SoftAssertions) =>
  gatherFindings({
    observation: observation({ reply: 'bad' }),
    case: testCase(['good', 'other']),
    arm: 'case',
    attempt: 0,
    rubric: rubric(criterion('good', { needs: 'text' }), criterion('other', { needs: 'text' })),
    evaluators: [mechanicalEvaluator({ id: 'm', revision: '1', checks })],
    expect,
    softAssertions,
  });

// These tests use Vitest's real `expect.soft` on the test that runs them: were a soft failure left on it, the test
// itself would fail.
describe('expect.soft in a check', () => {
  it('makes the criterion unmet and leaves the test to the verdict, for the imported expect and the context’s', async (context) => {
    const findings = await judge(
      {
        good: (o) => {
          expect.soft(o.reply).toBe('good');
          expect.soft(o.reply).toHaveLength(4);
        },
        other: (o, ctx) => {
          (ctx.expect as typeof expect).soft(o.reply).toBe('other');
        },
      },
      softAssertionsOf(context.task),
    );
    expect(findings.map((f) => [f.criterion, f.result, f.grade])).toEqual([
      ['good', 'unmet', 'text'],
      ['other', 'unmet', 'text'],
    ]);
    expect(findings[0]?.note).toMatch(/expected 'bad' to be 'good'.*; expected 'bad' to have a length of 4/);
    expect(context.task.result?.errors ?? []).toEqual([]);
    expect(context.task.result?.state).toBe('run');
  });

  it('keeps a soft failure recorded before the check on the test, which still fails by it', async () => {
    const task = { result: { state: 'fail', errors: [{ message: 'the subject’s own' }] as unknown[] } };
    const soft = softAssertionsOf(task);
    const from = soft.count();
    task.result.errors.push({ message: 'in the check' });
    expect(soft.takeSince(from)).toEqual(['in the check']);
    expect(task.result).toEqual({ state: 'fail', errors: [{ message: 'the subject’s own' }] });
  });

  it('is an evaluator error, not anyone’s unmet, when another attempt’s check ran meanwhile', async () => {
    const recorded: string[] = [];
    const soft: SoftAssertions = {
      count: () => recorded.length,
      takeSince: (from) => recorded.splice(from),
    };
    let release = () => {};
    const slow = new Promise<void>((resolve) => (release = resolve));
    const first = judge(
      {
        good: async () => {
          await slow;
          recorded.push('expected 1 to be 2');
        },
        other: () => undefined,
      },
      soft,
    );
    const second = judge({ good: () => undefined, other: () => undefined }, soft);
    release();
    const [a, b] = await Promise.all([first, second]);
    expect(a[0]).toMatchObject({ result: 'error', note: expect.stringContaining('cannot tell whose') });
    expect(b.map((f) => f.result)).toEqual(['met', 'met']);
  });
});

describe('a trial whose checks use expect.soft', () => {
  it('judges the attempts that failed softly unmet, sequentially and at concurrency, and leaves the test to the verdict', async (context) => {
    for (const concurrency of [1, 4]) {
      const resolved = resolveTrial(
        { name: 'soft', file: 'soft.test.ts', path: [] },
        {
          subject: async (input) => {
            await new Promise((resolve) => setTimeout(resolve, 1));
            return input === 'a' ? 'bad' : 'good';
          },
          rubric: { criteria: { good: { description: 'good', needs: 'text' } } },
          checks: { good: (o) => void expect.soft(o.reply).toBe('good') },
          case: { input: 'a', expect: ['good'] },
          repeat: { n: 6, stop: 'fixed', concurrency },
        },
      );
      const outcome = await runTrial(
        { ...resolved, environment: anEnvironment(), unavailable: [], fixtures: {}, budget: null },
        { clock: { now: () => Date.now() }, expect, softAssertions: softAssertionsOf(context.task) },
      );
      expect(outcome.attempts.map((a) => a.verdict)).toEqual(Array(6).fill('FAIL'));
      expect(outcome.judgment.verdict).toBe('FAIL');
      expect(context.task.result?.errors ?? []).toEqual([]);
    }
  });
});
