import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { AttemptRecord, Outcome, Registration } from '../../../src/model/index.js';
import { lazySchema } from '../../../src/model/lazy-schema.js';
import { recordJsonSchema } from '../../../src/model/records.js';

describe('lazySchema', () => {
  it('builds its schema once, when first asked for anything, and never at declaration', () => {
    let builds = 0;
    const Point = lazySchema(() => {
      builds += 1;
      return z.object({ x: z.number(), y: z.number() });
    });
    const Labelled = lazySchema(() => z.object({ at: Point, label: z.string() }));
    expect(builds).toBe(0);
    expect(Labelled.parse({ at: { x: 1, y: 2 }, label: 'a' })).toEqual({ at: { x: 1, y: 2 }, label: 'a' });
    expect(builds).toBe(1);
    expect(Point.safeParse({ x: 1 }).success).toBe(false);
    expect(Object.keys(Point.shape)).toEqual(['x', 'y']);
    expect(builds).toBe(1);
  });

  it('stands for the schema built: instanceof, derived schemas, errors with paths, JSON Schema', () => {
    const Eager = z.object({ name: z.string().min(1), tags: z.array(z.string()) });
    const Lazy = lazySchema(() => z.object({ name: z.string().min(1), tags: z.array(z.string()) }));
    expect(Lazy instanceof z.ZodObject).toBe(true);
    expect(Lazy.nullable().parse(null)).toBeNull();
    expect(Lazy.extend({ extra: z.boolean() }).parse({ name: 'a', tags: [], extra: true })).toEqual({
      name: 'a',
      tags: [],
      extra: true,
    });
    const bad = { name: '', tags: [1] };
    expect(Lazy.safeParse(bad).error?.issues.map((i) => i.path)).toEqual(
      Eager.safeParse(bad).error?.issues.map((i) => i.path),
    );
    expect(z.toJSONSchema(z.object({ inner: Lazy }))).toEqual(z.toJSONSchema(z.object({ inner: Eager })));
    expect('shape' in Lazy).toBe(true);
    expect(Reflect.ownKeys(Lazy)).toEqual(expect.arrayContaining(['_zod', 'def']));
    // Reported configurable: a Proxy may not report a property its own (empty) target lacks as anything else.
    expect(Object.getOwnPropertyDescriptor(Lazy, '_zod')?.configurable).toBe(true);
  });

  it("leaves riddle's record schemas whole: a record parses, and its JSON Schema lists every member", () => {
    expect(Registration.safeParse({}).success).toBe(false);
    expect(AttemptRecord.options.map((variant) => variant.shape.status.value)).toEqual([
      'completed',
      'evaluator_error',
      'subject_error',
      'harness_error',
      'blocked',
    ]);
    const outcome = recordJsonSchema('outcome') as { required?: string[] };
    expect(outcome.required).toEqual(expect.arrayContaining(['attempts', 'arms', 'judgment', 'coverage', 'cost']));
    expect(Object.keys(Outcome.shape)).toEqual(expect.arrayContaining(outcome.required ?? []));
  });
});

describe("riddle's record schemas", () => {
  it('are all made with lazySchema: none is built when its module loads', () => {
    // A schema built at load costs every test file's worker, whether or not its trials ever parse with it. JsonValue is
    // z.lazy already (it refers to itself).
    const folder = path.join(path.dirname(fileURLToPath(import.meta.url)), '../../../src/model');
    const eager: string[] = [];
    for (const file of readdirSync(folder).filter((name) => name.endsWith('.ts'))) {
      const text = readFileSync(path.join(folder, file), 'utf8');
      for (const [, name] of text.matchAll(
        /^(?:export )?const (\w+)(?::[^=\n]+)? = (?:z\s*\.(?!lazy\()|[A-Z]\w*\.(?:extend|pick|omit|partial|nullable|optional|array)\()/gm,
      ))
        eager.push(`${file}: ${name}`);
    }
    expect(eager).toEqual([]);
  });
});
