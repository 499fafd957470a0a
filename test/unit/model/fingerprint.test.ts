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

  it('refuse non-finite numbers rather than write invalid JSON', () => {
    expect(() => canonicalJson({ x: Number.NaN })).toThrow(/not JSON/);
  });
});

describe('migrate', () => {
  it('names the place and the field of an invalid record', () => {
    expect(() => migrate('case', { ...aCase(), effectClass: 'explode' }, 'cases/a.json')).toThrow(RecordError);
    expect(() => migrate('case', { ...aCase(), effectClass: 'explode' }, 'cases/a.json')).toThrow(
      /cases\/a\.json: invalid riddle\.case\/1 at effectClass/,
    );
  });
  it('refuses a record of another kind, a newer version, and data without a schema id', () => {
    expect(() => migrate('outcome', aCase(), 'x.json')).toThrow(
      /is a riddle\.case\/1 record, expected riddle\.outcome\/2/,
    );
    expect(() => migrate('case', { ...aCase(), schema: 'riddle.case/9' }, 'x.json')).toThrow(
      /newer than this riddle reads/,
    );
    expect(() => migrate('case', { id: 'x' }, 'x.json')).toThrow(/not a riddle record/);
  });
  it('returns the parsed record for a valid one', () => {
    expect(migrate('case', aCase(), 'x.json')).toEqual(aCase());
    expect(Outcome.shape.schema.value).toBe('riddle.outcome/2');
  });
});
