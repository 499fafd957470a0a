import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { CompositionTrace, sha256, canonicalJson } from '../../../src/model/index.js';
import { composition, compositionSuite } from '../../../src/observe/index.js';
import { fakeContext, pipeline, Task } from './pipeline.js';

const task = { goal: 'draft and send' };

describe('a Composition Suite as a subject', () => {
  it('runs the graph and records every handoff, each composition, and where it stopped', async () => {
    const response = await pipeline().respond(task, fakeContext());
    const trace = CompositionTrace.parse(response.composition);
    expect(response.reply).toEqual({ approved: true, notes: 'looks fine' });
    expect(response.failure).toBeUndefined();
    expect(trace.stopped).toEqual({ kind: 'finished' });
    expect(trace.handoffs.map((h) => [h.producer, h.consumer, h.check.result])).toEqual([
      [null, 'planner', 'valid'],
      ['planner', 'executor', 'valid'],
      ['executor', 'reviewer', 'valid'],
      ['reviewer', null, 'valid'],
    ]);
    const plan = { steps: [{ title: 'draft' }, { title: 'send' }] };
    expect(trace.handoffs[1]?.payload).toEqual({
      sha256: sha256(canonicalJson(plan)),
      bytes: canonicalJson(plan).length,
      value: plan,
      truncated: false,
    });
    expect(trace.steps.map((s) => [s.composition, s.owner, s.status, s.criteria.map((c) => c.result)])).toEqual([
      ['planner', 'planning-team', 'completed', ['met']],
      ['executor', 'execution-team', 'completed', ['met']],
      ['reviewer', 'review-team', 'completed', ['met']],
    ]);
    expect(trace.steps[1]?.criteria[0]?.note).toBe('2 of 2 steps done');
  });

  it('stops at a handoff that breaks its type, with the issues and the payload kept', async () => {
    const response = await pipeline({ planner: 'wrong-type' }).respond(task, fakeContext());
    const trace = CompositionTrace.parse(response.composition);
    expect(trace.stopped).toEqual({ kind: 'invalid-handoff', producer: 'planner', consumer: 'executor', iteration: 1 });
    expect(trace.steps.map((s) => s.composition)).toEqual(['planner']);
    expect(trace.steps[0]?.outputCheck?.result).toBe('invalid');
    expect(trace.steps[0]?.criteria).toEqual([]);
    const last = trace.handoffs.at(-1);
    expect(last?.payload.value).toEqual({ steps: 'write it' });
    expect(last?.check.result === 'invalid' && last.check.issues[0]).toMatchObject({ path: 'steps' });
    expect(response.failure?.status).toBe('subject_error');
    expect(response.failure?.message).toContain('handoff planner → executor broke its type');
    expect(response.reply).toBeNull();
  });

  it('the attempt input breaking the entry type is a harness error', async () => {
    const response = await pipeline().respond({ objective: 'x' }, fakeContext());
    expect(response.composition?.stopped).toEqual({
      kind: 'invalid-handoff',
      producer: null,
      consumer: 'planner',
      iteration: 1,
    });
    expect(response.failure?.status).toBe('harness_error');
    expect(response.composition?.steps).toEqual([]);
  });

  it('records a crash and stops there', async () => {
    const response = await pipeline({ executor: 'crash' }).respond(task, fakeContext());
    expect(response.composition?.stopped).toEqual({ kind: 'crashed', composition: 'executor', iteration: 1 });
    expect(response.composition?.steps[1]).toMatchObject({ status: 'crashed', error: 'executor ran out of disk' });
    expect(response.failure?.message).toContain(
      'composition executor (execution-team) crashed: executor ran out of disk',
    );
  });

  it('goes round a declared loop while its condition holds, at most max times', async () => {
    let rounds = 0;
    const Draft = z.object({ text: z.string(), revision: z.number().int() });
    const writer = composition({
      name: 'writer',
      owner: 'w',
      version: '1',
      input: z.union([Task, z.object({ text: z.string(), revision: z.number().int(), approved: z.boolean() })]),
      output: Draft,
      run: (input) => {
        rounds += 1;
        return {
          text: 'text' in input ? `${input.text}!` : input.goal,
          revision: 'revision' in input ? input.revision + 1 : 0,
        };
      },
    });
    const critic = composition({
      name: 'critic',
      owner: 'c',
      version: '1',
      input: Draft,
      output: z.object({ text: z.string(), revision: z.number().int(), approved: z.boolean() }),
      run: (draft) => ({ ...draft, approved: false }),
    });
    const suite = compositionSuite({
      name: 'revise',
      version: '1',
      compositions: [writer, critic],
      handoffs: [
        { from: 'writer', to: 'critic' },
        { from: 'critic', to: 'writer', loop: { max: 2, while: (out) => !(out as { approved: boolean }).approved } },
      ],
    });
    const response = await suite.respond({ goal: 'hi' }, fakeContext());
    expect(rounds).toBe(3);
    expect(response.composition?.steps.map((s) => `${s.composition}#${s.iteration}`)).toEqual([
      'writer#1',
      'critic#1',
      'writer#2',
      'critic#2',
      'writer#3',
      'critic#3',
    ]);
    expect(response.reply).toEqual({ text: 'hi!!', revision: 2, approved: false });
    expect(response.composition?.stopped.kind).toBe('finished');
  });

  it('keeps a huge payload by fingerprint only, and output that is not JSON is an invalid handoff', async () => {
    const big = 'x'.repeat(200_000);
    const Blob = z.object({ blob: z.string() });
    const make = (run: () => unknown) =>
      compositionSuite({
        name: 'big',
        version: '1',
        compositions: [
          composition({
            name: 'a',
            owner: 'o',
            version: '1',
            input: Task,
            output: Blob,
            run: run as () => { blob: string },
          }),
          composition({ name: 'b', owner: 'o', version: '1', input: Blob, output: Task, run: () => ({ goal: 'ok' }) }),
        ],
        handoffs: [{ from: 'a', to: 'b' }],
      });
    const response = await make(() => ({ blob: big })).respond({ goal: 'x' }, fakeContext());
    const handoff = response.composition?.handoffs[1];
    expect(handoff?.payload).toMatchObject({
      value: null,
      truncated: true,
      sha256: sha256(canonicalJson({ blob: big })),
    });
    expect(handoff?.check.result).toBe('valid');
    const hostile = await make(() => ({ blob: 1n })).respond({ goal: 'x' }, fakeContext());
    expect(hostile.composition?.stopped).toMatchObject({ kind: 'invalid-handoff', producer: 'a' });
    expect(hostile.failure?.message).toContain("a's output type");
  });

  it('a composition criterion that throws is an error, never unmet', async () => {
    const suite = compositionSuite({
      name: 'c',
      version: '1',
      compositions: [
        composition({
          name: 'a',
          owner: 'o',
          version: '1',
          input: Task,
          output: Task,
          run: (t) => t,
          criteria: {
            broken: () => {
              throw new Error('oops');
            },
          },
        }),
      ],
      handoffs: [],
    });
    const response = await suite.respond({ goal: 'x' }, fakeContext());
    expect(response.composition?.steps[0]?.criteria).toEqual([{ criterion: 'broken', result: 'error', note: 'oops' }]);
  });
});
