import { afterEach, describe, expect, it, vi } from 'vitest';
import { Rubric, TrialSuite } from '../../../src/model/index.js';
import { resolveTrial, TrialDeclarationError, type TrialDeclaration } from '../../../src/run/index.js';
import { declarationProblems, shapeKey, TrialDeclarationSchema } from '../../../src/run/declaration-schema.js';

/** The bench's one-attempt trial: declared in a loop, each with closures of its own. */
const declared = () =>
  ({
    subject: (input: unknown) => `Sure: ${String(input)}`,
    revision: 'alike@1',
    rubric: { criteria: { answers: { description: 'answers', needs: 'text' as const } } },
    checks: { answers: () => undefined },
    case: { input: 'a', expect: ['answers'] },
    repeat: { n: 1, stop: 'fixed' as const },
  }) satisfies TrialDeclaration;

const site = (name: string) => ({ name, file: 'alike.test.ts', path: [], line: 3 });

afterEach(() => {
  vi.restoreAllMocks();
});

describe('declarations and records checked once per shape', () => {
  it('parses the declaration and its records once for trials declared alike but for their names', () => {
    const declaration = vi.spyOn(TrialDeclarationSchema, 'safeParse');
    const suite = vi.spyOn(TrialSuite, 'safeParse');
    const rubric = vi.spyOn(Rubric, 'safeParse');
    const first = resolveTrial(site('shape once 0'), declared());
    const parsedFirst = [declaration.mock.calls.length, suite.mock.calls.length, rubric.mock.calls.length];
    expect(parsedFirst.every((calls) => calls <= 1)).toBe(true);
    const later = [1, 2, 3].map((i) => resolveTrial(site(`shape once ${i}`), declared()));
    expect([declaration.mock.calls.length, suite.mock.calls.length, rubric.mock.calls.length]).toEqual(parsedFirst);
    // The same records as resolving anew would build.
    for (const [i, resolved] of later.entries()) {
      expect(resolved.suite).toEqual({
        ...first.suite,
        id: `alike.test.ts > shape once ${i + 1}`,
        name: `shape once ${i + 1}`,
      });
      expect(resolved.rubric).toEqual({ ...first.rubric, id: `shape once ${i + 1} rubric` });
    }
  });

  it('still refuses a declaration that differs from an accepted one in any value its schema checks', () => {
    expect(declarationProblems(declared())).toEqual([]);
    const refused = (change: (d: Record<string, unknown>) => void) => {
      const d: Record<string, unknown> = declared();
      change(d);
      return declarationProblems(d);
    };
    expect(refused((d) => (d.repeat = { n: 0, stop: 'fixed' }))).not.toEqual([]);
    expect(refused((d) => (d.repeat = { n: Number.NaN, stop: 'fixed' }))).not.toEqual([]);
    expect(refused((d) => (d.revision = ''))).not.toEqual([]);
    expect(refused((d) => (d.checks = { answers: 'not a function' }))).not.toEqual([]);
    expect(refused((d) => (d.subject = undefined))).not.toEqual([]);
    // zod lists a record's members by Reflect.ownKeys: a symbol-named check is refused, and never shares a key.
    expect(refused((d) => (d.checks = { answers: () => undefined, [Symbol('x')]: () => undefined }))).not.toEqual([]);
  });

  it('still refuses a trial whose name its records refuse, after records alike were accepted', () => {
    resolveTrial(site('named'), declared());
    expect(() => resolveTrial(site(''), declared())).toThrow(TrialDeclarationError);
  });
});

describe('shapeKey', () => {
  it('tells apart values the schemas tell apart', () => {
    const keys = [
      0,
      -0,
      Number.NaN,
      Number.POSITIVE_INFINITY,
      null,
      undefined,
      '1',
      1,
      true,
      'T',
      () => 1,
      {},
      [],
      { a: undefined },
      { a: null },
      Object.create(null),
      [undefined],
      ['a', 'b'],
      ['a","b'],
      { 'a":"b': 1 },
      { a: { b: 1 } },
      { 'a":{"b': 1 },
    ].map((value) => shapeKey(value));
    expect(keys.every((key) => key !== null)).toBe(true);
    expect(new Set(keys).size).toBe(keys.length);
    expect(shapeKey({ f: () => 1, g: [1, 'x'] })).toBe(shapeKey({ f: () => 2, g: [1, 'x'] }));
  });

  it('gives no key for what it cannot name exactly', () => {
    class Box {
      a = 1;
    }
    const hidden = {};
    Object.defineProperty(hidden, 'a', { value: 1, enumerable: false });
    const extra = Object.assign([1], { note: 'x' });
    for (const value of [
      new Box(),
      new Date(0),
      new Map(),
      1n,
      Symbol('s'),
      { [Symbol('s')]: 1 },
      hidden,
      [1, , 2],
      extra,
      { deep: 'x'.repeat(1 << 17) },
    ])
      expect(shapeKey({ value })).toBeNull();
    let deep: unknown = 1;
    for (let i = 0; i < 100; i += 1) deep = [deep];
    expect(shapeKey(deep)).toBeNull();
  });

  it('stops at its bound on a long array of short values', () => {
    expect(shapeKey({ values: Array.from({ length: 1_000_000 }, (_, i) => i % 10) })).toBeNull();
  });

  it('writes the members named apart, at the top level only, as one token', () => {
    expect(shapeKey({ id: 'a', x: { id: 'b' } }, ['id'])).toBe(shapeKey({ id: 'c', x: { id: 'b' } }, ['id']));
    expect(shapeKey({ id: 'a', x: { id: 'b' } }, ['id'])).not.toBe(shapeKey({ id: 'a', x: { id: 'c' } }, ['id']));
  });
});
