import { describe, expect, it } from 'vitest';
import { scheduleAttempts } from '../../../src/run/index.js';
import { aCase, aSuite } from '../builders.js';

const suite = (order: 'sequential' | 'interleaved' | 'shuffled', seed = 1) =>
  aSuite(
    [
      { id: 'case', role: 'case', c: aCase() },
      { id: 'control', role: 'control', c: aCase({ id: 'control' }) },
    ],
    { repeat: { n: 3, order, seed, concurrency: 1, stop: { kind: 'fixed' } } },
  );
const labels = (order: 'sequential' | 'interleaved' | 'shuffled', seed = 1) =>
  scheduleAttempts(suite(order, seed)).map((s) => `${s.arm}#${s.index}`);

describe('declared attempt order', () => {
  it('sequential runs arm by arm; interleaved alternates', () => {
    expect(labels('sequential')).toEqual(['case#0', 'case#1', 'case#2', 'control#0', 'control#1', 'control#2']);
    expect(labels('interleaved')).toEqual(['case#0', 'control#0', 'case#1', 'control#1', 'case#2', 'control#2']);
  });
  it('shuffled is a permutation fixed by the seed', () => {
    expect(labels('shuffled', 5)).toEqual(labels('shuffled', 5));
    expect(labels('shuffled', 5).sort()).toEqual(labels('sequential').sort());
    const seeds = new Set(Array.from({ length: 10 }, (_, s) => labels('shuffled', s).join()));
    expect(seeds.size).toBeGreaterThan(3);
  });
  it('an attempt keeps its seed whatever the order', () => {
    const seedOf = (order: 'sequential' | 'shuffled') =>
      Object.fromEntries(scheduleAttempts(suite(order)).map((s) => [`${s.arm}#${s.index}`, s.seed]));
    expect(seedOf('shuffled')).toEqual(seedOf('sequential'));
  });
});
