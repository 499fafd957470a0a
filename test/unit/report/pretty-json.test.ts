import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { storedOutcomes } from '../../support/stored-outcomes.js';
import { prettyJsonChunks } from '../../../src/report/pretty-json.js';

const pretty = (value: unknown) => [...prettyJsonChunks(value)].join('');
const stringify = (value: unknown) => JSON.stringify(value, null, 2) ?? '';
const expectSame = (value: unknown) => expect(pretty(value)).toBe(stringify(value));

describe('prettyJsonChunks writes what JSON.stringify writes, a chunk at a time', () => {
  it('for edge cases: empty and nested containers, members without JSON, toJSON, non-finite numbers, escapes', () => {
    const values: unknown[] = [
      {},
      [],
      { a: [], b: {}, c: [[], [{}]], d: { e: { f: { g: [1, { h: [] }] } } } },
      { skipped: undefined, fn: () => 1, sym: Symbol('s'), kept: null },
      [undefined, () => 1, Symbol('s'), 1],
      { when: new Date(Date.UTC(2026, 10, 30)), nested: [{ when: new Date(0) }] },
      { custom: { toJSON: (key: string) => `key ${key}` }, list: [{ toJSON: (key: string) => ({ at: key }) }] },
      { inf: Number.POSITIVE_INFINITY, nan: Number.NaN, neg: -0 },
      { 'quote"d': 'line\nbreak', '\u001b[31m': '\ud800 lone 😀', 10: 'ten', 2: 'two' },
      Object.assign(Object.create(null), { b: 1, a: [1, 2] }),
      { boxed: [Object('text'), Object(2)] },
      'plain',
      42,
      null,
    ];
    for (const value of values) expectSame(value);
    expect([...prettyJsonChunks(undefined)]).toEqual([]);
    expect([...prettyJsonChunks(() => 1)]).toEqual([]);
  });

  it('for long arrays at any depth, seeded random records, and chunks far smaller than the whole', () => {
    let seed = 7;
    const random = () => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed / 2147483648;
    };
    const leaf = () => [1.5, 'text', null, true, undefined, '😀\n"', -3][Math.floor(random() * 7)];
    const make = (depth: number): unknown => {
      const pick = random();
      if (depth > 4 || pick < 0.3) return leaf();
      if (pick < 0.55)
        return Array.from({ length: Math.floor(random() * (random() < 0.1 ? 200 : 5)) }, () => make(depth + 1));
      const out: Record<string, unknown> = {};
      for (let i = Math.floor(random() * 5); i > 0; i -= 1) out[`k${Math.floor(random() * 9)}`] = make(depth + 1);
      return out;
    };
    for (let i = 0; i < 300; i += 1) expectSame(make(0));
    const outcomeLike = {
      cost: { attempts: Array.from({ length: 20_000 }, (_, index) => ({ arm: 'case', index, usd: null, tokens: 0 })) },
      execution: { order: Array.from({ length: 20_000 }, (_, index) => `case#${index}`) },
    };
    const chunks = [...prettyJsonChunks(outcomeLike)];
    expect(chunks.join('')).toBe(stringify(outcomeLike));
    expect(chunks.length).toBeGreaterThan(10);
    expect(Math.max(...chunks.map((c) => c.length))).toBeLessThan(stringify(outcomeLike).length / 10);
  });

  it('for long arrays and maps deep in objects (a suite record, its pinned Cases): chunks far smaller than the whole', () => {
    const rows = Array.from({ length: 20_000 }, (_, index) => ({
      id: `row-${index}`,
      input: `row ${index}`,
      expect: ['a'],
    }));
    const suiteLike = { records: { suite: { name: 'rows', arms: rows, repeat: { n: 2 } }, rubric: { r: 1 } } };
    const deeper = { a: { b: { c: { d: { list: rows } } } }, other: [{ short: [1, 2] }] };
    const pinned = {
      pinned: { cases: Object.fromEntries(rows.map((row) => [row.id, `sha256:${row.input.padEnd(64, '0')}`])) },
    };
    for (const value of [suiteLike, deeper, pinned]) {
      const chunks = [...prettyJsonChunks(value)];
      expect(chunks.join('')).toBe(stringify(value));
      expect(Math.max(...chunks.map((c) => c.length))).toBeLessThan(stringify(value).length / 10);
    }
  });

  it('for every stored Outcome of every version', () => {
    const files = storedOutcomes();
    expect(files.length).toBeGreaterThan(5);
    for (const file of files) {
      expectSame(JSON.parse(readFileSync(file, 'utf8')));
    }
  });
});
