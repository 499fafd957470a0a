import { describe, expect, it, vi } from 'vitest';

// Every piece of text handed to a sha256 Hash object, by length.
const updates: number[] = [];
vi.mock('node:crypto', async (importOriginal) => {
  const real = await importOriginal<typeof import('node:crypto')>();
  return {
    ...real,
    createHash: (algorithm: string) => {
      const made = real.createHash(algorithm);
      const update = made.update.bind(made);
      made.update = ((data: string) => {
        updates.push(data.length);
        return update(data);
      }) as typeof made.update;
      return made;
    },
  };
});

const { canonicalJson, fingerprint, sha256 } = await import('../../../src/model/index.js');

describe('fingerprint', () => {
  it('hashes a record as its canonical JSON is written: a suite of 20,000 rows in pieces, never whole', () => {
    const rows = Array.from({ length: 20_000 }, (_, i) => ({
      id: `row-${i}`,
      role: 'case',
      case: {
        schema: 'riddle.case/3',
        id: `row-${i}`,
        input: `τ row ${i}`,
        expect: ['answers'],
        stop: { maxRounds: 1 },
      },
      caseFingerprint: `sha256:${String(i).padStart(64, '0')}`,
    }));
    const suite = { schema: 'riddle.trial-suite/2', name: 'rows', arms: rows };
    const whole = canonicalJson(suite);
    expect(whole.length).toBeGreaterThan(4_000_000);
    updates.length = 0;
    expect(fingerprint(suite)).toBe(`sha256:${sha256(whole)}`);
    expect(updates.length).toBeGreaterThan(40);
    expect(Math.max(...updates)).toBeLessThan(whole.length / 20);
  });

  it('hashes a small record in one call, without a Hash object', () => {
    const record = {
      schema: 'riddle.rubric/2',
      criteria: [{ name: 'answers', needs: 'text' }],
      threshold: { rate: 0.8 },
    };
    updates.length = 0;
    expect(fingerprint(record)).toBe(`sha256:${sha256(canonicalJson(record))}`);
    expect(updates).toEqual([]);
  });
});
