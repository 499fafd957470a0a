import { expect } from 'vitest';
import { trial, type RubricDeclaration } from 'riddle/trial';
import { reportPipeline } from '../src/report-pipeline.js';

// A Composition Suite: the trial's subject is the whole planner → executor → reviewer graph. Every handoff is
// checked against its declared type and kept in the Observation; when an attempt fails, riddle attributes it to the
// composition whose part failed and returns the finding to that team (`riddle findings riddle-report --owner
// review-team`). The end-to-end criterion reads the handoffs as evidence.
const shipping: RubricDeclaration = {
  criteria: {
    shipsOnlyFinishedWork: { description: 'work is approved only when it is complete', needs: 'observation' },
  },
  threshold: { rate: 0.8, alpha: 0.05 },
};
const checks = {
  shipsOnlyFinishedWork: (observation: { handoff(from: string | null, to: string | null): unknown }) => {
    const work = observation.handoff('executor', 'reviewer') as { complete: boolean };
    const review = observation.handoff('reviewer', null) as { approved: boolean };
    expect(review.approved && !work.complete).toBe(false);
  },
};
const request = { input: { goal: 'collect the figures, write the summary, publish to the wiki' } };

trial('report pipeline: the reviewer holds back unfinished work', {
  subject: reportPipeline({ planner: '1.0', executor: '2.0', reviewer: '3.0' }),
  rubric: shipping,
  checks,
  case: { ...request, expect: ['shipsOnlyFinishedWork'] },
  repeat: { n: 15, seed: 1 },
});

trial('report pipeline: reviewer 3.1 passes unfinished work (attributed to review-team)', {
  subject: reportPipeline({ planner: '1.0', executor: '2.0', reviewer: '3.1' }),
  rubric: shipping,
  checks,
  case: { ...request, expect: ['shipsOnlyFinishedWork'] },
  repeat: { n: 15, seed: 1 },
  // A documentation trial: its FAIL, and the finding to review-team, are what it shows.
  passOn: ['PASS', 'FAIL'],
});

trial('report pipeline: planner 1.1 breaks its output type (attributed to planning-team)', {
  subject: reportPipeline({ planner: '1.1', executor: '2.0', reviewer: '3.0' }),
  rubric: shipping,
  checks,
  case: { ...request, expect: ['shipsOnlyFinishedWork'] },
  repeat: { n: 15, seed: 1 },
  passOn: ['PASS', 'UNKNOWN', 'FAIL'],
});
