import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { storedOutcomes } from '../../support/stored-outcomes.js';
import { readSplitJson, SplitJsonError, splitJsonLines } from '../../../src/report/split-json.js';

const temporaryFolder = (name: string) => mkdtempSync(path.join(os.tmpdir(), `riddle-${name}-`));

/** What `splitJsonLines` writes for a value, written to a file and read back. */
function roundTrip(value: unknown, dir: string): unknown {
  const file = path.join(dir, 'value.jsonl');
  writeFileSync(file, [...splitJsonLines(value)].join(''));
  return readSplitJson(file);
}

describe('splitJsonLines and readSplitJson', () => {
  it('give back JSON.parse(JSON.stringify(value)): edge cases, long lists at any depth, seeded random values', () => {
    const dir = temporaryFolder('split-json');
    const long = (n: number) => Array.from({ length: n }, (_, i) => ({ i, text: `τ ${i}\u2028\n"` }));
    const longMap = Object.fromEntries(Array.from({ length: 70 }, (_, i) => [`k${i}`, { i, skipped: undefined }]));
    const values: unknown[] = [
      {},
      [],
      null,
      'plain',
      42,
      { a: [], b: {}, c: [[], [{}]], skipped: undefined, fn: () => 1, kept: null },
      [undefined, () => 1, Symbol('s'), 1],
      { when: new Date(Date.UTC(2026, 10, 30)), custom: { toJSON: (key: string) => `key ${key}` } },
      { inf: Number.POSITIVE_INFINITY, nan: Number.NaN, '\u001b[31m': '\ud800 lone 😀' },
      long(64),
      { top: long(200), nested: { deeper: { list: long(100), map: longMap } }, short: long(3) },
      { map: { ...longMap, __proto__: null }, list: [long(70), long(65)] },
      Object.assign(Object.create(null), { rows: long(80) }),
      { rows: Array.from({ length: 100 }, (_, i) => (i % 3 === 0 ? undefined : i % 3 === 1 ? () => i : i)) },
      { longInsideLong: Array.from({ length: 70 }, () => ({ inner: long(70) })) },
      { wrapped: { toJSON: () => ({ rows: long(70), map: longMap }) } },
    ];
    for (const value of values) expect(roundTrip(value, dir)).toEqual(JSON.parse(JSON.stringify(value) ?? 'null'));
    let seed = 11;
    const random = () => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed / 2147483648;
    };
    const make = (depth: number): unknown => {
      const pick = random();
      if (depth > 4 || pick < 0.3) return [1.5, 'text', null, true, undefined, '😀\n"', -3][Math.floor(random() * 7)];
      const size = Math.floor(random() * (random() < 0.15 ? 150 : 5));
      if (pick < 0.6) return Array.from({ length: size }, () => make(depth + 1));
      return Object.fromEntries(Array.from({ length: size }, (_, i) => [`k${i}`, make(depth + 1)]));
    };
    for (let i = 0; i < 200; i += 1) {
      const value = make(0);
      expect(roundTrip(value, dir)).toEqual(JSON.parse(JSON.stringify(value) ?? 'null'));
    }
  });

  it('keep a member named __proto__ of a long map as an own member, as JSON.parse does', () => {
    const map = JSON.parse(
      `{${Array.from({ length: 70 }, (_, i) => `"k${i}":${i}`).join(',')},"__proto__":{"polluted":true}}`,
    );
    const back = roundTrip({ map }, temporaryFolder('split-json-proto')) as { map: Record<string, unknown> };
    expect(Object.hasOwn(back.map, '__proto__')).toBe(true);
    expect(back.map).toEqual(map);
    expect(({} as { polluted?: boolean }).polluted).toBeUndefined();
  });

  it('give back every stored Outcome of every version', () => {
    const dir = temporaryFolder('split-json-outcomes');
    const files = storedOutcomes();
    expect(files.length).toBeGreaterThan(5);
    for (const file of files) {
      const outcome = JSON.parse(readFileSync(file, 'utf8'));
      expect(roundTrip(outcome, dir)).toEqual(outcome);
    }
  });

  it('put each long list item on its own line: no line of a 20,000-row suite holds its rows', () => {
    const rows = Array.from({ length: 20_000 }, (_, i) => ({
      id: `row-${i}`,
      case: { input: `row ${i}`, expect: ['a'] },
    }));
    const value = {
      outcome: {
        arms: rows.map((row) => ({ arm: row.id, verdict: 'PASS' })),
        records: { suite: { name: 'rows', arms: rows } },
        pinned: { cases: Object.fromEntries(rows.map((row) => [row.id, `sha256:${row.id}`])) },
      },
    };
    const lines = [...splitJsonLines(value)];
    const whole = JSON.stringify(value).length;
    expect(lines.length).toBe(2 + 3 * 20_000);
    expect(Math.max(...lines.map((line) => line.length))).toBeLessThan(whole / 1000);
  });

  it('refuse a file cut short, or past its last list, naming the file', () => {
    const dir = temporaryFolder('split-json-cut');
    const file = path.join(dir, 'cut.jsonl');
    const lines = [...splitJsonLines({ rows: Array.from({ length: 100 }, (_, i) => i) })];
    writeFileSync(file, lines.slice(0, 50).join(''));
    expect(() => readSplitJson(file)).toThrow(SplitJsonError);
    expect(() => readSplitJson(file)).toThrow(/cut\.jsonl ends after .*48 of the 100 list lines/);
    writeFileSync(file, `${lines.join('')}7\n`);
    expect(() => readSplitJson(file)).toThrow(/cut\.jsonl:103 is past the last list's items/);
    writeFileSync(file, '{"a":1}\n');
    expect(() => readSplitJson(file)).toThrow(/cut\.jsonl ends after/);
  });
});
