import { describe, expect, it } from 'vitest';
import type { ExpectFunction } from '../../../src/evaluate/index.js';
import { lazyExpect } from '../../../src/vitest/lazy-expect.js';

/** A context whose `expect` counts how often it is read, as Vitest's getter builds the local expect when read. */
function countingContext(made: ExpectFunction) {
  let reads = 0;
  return {
    context: {
      get expect() {
        reads += 1;
        return made;
      },
    },
    reads: () => reads,
  };
}

describe('lazyExpect', () => {
  it("reads the context's expect only when first used, and once", () => {
    const calls: unknown[][] = [];
    const made = Object.assign((...args: unknown[]) => calls.push(args) && 'assertion', { soft: 'soft member' });
    const { context, reads } = countingContext(made);
    const lazy = lazyExpect(context);
    expect(reads()).toBe(0);
    expect(lazy('actual', 'message')).toBe('assertion');
    expect(lazy('again')).toBe('assertion');
    expect(calls).toEqual([['actual', 'message'], ['again']]);
    expect((lazy as unknown as { soft: string }).soft).toBe('soft member');
    expect('soft' in lazy).toBe(true);
    expect(reads()).toBe(1);
  });

  it("makes Vitest's local expect only when a check uses it, and then asserts with it", (context) => {
    const lazy = lazyExpect(context);
    const local = context as unknown as { _local: boolean };
    expect(local._local).toBe(false);
    expect(() => (lazy(1, 'one is two') as { toBe: (value: unknown) => void }).toBe(2)).toThrow(/one is two/);
    expect(local._local).toBe(true);
    expect(typeof (lazy as unknown as { soft: unknown }).soft).toBe('function');
  });
});
