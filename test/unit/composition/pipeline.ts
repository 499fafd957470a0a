import { z } from 'zod';
import {
  composition,
  compositionSuite,
  type AttemptContext,
  type Composition,
  type CompositionSuiteOptions,
} from '../../../src/observe/index.js';

export const Task = z.object({ goal: z.string() });
export const Plan = z.object({ steps: z.array(z.object({ title: z.string() })).min(1) });
export const Work = z.object({ done: z.array(z.string()), quality: z.enum(['good', 'poor']) });
export const Review = z.object({ approved: z.boolean(), notes: z.string() });

/** How each stage of the fake pipeline behaves in one version. */
export interface Behaviour {
  planner?: 'good' | 'empty-steps' | 'wrong-type' | 'crash';
  executor?: 'good' | 'poor' | 'crash';
  reviewer?: 'strict' | 'lenient' | 'crash';
}

export function pipelineNodes(behaviour: Behaviour = {}): Composition[] {
  const planner = composition({
    name: 'planner',
    owner: 'planning-team',
    version: `planner-${behaviour.planner ?? 'good'}`,
    input: Task,
    output: Plan,
    run: (task) => {
      if (behaviour.planner === 'crash') throw new Error('planner fell over');
      // A planner version that breaks its own output type, as a buggy release would.
      if (behaviour.planner === 'wrong-type') return { steps: 'write it' } as unknown as z.input<typeof Plan>;
      if (behaviour.planner === 'empty-steps') return { steps: [] };
      return { steps: task.goal.split(' and ').map((title) => ({ title })) };
    },
    criteria: { atLeastOneStep: ({ output }) => output.steps.length > 0 },
  });
  const executor = composition({
    name: 'executor',
    owner: 'execution-team',
    version: `executor-${behaviour.executor ?? 'good'}`,
    input: Plan,
    output: Work,
    run: (plan) => {
      if (behaviour.executor === 'crash') throw new Error('executor ran out of disk');
      const poor = behaviour.executor === 'poor';
      return {
        done: plan.steps.slice(0, poor ? 1 : undefined).map((s) => s.title),
        quality: poor ? ('poor' as const) : ('good' as const),
      };
    },
    criteria: {
      everyStepDone: ({ input, output }) => ({
        met: output.done.length === input.steps.length,
        note: `${output.done.length} of ${input.steps.length} steps done`,
      }),
    },
  });
  const reviewer = composition({
    name: 'reviewer',
    owner: 'review-team',
    version: `reviewer-${behaviour.reviewer ?? 'strict'}`,
    input: Work,
    output: Review,
    run: (work) => {
      if (behaviour.reviewer === 'crash') throw new Error('reviewer timed out');
      const approved = behaviour.reviewer === 'lenient' ? true : work.quality === 'good';
      return { approved, notes: approved ? 'looks fine' : 'redo it' };
    },
    criteria: {
      rejectsPoorWork: ({ input, output }) => input.quality === 'good' || !output.approved,
    },
  });
  return [planner, executor, reviewer];
}

export function pipeline(behaviour: Behaviour = {}, overrides: Partial<CompositionSuiteOptions> = {}) {
  return compositionSuite({
    name: 'pipeline',
    version: '1',
    compositions: pipelineNodes(behaviour),
    handoffs: [
      { from: 'planner', to: 'executor' },
      { from: 'executor', to: 'reviewer' },
    ],
    ...overrides,
  });
}

/** An attempt context for running a subject outside the scheduler: no tools, no workspace. */
export function fakeContext(overrides: Partial<AttemptContext> = {}): AttemptContext {
  return {
    arm: 'case',
    attempt: 0,
    round: 1,
    seed: 1,
    workspace: null,
    signal: new AbortController().signal,
    stop: { timeoutMs: 1000, maxOutputBytes: 1024, maxRounds: 1 },
    effectClass: 'read',
    history: [],
    tools: {
      call: async (tool) => {
        throw new Error(`no tool ${tool}`);
      },
    },
    mcp: null,
    recordReceipt: () => {},
    ...overrides,
  };
}
