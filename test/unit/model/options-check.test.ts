import { describe, expect, it } from 'vitest';
import { optional, optionsChecker, text } from '../../../src/model/options-check.js';

interface Options {
  name: string;
  note?: string;
}

describe('optionsChecker', () => {
  it('has a check for every option, optional exactly where the interface is (a compile error otherwise)', () => {
    // @ts-expect-error note has no check
    optionsChecker<Options>('f', { name: text }, 'name');
    // @ts-expect-error name is required, its check optional
    optionsChecker<Options>('f', { name: optional(text), note: optional(text) }, 'name');
    // @ts-expect-error note is optional, its check required
    optionsChecker<Options>('f', { name: text, note: text }, 'name');
    // @ts-expect-error extra is no option
    optionsChecker<Options>('f', { name: text, note: optional(text), extra: text }, 'name');
    const check = optionsChecker<Options>('f', { name: text, note: optional(text) }, 'name');
    expect(() => check({ name: 'x', note: undefined })).not.toThrow();
    expect(() => check({ name: 'x', nite: 'y' } as Options)).toThrow(
      'f("x"): nite: is not an option; did you mean "note"? Accepted: name, note',
    );
  });
});
