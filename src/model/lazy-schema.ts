import type { z } from 'zod';

/**
 * A zod schema built the first time anything is asked of it (a parse, its shape, a part of another schema being
 * built) rather than when its module loads. Every test file's worker imports riddle's records, and building all of
 * their schemas was about a third of that import's CPU, while a trial checks a few of them (its declaration, its
 * registration) and the Outcome's many are never parsed in a worker at all.
 *
 * The value stands for the schema in every way but identity: it is a Proxy that hands each request to the schema once
 * built. Whatever keys a map by the schema (run/seldom-parsed, zod's JSON Schema writer) is given the Proxy each time,
 * and no record schema is put in a zod registry. Each request through the Proxy costs about 30 ns against 4 for a
 * property read: code that reads a schema for every attempt keeps what it reads (model/vocabulary's ranks).
 */
export function lazySchema<T extends z.ZodType>(build: () => T): T {
  let built: T | undefined;
  const schema = (): T => {
    built ??= build();
    return built;
  };
  return new Proxy(Object.create(null) as T, {
    get: (_target, key) => {
      const real = schema();
      return Reflect.get(real, key, real);
    },
    set: (_target, key, value) => Reflect.set(schema(), key, value),
    has: (_target, key) => Reflect.has(schema(), key),
    ownKeys: () => Reflect.ownKeys(schema()),
    getOwnPropertyDescriptor: (_target, key) => {
      const descriptor = Reflect.getOwnPropertyDescriptor(schema(), key);
      // A proxy may report only configurable properties its own (empty) target lacks.
      return descriptor === undefined ? undefined : { ...descriptor, configurable: true };
    },
    defineProperty: (_target, key, descriptor) => Reflect.defineProperty(schema(), key, descriptor),
    deleteProperty: (_target, key) => Reflect.deleteProperty(schema(), key),
    getPrototypeOf: () => Reflect.getPrototypeOf(schema()),
  });
}
