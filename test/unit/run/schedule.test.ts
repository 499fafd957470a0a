import { describe, expect, it } from 'vitest';
import { scheduleAttempts, type AttemptSchedule } from '../../../src/run/index.js';
import { sha256 } from '../../../src/model/index.js';
import { aCase, aSuite } from '../builders.js';

const suite = (order: 'sequential' | 'interleaved' | 'shuffled', seed = 1) =>
  aSuite(
    [
      { id: 'case', role: 'case', c: aCase() },
      { id: 'control', role: 'control', c: aCase({ id: 'control' }) },
    ],
    { repeat: { n: 3, order, seed, concurrency: 1, stop: { kind: 'fixed' } } },
  );
const slots = (schedule: AttemptSchedule) => Array.from({ length: schedule.length }, (_, k) => schedule.at(k));
const labels = (order: 'sequential' | 'interleaved' | 'shuffled', seed = 1) =>
  slots(scheduleAttempts(suite(order, seed))).map((s) => `${s.arm}#${s.index}`);

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
      Object.fromEntries(slots(scheduleAttempts(suite(order))).map((s) => [`${s.arm}#${s.index}`, s.seed]));
    expect(seedOf('shuffled')).toEqual(seedOf('sequential'));
  });
  it('is the order and seeds earlier versions ran, so a trial run again keeps its Outcome id', () => {
    // As the list of slots riddle made before the schedule made each slot when asked for.
    expect(
      slots(scheduleAttempts({ repeat: { ...suite('shuffled').repeat, seed: 5 }, arms: suite('shuffled').arms })).map(
        (s) => `${s.arm}#${s.index}:${s.seed}`,
      ),
    ).toEqual([
      'case#2:4137678849',
      'control#2:1521944696',
      'case#1:2352017225',
      'case#0:596058203',
      'control#0:3698615552',
      'control#1:2497912558',
    ]);
    const three = { id: 'c', role: 'control' as const, c: aCase({ id: 'c' }) };
    const big = aSuite(
      [{ id: 'a', role: 'case', c: aCase() }, { id: 'b', role: 'control', c: aCase({ id: 'b' }) }, three],
      {
        repeat: { n: 500, order: 'shuffled', seed: 11, concurrency: 1, stop: { kind: 'fixed' } },
      },
    );
    expect(sha256(JSON.stringify(slots(scheduleAttempts(big))))).toBe(
      'c0ee0faf19c5ca481e1862ce697ac660009ccfde6b169f61c8b0a44c944ce547',
    );
  });
  it('refuses a place outside it', () => {
    const schedule = scheduleAttempts(suite('interleaved'));
    expect(schedule.length).toBe(6);
    expect(() => schedule.at(6)).toThrow(/no attempt at place 6 of a schedule of 6/);
    expect(() => schedule.at(-1)).toThrow(RangeError);
    expect(() => schedule.at(1.5)).toThrow(RangeError);
  });
});
