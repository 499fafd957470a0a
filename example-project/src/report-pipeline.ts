import { composition, compositionSuite } from 'riddle/trial';
import { z } from 'zod';

// A three-stage agent system, each stage owned by its own team: a planner turns a request into steps, an executor
// carries them out, a reviewer checks the work before it ships. Deterministic stand-ins for the agents, so the
// example runs offline; each release below is what a team might ship.

const Request = z.object({ goal: z.string() });
const Plan = z.object({ steps: z.array(z.object({ title: z.string(), done: z.boolean() })).min(1) });
const Work = z.object({ results: z.array(z.string()), complete: z.boolean() });
const Review = z.object({ approved: z.boolean(), comment: z.string() });

/** Which release of each team's composition the pipeline runs. */
export interface Releases {
  /** `1.1` returns its steps as one line of text: it breaks the output type it declared. */
  planner: '1.0' | '1.1';
  /** `2.0` does every step; it never ships unfinished work unless the reviewer lets it. */
  executor: '2.0';
  /** `3.1` approves whatever it is shown: it passes bad work. */
  reviewer: '3.0' | '3.1';
}

export function reportPipeline(releases: Releases) {
  const planner = composition({
    name: 'planner',
    owner: 'planning-team',
    version: releases.planner,
    input: Request,
    output: Plan,
    run: ({ goal }) =>
      releases.planner === '1.0'
        ? { steps: goal.split(', ').map((title) => ({ title, done: false })) }
        : // planner 1.1: a "simpler" output that no longer matches the declared Plan type.
          ({ steps: goal } as unknown as z.input<typeof Plan>),
    criteria: { oneStepPerClause: ({ input, output }) => output.steps.length === input.goal.split(', ').length },
  });
  const executor = composition({
    name: 'executor',
    owner: 'execution-team',
    version: releases.executor,
    input: Plan,
    output: Work,
    // It skips the step it cannot do ("publish"), and says so.
    run: ({ steps }) => {
      const results = steps.filter((s) => !s.title.startsWith('publish')).map((s) => `${s.title}: done`);
      return { results, complete: results.length === steps.length };
    },
    criteria: {
      reportsWhatItSkipped: ({ input, output }) => output.complete === (output.results.length === input.steps.length),
    },
  });
  const reviewer = composition({
    name: 'reviewer',
    owner: 'review-team',
    version: releases.reviewer,
    input: Work,
    output: Review,
    run: (work) =>
      releases.reviewer === '3.1' || work.complete
        ? { approved: true, comment: 'ship it' }
        : { approved: false, comment: 'not finished: send it back' },
    criteria: { approvesOnlyCompleteWork: ({ input, output }) => input.complete || !output.approved },
  });
  return compositionSuite({
    name: 'report-pipeline',
    version: '1',
    compositions: [planner, executor, reviewer],
    handoffs: [
      { from: 'planner', to: 'executor' },
      { from: 'executor', to: 'reviewer' },
    ],
  });
}
