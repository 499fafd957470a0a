import { describe, expect, it } from 'vitest';
import { canonicalJson, canonicalJsonPair, canonicalJsonSha256, Sha256List, sha256 } from '../../../src/model/index.js';
import { attemptDigest, attemptLine } from '../../../src/run/outcome-id.js';
import { attempt } from '../builders.js';

const omitTimes = (key: string) => key.endsWith('At') || key.endsWith('Ms');

describe('canonicalJsonPair', () => {
  it('writes what canonicalJson writes, whole and without the omitted members, at every depth', () => {
    const values: unknown[] = [
      { b: 1, startedAt: 'now', a: { durationMs: 3, d: [1, { y: 2, endAt: [1, 2], x: 1 }], c: undefined } },
      [undefined, () => 1, { tookMs: 1 }, null, 'é', 2.5, true],
      { only: { keptAt: { deep: 1 } }, 10: 'ten', 2: 'two' },
      'plain',
      { onlyOmittedMs: 1 },
    ];
    for (const value of values)
      expect(canonicalJsonPair(value, omitTimes)).toEqual([canonicalJson(value), canonicalJson(value, omitTimes)]);
  });

  it('agrees with canonicalJson on seeded random records, omitted members first, last, alone or nested', () => {
    let seed = 12345;
    const random = () => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed / 2147483648;
    };
    const names = ['a', 'zAt', 'bMs', 'c', '1', 'startedAt', 'é', 'x"y', 'durationMs', 'k'];
    const make = (depth: number): unknown => {
      const pick = random();
      if (depth > 3 || pick < 0.3) return [1, 'two', null, true, -0.5, undefined][Math.floor(random() * 6)];
      if (pick < 0.5) return Array.from({ length: Math.floor(random() * 4) }, () => make(depth + 1));
      const out: Record<string, unknown> = {};
      for (let i = Math.floor(random() * 6); i > 0; i -= 1)
        out[names[Math.floor(random() * names.length)] as string] = make(depth + 1);
      return out;
    };
    for (let i = 0; i < 500; i += 1) {
      const value = make(0);
      expect(canonicalJsonPair(value, omitTimes)).toEqual([canonicalJson(value), canonicalJson(value, omitTimes)]);
      expect(canonicalJsonSha256(value, omitTimes)).toBe(sha256(canonicalJson(value, omitTimes)));
      expect(canonicalJsonSha256(value)).toBe(sha256(canonicalJson(value)));
    }
  });

  it('writes names sorted whether or not a record lists them in order, quoting every name (repeated or long) alike', () => {
    const long = `k${'x'.repeat(60)}"`;
    const values = [
      { a: 1, b: { c: 2, d: 3 } },
      { b: 1, a: { d: 3, c: 2 } },
      { 'quote"d': 1, 'new\nline': 2, [long]: 3, a: [{ z: 1, y: 2 }] },
    ];
    const sorted = (value: unknown): unknown =>
      Array.isArray(value)
        ? value.map(sorted)
        : typeof value === 'object' && value !== null
          ? Object.fromEntries(
              Object.keys(value)
                .sort()
                .map((key) => [key, sorted((value as Record<string, unknown>)[key])]),
            )
          : value;
    for (let round = 0; round < 2; round += 1)
      for (const value of values) {
        expect(canonicalJson(value)).toBe(JSON.stringify(sorted(value)));
        expect(canonicalJsonPair(value, omitTimes)[0]).toBe(JSON.stringify(sorted(value)));
      }
    expect(canonicalJson({ b: 1, a: { d: 3, c: 2 } })).toBe('{"a":{"c":2,"d":3},"b":1}');
  });

  it('writes every string and name as JSON.stringify does, and asks each omitKey of its own, alternating', () => {
    // Strings written between quotes as they are must be exactly those JSON.stringify leaves alone.
    const texts = [
      'plain',
      '',
      'é',
      '😀',
      '\ud800',
      'a\udfffb',
      '"',
      '\\',
      '\u0000',
      '\u001f',
      '\u007f',
      '\u2028',
      'tab\t',
      '</x>',
    ];
    const names = [...texts, '1a', '9', '0x', '07', '10'];
    const sorted = (value: unknown): unknown =>
      typeof value === 'object' && value !== null
        ? Object.fromEntries(
            Object.keys(value)
              .sort()
              .map((key) => [key, sorted((value as Record<string, unknown>)[key])]),
          )
        : value;
    for (let i = 0; i < names.length; i += 1) {
      const value: Record<string, unknown> = {};
      for (let k = 0; k < texts.length; k += 1) value[names[(i + k) % names.length] as string] = texts[k];
      expect(canonicalJson(value)).toBe(JSON.stringify(sorted(value)));
      expect(canonicalJsonPair(value, omitTimes)[0]).toBe(JSON.stringify(sorted(value)));
    }
    // Two omitKey functions in turn over the same names: each answer is its own function's, never the other's.
    const omitA = (key: string) => key === 'a';
    const omitB = (key: string) => key === 'b';
    const value = { a: 1, b: 2, c: { a: 3, b: 4 } };
    for (let round = 0; round < 3; round += 1) {
      expect(canonicalJson(value, omitA)).toBe('{"b":2,"c":{"b":4}}');
      expect(canonicalJsonPair(value, omitB)).toEqual([canonicalJson(value), '{"a":1,"c":{"a":3}}']);
      expect(canonicalJsonSha256(value, omitA)).toBe(sha256('{"b":2,"c":{"b":4}}'));
    }
  });

  it('sorts every list of names anew that differs from the one before it with the same first name', () => {
    // Lists out of order beginning alike: each is sorted as its own, whichever came before it.
    const lists = [
      ['b', 'a', 'c'],
      ['b', 'c', 'a'],
      ['b', 'a'],
      ['b', 'a', 'c', 'd'],
      ['b', 'd', 'a', 'c'],
      ['b', 'a', 'c'],
      ['b', '0x', 'a'],
    ];
    for (let round = 0; round < 3; round += 1)
      for (const names of lists) {
        const value = Object.fromEntries(names.map((name, i) => [name, i]));
        const expected = `{${[...names]
          .sort()
          .map((name) => `"${name}":${names.indexOf(name)}`)
          .join(',')}}`;
        expect(canonicalJson(value)).toBe(expected);
        expect(canonicalJsonPair({ outer: value }, omitTimes)[0]).toBe(`{"outer":${expected}}`);
      }
  });

  it("gives an attempt's line and the digest its Outcome id takes", () => {
    const record = attempt('case', 3, 'PASS', { durationMs: 17, startedAt: '2026-11-30T00:00:00.000Z' });
    const { json, digest } = attemptLine(record);
    expect(json).toBe(canonicalJson(record));
    expect(digest).toBe(attemptDigest(record));
    expect(attemptLine({ ...record, durationMs: 99 }).digest).toBe(digest);
  });

  it('hashes text of many chunks as the whole text: surrogate pairs, lone surrogates and escapes at every boundary', () => {
    // Over a megabyte of canonical JSON: many 64 KiB chunks, each ending wherever a value happened to end.
    const texts = ['plain', 'é', '😀 emoji', '\ud800 lone', 'lone \udfff', 'quote " back \\ slash', '\u001b[31mred'];
    const rows = Array.from({ length: 12_000 }, (_, i) => ({
      index: i,
      text: `${texts[i % texts.length]}${'x'.repeat(i % 97)}${texts[(i * 7) % texts.length]}`,
      startedAt: `t${i}`,
      nested: { b: [i, null, undefined, { tookMs: i }], a: i % 3 === 0 ? undefined : 'a' },
    }));
    const value = { setup: { id: 'x' }, rows };
    expect(canonicalJson(value).length).toBeGreaterThan(1 << 20);
    expect(canonicalJsonSha256(value)).toBe(sha256(canonicalJson(value)));
    expect(canonicalJsonSha256(value, omitTimes)).toBe(sha256(canonicalJson(value, omitTimes)));
    expect(canonicalJsonSha256(undefined)).toBe(sha256(''));
    expect(canonicalJsonSha256('😀')).toBe(sha256('"😀"'));
  });

  it('hashes tokens longer than a chunk, and tokens that fill a chunk to its last byte, as the whole text', () => {
    // Each at offsets across a chunk: after 0 to 6,000 short tokens (up to about 40,000 bytes).
    const longs = [
      'x'.repeat(70_000),
      'é'.repeat(30_000),
      '€'.repeat(21_000),
      '😀'.repeat(11_000),
      'y'.repeat(21_845),
      'z'.repeat(21_843),
    ];
    for (const long of longs)
      for (let before = 0; before <= 6_000; before += 1_500) {
        const value = { a: Array.from({ length: before }, (_, i) => `t${i}`), b: long, c: [long, 'é', long] };
        expect(canonicalJsonSha256(value)).toBe(sha256(canonicalJson(value)));
      }
  });
});

describe('canonicalJsonSha256 across chunks: numbers and names', () => {
  it('writes every number as String does, whole numbers of every length ending chunks at every offset', () => {
    const numbers = [0, -0, 7, 9, 10, 99, 100, 1_000_000, 2 ** 31, 2 ** 32 + 1, Number.MAX_SAFE_INTEGER, -1, -12_345];
    const others = [1.5, 0.1, 1e21, 2 ** 53, 1e-7, -0.5, 123.456];
    // After 0 to 16,000 numbers (ints of up to 16 digits end every chunk at every offset).
    for (let before = 0; before <= 16_000; before += 4_000) {
      const value = {
        pad: Array.from({ length: before }, (_, i) => (i * 7919) % 10 ** ((i % 16) + 1)),
        numbers,
        others,
      };
      expect(canonicalJsonSha256(value)).toBe(sha256(canonicalJson(value)));
    }
  });

  it('writes names in canonical order whether an object lists them so, out of order, with index names or inherited', () => {
    const inherited = Object.create({ extra: 'inherited, never written' }) as Record<string, unknown>;
    // Own names in order, an inherited one after them: for…in lists it too.
    inherited.a = 2;
    inherited.b = 1;
    const values = [
      { a: 1, b: 2, c: { d: 3, e: [{ f: 4, g: 5 }] } },
      { b: 1, a: 2, c: { e: 3, d: 4 } },
      { 10: 'ten', 9: 'nine', b: 1, a: 2 },
      { 1: 'one', 0: 'zero' },
      { a: undefined, b: () => 1, c: 3 },
      inherited,
      Object.assign(Object.create(null) as object, { z: 1, y: 2 }),
    ];
    for (const value of values) {
      expect(canonicalJsonSha256(value)).toBe(sha256(canonicalJson(value)));
      expect(canonicalJsonSha256(value, (key) => key === 'a')).toBe(sha256(canonicalJson(value, (key) => key === 'a')));
    }
  });
});

describe('canonicalJsonSha256 one after another', () => {
  it('hashes each value alone, after a large one and after one that threw part-way', () => {
    const large = { rows: Array.from({ length: 5_000 }, (_, i) => ({ i, text: `row ${i}` })) };
    const small = { a: 'b' };
    expect(canonicalJsonSha256(large)).toBe(sha256(canonicalJson(large)));
    expect(canonicalJsonSha256(small)).toBe(sha256(canonicalJson(small)));
    expect(() => canonicalJsonSha256({ rows: large.rows, bad: Number.NaN })).toThrow(/NaN is not JSON/);
    expect(canonicalJsonSha256(small)).toBe(sha256(canonicalJson(small)));
    expect(canonicalJsonSha256(large)).toBe(sha256(canonicalJson(large)));
  });
});

describe('Sha256List', () => {
  it('is written as the array of its digests in hex, by every writer, and takes only whole digests', () => {
    const digests = Array.from({ length: 2_500 }, (_, i) => sha256(`attempt ${i}`));
    const list = new Sha256List(Buffer.from(digests.join(''), 'hex'));
    expect(list.length).toBe(2_500);
    expect(list.at(1_234)).toBe(digests[1_234]);
    const held = { results: { b: list, a: 1, cMs: 2 }, setup: 'x' };
    const written = { results: { b: digests, a: 1, cMs: 2 }, setup: 'x' };
    expect(canonicalJson(held)).toBe(canonicalJson(written));
    expect(canonicalJsonPair(held, omitTimes)).toEqual(canonicalJsonPair(written, omitTimes));
    expect(canonicalJsonSha256(held, omitTimes)).toBe(sha256(canonicalJson(written, omitTimes)));
    // A view into a larger buffer reads only its own bytes.
    const bytes = Buffer.from(`ff${digests.slice(0, 3).join('')}ff`, 'hex');
    expect(canonicalJson(new Sha256List(bytes.subarray(1, 97)))).toBe(JSON.stringify(digests.slice(0, 3)));
    expect(() => new Sha256List(new Uint8Array(33))).toThrow(/32 bytes each, not 33 bytes/);
  });
});

describe('rows of flat records in an array', () => {
  it('are written as member by member, whatever of them JSON.stringify alone would write otherwise', () => {
    // A record alone is written member by member (only rows in an array take JSON.stringify): the reference.
    const byMember = (row: Record<string, unknown>) => canonicalJson(row);
    const rows: Record<string, unknown>[] = [
      { arm: 'case', index: 0, inputTokens: 0, outputTokens: 0, usd: null },
      { usd: 0.25, arm: 'out of order', index: 1 },
      { a: 'quote " backslash \\ newline \n bell \u0007 lone \ud800 pair \ud83d\ude00 line \u2028', b: true, c: -0 },
      Object.assign(Object.create(null), { a: 1, b: 'null prototype' }),
      { '1': 'index', '2': 'keys', a: 'then names' },
      { '10': 'ten', '9': 'nine' },
      {},
    ];
    expect(canonicalJson(rows)).toBe(`[${rows.map(byMember).join(',')}]`);
    expect(canonicalJsonSha256(rows)).toBe(sha256(canonicalJson(rows)));
  });

  it('leave out omitted members, and refuse a non-finite number, as any record does', () => {
    const rows = [{ a: 1, tookMs: 2 }, { b: 'kept' }];
    expect(canonicalJson(rows, omitTimes)).toBe('[{"a":1},{"b":"kept"}]');
    expect(canonicalJsonSha256(rows, omitTimes)).toBe(sha256('[{"a":1},{"b":"kept"}]'));
    for (const bad of [Number.NaN, Number.POSITIVE_INFINITY]) {
      expect(() => canonicalJson([{ a: bad }])).toThrow(/not JSON/);
      expect(() => canonicalJsonSha256([{ a: bad }])).toThrow(/not JSON/);
    }
  });

  it('never take a toJSON or a prototype’s members into the text, as JSON.stringify would', () => {
    class Row {
      a = 1;
      toJSON() {
        return 'replaced';
      }
    }
    const withOwn = { a: 1, toJSON: () => 'replaced' };
    const inherited = Object.assign(Object.create({ toJSON: () => 'replaced' }), { a: 1 });
    for (const row of [new Row(), withOwn, inherited]) {
      expect(canonicalJson([row])).toBe('[{"a":1}]');
      expect(canonicalJsonSha256([row])).toBe(sha256('[{"a":1}]'));
    }
    expect(canonicalJson([new Date(0)])).toBe('[{}]');
    // A toJSON every object inherits (a polluted Object.prototype) is not obeyed either.
    Object.defineProperty(Object.prototype, 'toJSON', { value: () => 'replaced', configurable: true });
    try {
      expect(canonicalJson([{ a: 1 }])).toBe('[{"a":1}]');
      expect(canonicalJsonSha256([{ a: 1 }])).toBe(sha256('[{"a":1}]'));
    } finally {
      Reflect.deleteProperty(Object.prototype, 'toJSON');
    }
  });
});
