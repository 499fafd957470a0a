import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { CompositionSuite, fingerprint } from '../../../src/model/index.js';
import {
  composition,
  compositionSuite,
  CompositionDeclarationError,
  type Composition,
} from '../../../src/observe/index.js';
import { Plan, Task, Work, pipeline, pipelineNodes } from './pipeline.js';

const node = (name: string, input: z.ZodType, output: z.ZodType, owner = `${name}-team`): Composition =>
  composition({ name, owner, version: '1', input, output, run: () => null as never });

const declaring = (fn: () => unknown) => {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(CompositionDeclarationError);
    return (error as Error).message;
  }
  throw new Error('expected a CompositionDeclarationError');
};

describe('compositionSuite: validated at declaration', () => {
  it('pins a valid graph: topological order, entry, exit, JSON Schemas of each type, and its fingerprint', () => {
    const suite = pipeline();
    const record = CompositionSuite.parse(suite.composition);
    expect(record.compositions.map((c) => [c.name, c.owner, c.version])).toEqual([
      ['planner', 'planning-team', 'planner-good'],
      ['executor', 'execution-team', 'executor-good'],
      ['reviewer', 'review-team', 'reviewer-strict'],
    ]);
    expect(record.entry).toBe('planner');
    expect(record.exit).toBe('reviewer');
    expect(record.compositions[1]?.input).toMatchObject({ type: 'object', required: ['steps'] });
    expect(suite.fingerprint).toBe(fingerprint(record));
  });

  it('a changed composition version changes the graph fingerprint and the subject revision', async () => {
    const a = pipeline();
    const b = pipeline({ reviewer: 'lenient' });
    expect(a.fingerprint).not.toBe(b.fingerprint);
    expect((await a.identify()).revision).not.toBe((await b.identify()).revision);
    expect((await a.identify()).revisionSource).toBe('content');
  });

  it('refuses a cycle that is not a declared loop, naming the compositions along it', () => {
    const message = declaring(() =>
      compositionSuite({
        name: 'loopy',
        version: '1',
        compositions: [node('a', Task, Task), node('b', Task, Task), node('c', Task, Task)],
        handoffs: [
          { from: 'a', to: 'b' },
          { from: 'b', to: 'c' },
          { from: 'c', to: 'b' },
        ],
      }),
    );
    expect(message).toContain('compositionSuite "loopy"');
    expect(message).toContain('b → c → b form a cycle');
    expect(message).toContain('loop: { max, while }');
  });

  it('accepts the same cycle as a declared bounded loop, and refuses an unbounded or misplaced one', () => {
    const nodes = () => [node('a', Task, Task), node('b', Task, Task), node('c', Task, Task)];
    const ok = compositionSuite({
      name: 'loopy',
      version: '1',
      compositions: nodes(),
      handoffs: [
        { from: 'a', to: 'b' },
        { from: 'b', to: 'c' },
        { from: 'c', to: 'b', loop: { max: 2, while: () => false } },
      ],
    });
    expect(ok.composition.handoffs[2]).toEqual({ from: 'c', to: 'b', map: null, loop: { max: 2 } });
    expect(
      declaring(() =>
        compositionSuite({
          name: 'loopy',
          version: '1',
          compositions: nodes(),
          handoffs: [
            { from: 'a', to: 'b' },
            { from: 'b', to: 'c' },
            { from: 'c', to: 'b', loop: { max: 0, while: () => false } },
          ],
        }),
      ),
    ).toContain('handoffs[2] (c → b): loop.max must be an integer of at least 1');
    expect(
      declaring(() =>
        compositionSuite({
          name: 'loopy',
          version: '1',
          compositions: nodes(),
          handoffs: [
            { from: 'a', to: 'b' },
            { from: 'b', to: 'c' },
            { from: 'a', to: 'c', loop: { max: 2, while: () => false } },
          ],
        }),
      ),
    ).toContain('loop a → c: does not close a cycle');
  });

  it('refuses an incompatible handoff, naming the handoff and the place in the payload', () => {
    const message = declaring(() =>
      compositionSuite({
        name: 'mismatch',
        version: '1',
        compositions: [node('planner', Task, Plan), node('reviewer', Work, Work)],
        handoffs: [{ from: 'planner', to: 'reviewer' }],
      }),
    );
    expect(message).toContain('compositionSuite "mismatch": handoff planner → reviewer');
    expect(message).toContain("planner's output");
    expect(message).toContain("reviewer's input");
    expect(message).toContain('done: needed, never given');
    expect(message).toContain('quality: needed, never given');
  });

  it('compares nested types, enums and optional members', () => {
    const Loose = z.object({ steps: z.array(z.object({ title: z.number() })) });
    expect(
      declaring(() =>
        compositionSuite({
          name: 'nested',
          version: '1',
          compositions: [node('a', Task, Loose), node('b', Plan, Task)],
          handoffs: [{ from: 'a', to: 'b' }],
        }),
      ),
    ).toContain('steps[].title: gives number, needs string');
    const Optional = z.object({ quality: z.enum(['good', 'poor', 'awful']).optional(), done: z.array(z.string()) });
    const message = declaring(() =>
      compositionSuite({
        name: 'enums',
        version: '1',
        compositions: [node('a', Task, Optional), node('b', Work, Task)],
        handoffs: [{ from: 'a', to: 'b' }],
      }),
    );
    expect(message).toContain('quality: needed, but may be left out');
    expect(message).toContain('quality: gives "good" | "poor" | "awful", needs "good" | "poor"');
  });

  it('a mapped handoff compares the member it hands on', () => {
    const Steps = z.array(z.object({ title: z.string() }));
    const ok = compositionSuite({
      name: 'mapped',
      version: '1',
      compositions: [node('a', Task, Plan), node('b', Steps, Task)],
      handoffs: [{ from: 'a', to: 'b', map: 'steps' }],
    });
    expect(ok.composition.handoffs[0]?.map).toBe('steps');
    expect(
      declaring(() =>
        compositionSuite({
          name: 'mapped',
          version: '1',
          compositions: [node('a', Task, Plan), node('b', Steps, Task)],
          handoffs: [{ from: 'a', to: 'b', map: 'stpes' }],
        }),
      ),
    ).toContain("handoff a → b (map stpes): a's stpes is not a member of the output");
  });

  it('refuses an unowned composition, naming it', () => {
    expect(
      declaring(() =>
        composition({ name: 'orphan', owner: ' ', version: '1', input: Task, output: Task, run: () => null as never }),
      ),
    ).toContain('composition "orphan": owner must be a non-empty string (every composition is owned');
    const [planner, executor] = pipelineNodes();
    const stripped = { ...(executor as Composition), owner: '' };
    expect(
      declaring(() =>
        compositionSuite({
          name: 'unowned',
          version: '1',
          compositions: [planner as Composition, stripped],
          handoffs: [{ from: 'planner', to: 'executor' }],
        }),
      ),
    ).toContain('compositionSuite "unowned": compositions[1] "executor": has no owner');
  });

  it('names other mistakes: unknown compositions, two inputs, compositions never reached, bad declarations', () => {
    const [planner, executor, reviewer] = pipelineNodes() as [Composition, Composition, Composition];
    expect(
      declaring(() =>
        compositionSuite({
          name: 's',
          version: '1',
          compositions: [planner, executor],
          handoffs: [{ from: 'planner', to: 'exec' }],
        }),
      ),
    ).toContain('handoffs[0] (planner → exec): to "exec" is not a composition of this suite (planner, executor)');
    expect(
      declaring(() =>
        compositionSuite({
          name: 's',
          version: '1',
          compositions: [planner, executor, reviewer, node('extra', Task, Work)],
          handoffs: [
            { from: 'planner', to: 'executor' },
            { from: 'executor', to: 'reviewer' },
            { from: 'extra', to: 'reviewer' },
          ],
          entry: 'planner',
        }),
      ),
    ).toContain('composition "reviewer": takes input from executor and extra');
    expect(
      declaring(() =>
        compositionSuite({
          name: 's',
          version: '1',
          compositions: [planner, executor, node('island', Task, Task)],
          handoffs: [{ from: 'planner', to: 'executor' }],
        }),
      ),
    ).toContain('cannot tell the entry (planner, island receive no handoff)');
    expect(
      declaring(() => compositionSuite({ name: 's', version: '1', compositions: [planner, planner], handoffs: [] })),
    ).toContain('"planner" is declared twice');
    expect(
      declaring(() =>
        composition({ name: '1st', owner: 'x', version: '1', input: Task, output: Task, run: () => null as never }),
      ),
    ).toContain('name must start with a letter');
    expect(
      declaring(() =>
        composition({
          name: 'x',
          owner: 'x',
          version: '1',
          input: { type: 'object' } as never,
          output: Task,
          run: () => null as never,
        }),
      ),
    ).toContain('composition "x": input must be a zod schema');
  });
});
