import { describe, expect, it } from 'vitest';
import { jsonProblem, systemClock } from '../../../src/model/index.js';
import { observeAttempt } from '../../../src/observe/attempt.js';
import { functionSubject } from '../../../src/observe/function-subject.js';
import { aCase } from '../builders.js';

const observeWith = (run: () => unknown, timeoutMs = 1000) =>
  observeAttempt({
    arm: 'case',
    attempt: 0,
    seed: 1,
    case: aCase({ stop: { timeoutMs, maxOutputBytes: 1024, maxRounds: 1 } }),
    subject: functionSubject({ name: 'probe', revision: 'probe@1', run: run as never }),
    tools: [],
    clock: systemClock,
  });

describe('what a subject hands back that riddle cannot record', () => {
  const circular: Record<string, unknown> = { a: 1 };
  circular.self = circular;
  let deep: unknown = 'bottom';
  for (let i = 0; i < 20_000; i += 1) deep = { deep };
  const cases: [string, () => unknown, RegExp][] = [
    ['a BigInt', () => ({ n: 10n }), /reply\.n is the BigInt 10n/],
    ['Infinity in a list', () => ({ items: [1, Number.POSITIVE_INFINITY] }), /reply\.items\[1\] is Infinity/],
    ['NaN', () => Number.NaN, /reply is NaN/],
    [
      'a toJSON that throws',
      () => ({
        toJSON: () => {
          throw new Error('no JSON here');
        },
      }),
      /reply\.toJSON\(\) threw: no JSON here/,
    ],
    ['a function member', () => ({ f: () => 1 }), /reply\.f is a function/],
    ['a Symbol', () => Symbol('s'), /reply is a Symbol/],
    ['a Map', () => new Map([['a', 1]]), /reply is a Map, which JSON writes as \{\}/],
    ['a cycle', () => circular, /reply\.self refers back to an object that holds it/],
    ['20,000 levels', () => deep, /nests deeper than 512 levels/],
    [
      'a getter that throws',
      () => ({
        get boom() {
          throw new Error('getter exploded');
        },
      }),
      /reply could not be read: getter exploded/,
    ],
    ['a promise inside', () => ({ later: Promise.resolve(1) }), /reply\.later is a promise/],
    [
      'a claim of an unknown action',
      () => ({ reply: 'done', claims: [{ action: 'removed', target: 'a', text: 't' }] }),
      /claims\[0\]\.action is "removed", not one of created, modified/,
    ],
    [
      'a claim without its text',
      () => ({ reply: 'done', claims: [{ action: 'deleted', target: 'a', text: null }] }),
      /claims\[0\]\.text is not a string/,
    ],
    ['claims that are no list', () => ({ reply: 'done', claims: 'all of them' }), /claims is a string, not a list/],
  ];
  for (const [what, run, says] of cases)
    it(`${what}: the subject's error, its round kept with a null reply`, async () => {
      const observed = await observeWith(run);
      expect(observed.status).toBe('subject_error');
      expect(observed.error?.where).toBe('subject probe');
      expect(observed.error?.message).toMatch(/^the subject's answer cannot be recorded: /);
      expect(observed.error?.message).toMatch(says);
      expect(observed.observation?.rounds.map((r) => r.reply)).toEqual([null]);
    });

  it('records a subject that acts and answers nothing as replying null, and class instances and Dates as JSON writes them', async () => {
    const nothing = await observeWith(() => undefined);
    expect(nothing.status).toBe('completed');
    expect(nothing.observation?.rounds[0]?.reply).toBeNull();
    expect(jsonProblem({ at: new Date(0), gone: undefined, nested: [{ a: null, b: true }] }, 'reply')).toBeNull();
    class Answer {
      constructor(readonly text: string) {}
    }
    expect(jsonProblem(new Answer('x'), 'reply')).toBeNull();
  });

  it('a subject that never yields past its budget is over budget, as one that waits is', async () => {
    const observed = await observeWith(() => {
      const until = performance.now() + 60;
      while (performance.now() < until);
      return 'done';
    }, 20);
    expect(observed).toMatchObject({
      status: 'subject_error',
      error: { message: "exceeded the case's budget of 20 ms" },
    });
  });

  it('a thrown value whose conversion to text throws is still the subject’s error', async () => {
    const hostile = new Proxy(
      {},
      {
        get: () => {
          throw new Error('no');
        },
        ownKeys: () => {
          throw new Error('no');
        },
      },
    );
    const observed = await observeWith(() => {
      throw hostile;
    });
    expect(observed.status).toBe('subject_error');
    expect(observed.error?.message).toBe('a thrown value that cannot be shown as text');
  });
});

describe('a subject that changes what it is given', () => {
  it('changes its own copy: the Case, the next attempt’s input and the rounds kept stay as they were', async () => {
    const input = { msg: 'go', list: [1] };
    const kase = aCase({ input, followUps: ['again'], stop: { timeoutMs: 1000, maxOutputBytes: 1024, maxRounds: 2 } });
    const run = (given: { msg?: string; list?: number[] }, context: { history: { reply: unknown }[] }) => {
      const seen = given.msg ?? given;
      if (typeof given === 'object') {
        given.msg = 'HACKED';
        given.list?.push(2);
      }
      for (const round of context.history) round.reply = 'rewritten';
      return seen;
    };
    const observeOnce = () =>
      observeAttempt({
        arm: 'case',
        attempt: 0,
        seed: 1,
        case: kase,
        subject: functionSubject({ name: 'probe', revision: 'probe@1', run: run as never }),
        tools: [],
        clock: systemClock,
      });
    const first = await observeOnce();
    const second = await observeOnce();
    expect(input).toEqual({ msg: 'go', list: [1] });
    for (const observed of [first, second])
      expect(observed.observation?.rounds.map((r) => [r.input, r.reply])).toEqual([
        [{ msg: 'go', list: [1] }, 'go'],
        ['again', 'again'],
      ]);
  });
});

describe('a subject that throws an error of megabytes', () => {
  it('keeps its message as long as the Case keeps output, saying how much more there was', async () => {
    const observed = await observeWith(() => {
      throw new Error('x'.repeat(3_000_000));
    });
    expect(observed.status).toBe('subject_error');
    expect(observed.error?.message).toBe(`${'x'.repeat(1024)}… (2998976 more characters)`);
  });
});

describe('a subject that throws what is not an Error, or an Error without a message', () => {
  it('is told by what it threw, not "[object Object]" or nothing', async () => {
    const thrown = async (value: unknown) => (await observeWith(() => Promise.reject(value))).error?.message;
    expect(await thrown({ code: 42, why: 'quota' })).toBe('a thrown Object: {"code":42,"why":"quota"}');
    expect(await thrown(new TypeError(''))).toBe('TypeError (with no message)');
    expect(await thrown('a plain string')).toBe('a plain string');
    expect(await thrown(null)).toBe('null');
  });
});
