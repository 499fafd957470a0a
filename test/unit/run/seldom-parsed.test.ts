import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { Registration } from '../../../src/model/index.js';
import { TrialDeclarationSchema } from '../../../src/run/declaration-schema.js';
import { seldomParsed } from '../../../src/run/seldom-parsed.js';

describe('seldomParsed', () => {
  it("keeps a schema on zod's uncompiled path for its first 16 parses, counting each schema apart", () => {
    const first = z.object({ a: z.string() });
    const second = z.object({ a: z.string() });
    const firstRuns = Array.from({ length: 20 }, () => seldomParsed(first).jitless);
    expect(firstRuns).toEqual([...Array<boolean>(16).fill(true), ...Array<boolean>(4).fill(false)]);
    // Another schema, however alike, starts its own count.
    expect(seldomParsed(second).jitless).toBe(true);
  });

  it('gives the same result on either path, accepted or refused, with the same issues and values', () => {
    const values: unknown[] = [
      { schema: 'riddle.registration/1' },
      { policy: 'sha256:x', declared: { n: 'many' }, outcome: 7 },
      null,
      'text',
      {
        subject: () => 'Sure',
        revision: 'r@1',
        rubric: { criteria: { answers: { description: 'answers', needs: 'text' } } },
        case: { input: 'a', expect: ['answers'] },
        repeat: { n: 0, stop: 'fixed' },
      },
      {
        subject: () => 'Sure',
        revision: 'r@1',
        rubric: { criteria: { answers: { description: 'answers', needs: 'text' } } },
        case: { input: 'a', expect: ['answers'] },
        repaet: { n: 3 },
      },
    ];
    for (const schema of [Registration, TrialDeclarationSchema] as z.ZodType[])
      for (const value of values) {
        const uncompiled = schema.safeParse(value, { reportInput: true, jitless: true });
        const compiled = schema.safeParse(value, { reportInput: true, jitless: false });
        expect(uncompiled.success).toBe(compiled.success);
        expect(uncompiled.error?.issues).toEqual(compiled.error?.issues);
        expect(uncompiled.data).toEqual(compiled.data);
      }
  });
});
