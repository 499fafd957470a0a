import { describe, expect, it } from 'vitest';
import { canonicalJson, fingerprint, migrate, Outcome, RecordError } from '../../../src/model/index.js';
import { aCase, aRubric } from '../builders.js';

describe('canonical JSON and fingerprints', () => {
  it('ignore key order and undefined members', () => {
    expect(canonicalJson({ b: 1, a: { d: [1, { y: 2, x: 1 }], c: undefined } })).toBe(
      '{"a":{"d":[1,{"x":1,"y":2}]},"b":1}',
    );
    expect(fingerprint({ a: 1, b: 2 })).toBe(fingerprint({ b: 2, a: 1 }));
  });

  it('change when any pinned field changes', () => {
    const base = fingerprint(aCase());
    expect(fingerprint(aCase({ input: 'Delete notes/2020.txt' }))).not.toBe(base);
    expect(fingerprint(aCase({ stop: { timeoutMs: 1001, maxOutputBytes: 1024, maxRounds: 1 } }))).not.toBe(base);
    expect(fingerprint(aCase({ effectClass: 'write' }))).not.toBe(base);
    expect(fingerprint(aRubric())).not.toBe(fingerprint(aRubric({ threshold: { rate: 0.9, alpha: 0.05 } })));
    expect(fingerprint(aCase())).toBe(base);
    expect(base).toMatch(/^sha256:[0-9a-f]{64}$/);
  });

  it('are stable across versions of riddle: a golden canonical text and its sha256', () => {
    const value = { z: 'é', a: [1, { b: null }] };
    expect(canonicalJson(value)).toBe('{"a":[1,{"b":null}],"z":"é"}');
    expect(fingerprint(value)).toBe('sha256:86dae653bb9168d73d30a4c094e60cd0ab2a28a127de9a559fd53c43910e713a');
  });

  it('refuse non-finite numbers rather than write invalid JSON', () => {
    expect(() => canonicalJson({ x: Number.NaN })).toThrow(/not JSON/);
  });

  it('give the same text as sorting a copy and stringifying it, for any data (fingerprints stay stable)', () => {
    // The earlier, two-pass definition: stored fingerprints were computed with it.
    const sortKeys = (value: unknown): unknown => {
      if (Array.isArray(value)) return value.map((item) => (item === undefined ? null : sortKeys(item)));
      if (value !== null && typeof value === 'object') {
        const sorted: Record<string, unknown> = {};
        for (const key of Object.keys(value).sort()) {
          const member = (value as Record<string, unknown>)[key];
          if (member !== undefined) sorted[key] = sortKeys(member);
        }
        return sorted;
      }
      return value;
    };
    let state = 7;
    const random = () => {
      state = (state * 1103515245 + 12345) % 2147483648;
      return state / 2147483648;
    };
    const keys = ['a', 'b', 'Z', '10', '9', '0', '01', '-1', '4294967295', '4294967294', 'é', '\u2028', 'a"b', ''];
    const leaves = [0, -0, 1.5, -3, 1e21, 'x', '', 'quote"\\\n', true, false, null, undefined, () => 1, Symbol('s')];
    const generate = (depth: number): unknown => {
      const pick = random();
      if (depth === 0 || pick < 0.4) return leaves[Math.floor(random() * leaves.length)];
      if (pick < 0.6) return Array.from({ length: Math.floor(random() * 4) }, () => generate(depth - 1));
      const object: Record<string, unknown> = {};
      for (let i = Math.floor(random() * 5); i > 0; i -= 1)
        object[keys[Math.floor(random() * keys.length)] ?? 'k'] = generate(depth - 1);
      return object;
    };
    for (let i = 0; i < 2000; i += 1) {
      const value = { root: generate(4) };
      expect(canonicalJson(value)).toBe(JSON.stringify(sortKeys(value)));
    }
  });

  it('sort each kind of record by its own names when many kinds share a first name, in any order met', () => {
    // Twelve kinds beginning with `schema` (more than are kept sorted per first name), met in turn, then in reverse
    // and again shuffled by a seed: each must be written in its own sorted order every time, never another kind's.
    const kinds = Array.from({ length: 12 }, (_, k) =>
      Object.fromEntries([['schema', `kind/${k}`], ...Array.from({ length: 3 + k }, (_, m) => [`z${k}m${11 - m}`, m])]),
    );
    const expected = (record: Record<string, unknown>) =>
      `{${Object.keys(record)
        .sort()
        .map((key) => `"${key}":${JSON.stringify(record[key])}`)
        .join(',')}}`;
    let seed = 7;
    const order = [...kinds.keys(), ...[...kinds.keys()].reverse()];
    for (let i = 0; i < 60; i += 1) {
      seed = (seed * 48271) % 2147483647;
      order.push(seed % kinds.length);
    }
    for (const k of order) {
      const record = kinds[k] as Record<string, unknown>;
      // A fresh object each time, names in the same (unsorted) order: as records of one kind are built.
      expect(canonicalJson({ ...record })).toBe(expected(record));
    }
  });

  it('leave out members by name at every depth when asked', () => {
    expect(canonicalJson({ aMs: 1, b: [{ aMs: 2, c: 3 }] }, (key) => key.endsWith('Ms'))).toBe('{"b":[{"c":3}]}');
  });
});

describe('migrate', () => {
  it('names the place and the field of an invalid record', () => {
    expect(() => migrate('case', { ...aCase(), effectClass: 'explode' }, 'cases/a.json')).toThrow(RecordError);
    expect(() => migrate('case', { ...aCase(), effectClass: 'explode' }, 'cases/a.json')).toThrow(
      /cases\/a\.json: invalid riddle\.case\/3 at effectClass/,
    );
  });
  it('refuses a record of another kind, a newer version, and data without a schema id', () => {
    expect(() => migrate('outcome', aCase(), 'x.json')).toThrow(
      /is a riddle\.case\/3 record, expected riddle\.outcome\/5/,
    );
    expect(() => migrate('case', { ...aCase(), schema: 'riddle.case/9' }, 'x.json')).toThrow(
      /newer than this riddle reads/,
    );
    expect(() => migrate('case', { id: 'x' }, 'x.json')).toThrow(/not a riddle record/);
  });
  it('returns the parsed record for a valid one', () => {
    expect(migrate('case', aCase(), 'x.json')).toEqual(aCase());
    expect(Outcome.shape.schema.value).toBe('riddle.outcome/5');
  });
});
