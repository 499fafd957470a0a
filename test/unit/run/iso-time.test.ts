import { describe, expect, it } from 'vitest';
import { isoTime } from '../../../src/run/iso-time.js';

describe('isoTime', () => {
  it('writes what Date#toISOString writes, second after second, back and forth, fractions and all', () => {
    const times = [
      0,
      -0,
      1,
      9,
      10,
      99,
      100,
      999,
      1000,
      1001,
      -1,
      -999,
      -1000,
      -1001,
      0.5,
      -0.5,
      1.999,
      -1.5,
      1764562839305,
      1764562839999,
      1764562840000,
      1764562839305.7,
      253402300799999,
      253402300800000,
      -62135596800001,
      8.64e15,
      -8.64e15,
      8.64e15 - 0.5,
    ];
    let seed = 42;
    for (let i = 0; i < 3000; i += 1) {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      // Runs of times within one second, then a jump: the kept second is reused and replaced.
      const base = i % 7 === 0 ? (seed - 1073741824) * 4e6 : (times.at(-1) as number);
      times.push(base + (seed % 1500));
    }
    for (const ms of times) expect([ms, isoTime(ms)]).toEqual([ms, new Date(ms).toISOString()]);
  });

  it('throws for a time no Date holds, as toISOString does', () => {
    for (const ms of [Number.NaN, Number.POSITIVE_INFINITY, 8.64e15 + 1, -8.64e15 - 1])
      expect(() => isoTime(ms)).toThrow(RangeError);
  });
});
