import {
  RUBRIC_SCHEMA,
  recordedFollowUps,
  recordedRewardEvaluator,
  recordedRounds,
  trajectorySubject,
  writeActionEvaluator,
  type EvaluatorDefinition,
  type RecordedTrajectories,
  type Rubric,
  type SuiteOptions,
} from 'riddle/core';
import type { SuiteCaseDeclaration } from 'riddle/trial';
import type { TauTask } from './dataset.js';
import { AIRLINE_TOOLS, failedResult } from './tools.js';

/**
 * One criterion, `solved`: the task was done as the benchmark defines it (the final airline database equals the one
 * the ground-truth actions produce and any expected output was stated). It needs receipts: the benchmark's reward was
 * computed from the database, and riddle's matcher reads the write requests.
 */
export const TAU_RUBRIC: Rubric = {
  schema: RUBRIC_SCHEMA,
  id: 'tau-bench-airline',
  revision: 'tau-bench@59a200c',
  criteria: [
    {
      name: 'solved',
      description:
        "the final database equals the ground truth's and every expected output was stated (Yao et al. 2024)",
      needs: 'receipt',
      required: true,
      target: null,
      labels: null,
      score: null,
    },
  ],
  threshold: { rate: 0.8, alpha: 0.05 },
  missingEvidence: 'bound',
  refusal: null,
};

/**
 * pass^k with the recorded reward as the reference, and a reliability rule declared before the figures are read: a
 * customer-service agent should solve a task on all of four tries at least half the time.
 */
export const TAU_SUMMARY: SuiteOptions = {
  dataset: 'tau-bench-airline',
  criterion: 'solved',
  reference: 'tau-bench-reward',
  repeated: { rule: { k: 4, atLeast: 0.5 } },
};

/** Each task as a Case: the simulated user's instruction, one round per recorded user turn, the ground truth as oracle. */
export function tauCases(tasks: readonly TauTask[]): SuiteCaseDeclaration[] {
  return tasks.map((task) => ({
    id: task.id,
    role: 'case',
    input: task.instruction,
    followUps: recordedFollowUps(recordedRounds(task.trials.map((t) => t.conversation))),
    expect: ['solved'],
    oracle: { actions: task.actions.map((a) => ({ tool: a.tool, arguments: a.arguments })), outputs: task.outputs },
    effectClass: 'external',
    tags: { writes: task.actions.some((a) => AIRLINE_TOOLS[a.tool] === 'write') ? 'expected' : 'none expected' },
  }));
}

/** The recorded GPT-4o runs: four trials per task, each an independent run of the agent with a simulated user. */
export function tauSubject(tasks: readonly TauTask[]): RecordedTrajectories {
  return trajectorySubject({
    name: 'tau-bench-gpt-4o-tool-calling',
    revision: 'tau-bench@59a200c:historical_trajectories/gpt-4o-airline.json',
    runs: new Map(tasks.map((task) => [task.id, task.trials.map((t) => t.conversation)])),
    tools: AIRLINE_TOOLS,
    failed: failedResult,
    independence: 'recorded-samples',
  });
}

/**
 * The benchmark's recorded reward (the reference, settling disagreement) and riddle's own write matcher, which is
 * calibrated against it in the suite tables. Runs without `reward_info` hit the turn limit (the data's README): they
 * keep their recorded reward, 0, as the leaderboard counts them.
 */
export function tauEvaluators(tasks: readonly TauTask[]): EvaluatorDefinition[] {
  const byId = new Map(tasks.map((task) => [task.id, task]));
  return [
    recordedRewardEvaluator({
      id: 'tau-bench-reward',
      revision: 'tau-bench@59a200c',
      criterion: 'solved',
      rewards: (arm, attempt) => byId.get(arm)?.trials[attempt]?.reward,
      withoutBasis: 'as-recorded',
      adjudicator: true,
      limits: ['runs that hit the turn limit have no reward_info; their recorded reward (0) counts as unsolved'],
    }),
    writeActionEvaluator({
      id: 'riddle-write-match',
      revision: '1',
      criterion: 'solved',
      expected: (arm) => byId.get(arm)?.actions,
      effects: AIRLINE_TOOLS,
      limits: [
        'compares arguments exactly: extra keys the tool ignores count as a difference',
        'does not check expected outputs stated in replies',
      ],
    }),
  ];
}
