import type { ExpectFunction } from '../evaluate/index.js';

/**
 * The test's own `expect` (Vitest's `context.expect`), made only when a check first uses it. Vitest builds a test's
 * local expect on first reading of `context.expect`, setting up chai and every matcher again: a cost per trial paid
 * even when no check calls it (checks often use the `expect` imported from vitest). Calls and members (`soft`,
 * `poll`, …) reach the local expect as they would directly.
 */
export function lazyExpect(context: { readonly expect: ExpectFunction }): ExpectFunction {
  let local: ExpectFunction | undefined;
  const made = (): ExpectFunction => {
    local ??= context.expect;
    return local;
  };
  // An arrow function as the target: it has no own `prototype`, so every member read can be forwarded.
  return new Proxy<ExpectFunction>(() => undefined, {
    apply: (_target, self, args) => Reflect.apply(made(), self, args),
    get: (_target, key) => Reflect.get(made(), key),
    has: (_target, key) => Reflect.has(made(), key),
  });
}
