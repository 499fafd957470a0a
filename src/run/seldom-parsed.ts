import type { z } from 'zod';

/**
 * Parses of one schema a process makes on zod's slower, uncompiled path before it lets zod compile the schema's fast
 * path. zod compiles an object schema's fast path (generated code, `new Function`, then V8's compiler) the first time it
 * parses one, for the object and each object in it. The schemas riddle checks a trial's declaration, records and
 * registration with are parsed a few times in a worker: compiling them took a test file of one trial about 10–20 ms of
 * CPU at its first trial, more than every parse of a file of a few trials takes, while a file of hundreds of trials
 * parses the registration schema once a trial and earns the compiling back.
 */
const SLOW_PATH_PARSES = 16;

/** How often each schema was parsed through `seldomParsed`. Weak: a schema made per call is not kept. */
const parses = new WeakMap<z.ZodType, number>();

/**
 * Parse options for one more parse of a schema riddle parses once or a few times per trial: zod's uncompiled path
 * (`jitless`) for its first SLOW_PATH_PARSES parses in this process, its compiled fast path after that. The result of a
 * parse is the same either way.
 */
export function seldomParsed(schema: z.ZodType): { jitless: boolean } {
  const count = (parses.get(schema) ?? 0) + 1;
  parses.set(schema, count);
  return { jitless: count <= SLOW_PATH_PARSES };
}
