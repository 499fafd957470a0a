import path from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  ChatConversation,
  DatasetError,
  JsonValue,
  loadJson,
  type DatasetIssue,
  type ExpectedAction,
  type RecordedConversation,
  type RecordedReward,
} from 'riddle/core';
import { z } from 'zod';

export const DATASET_FILE = path.join(
  path.dirname(fileURLToPath(import.meta.url)),
  '..',
  'datasets',
  'tau-bench',
  'gpt-4o-airline.json',
);

const Action = z.object({ name: z.string().min(1), kwargs: z.record(z.string(), JsonValue) });
const Flag = z.union([z.number(), z.boolean()]).transform(Number);

/**
 * How τ-bench scored a run (tau_bench/envs/base.py, `calculate_reward`): `r_actions` says whether the final database
 * hash equals the ground truth's; for tasks with expected outputs the record keeps only `r_outputs` (each output found
 * in the agent's replies or not). Null when the run ended without a score (the turn limit), its reward then 0.
 */
const RewardInfo = z
  .object({
    reward: z.number(),
    info: z.union([
      z.object({ r_actions: Flag, gt_data_hash: z.string() }),
      z.object({ r_outputs: Flag, outputs: z.record(z.string(), z.boolean()) }),
    ]),
    actions: z.array(Action),
  })
  .nullable();

const Run = z.object({
  task_id: z.number().int().min(0),
  trial: z.number().int().min(0),
  reward: z.number(),
  traj: ChatConversation,
  info: z.object({
    task: z.object({
      user_id: z.string(),
      instruction: z.string(),
      actions: z.array(Action),
      outputs: z.array(z.string()),
    }),
    reward_info: RewardInfo,
  }),
});
type Run = z.output<typeof Run>;

export interface TauTask {
  /** Case id: `task-N`. */
  id: string;
  taskId: number;
  userId: string;
  /** What the simulated user was told to do: the same for every trial of the task. */
  instruction: string;
  /** The ground-truth actions (reads and writes) a correct agent makes. */
  actions: ExpectedAction[];
  outputs: string[];
  /** The recorded trials in trial order: attempt i replays trial i. */
  trials: { trial: number; conversation: RecordedConversation; reward: RecordedReward }[];
}

const caseIdOf = (taskId: number) => `task-${taskId}`;

function basisOf(info: Run['info']['reward_info']): string | null {
  if (info === null) return null;
  if ('r_actions' in info.info)
    return `final database ${info.info.r_actions === 1 ? 'equals' : 'differs from'} the ground truth's (hash ${info.info.gt_data_hash.slice(0, 12)}…)`;
  const outputs = Object.entries(info.info.outputs).map(
    ([output, found]) => `${output} ${found ? 'stated' : 'not stated'}`,
  );
  return `expected outputs: ${outputs.join(', ')}`;
}

/**
 * Load the recorded runs and group them by task. Every task needs the same trials (0…n−1, once each) with the same
 * instruction and ground-truth actions; a record whose reward and `reward_info.reward` disagree is an error. A run
 * without `reward_info` keeps its recorded reward (0) with no basis: the data's README says it hit the turn limit.
 */
export function loadTauBench(file: string = DATASET_FILE): TauTask[] {
  const runs = loadJson(file, Run);
  const issues: DatasetIssue[] = [];
  const issue = (index: number, column: string | null, message: string) =>
    issues.push({ file, line: null, row: index + 1, column, message });
  const tasks = new Map<number, TauTask>();
  for (const [index, run] of runs.entries()) {
    const info = run.info.reward_info;
    if (info !== null && info.reward !== run.reward)
      issue(index, 'info.reward_info.reward', `${info.reward}, but the record's reward is ${run.reward}`);
    const actions = run.info.task.actions.map((a) => ({ tool: a.name, arguments: a.kwargs }));
    let task = tasks.get(run.task_id);
    if (task === undefined) {
      task = {
        id: caseIdOf(run.task_id),
        taskId: run.task_id,
        userId: run.info.task.user_id,
        instruction: run.info.task.instruction,
        actions,
        outputs: run.info.task.outputs,
        trials: [],
      };
      tasks.set(run.task_id, task);
    } else if (
      task.instruction !== run.info.task.instruction ||
      JSON.stringify(task.actions) !== JSON.stringify(actions)
    )
      issue(index, 'info.task', `task ${run.task_id} is described differently in an earlier record`);
    if (task.trials.some((t) => t.trial === run.trial)) {
      issue(index, 'trial', `task ${run.task_id} trial ${run.trial} repeats`);
      continue;
    }
    task.trials.push({
      trial: run.trial,
      conversation: run.traj,
      reward: {
        reward: run.reward,
        basis: basisOf(info),
        calls: run.traj.rounds.flatMap((r) => r.toolCalls.map((c) => ({ tool: c.tool, arguments: c.arguments }))),
      },
    });
  }
  const all = [...tasks.values()].sort((a, b) => a.taskId - b.taskId);
  const n = Math.max(...all.flatMap((t) => t.trials.map((x) => x.trial + 1)));
  for (const task of all) {
    task.trials.sort((a, b) => a.trial - b.trial);
    const missing = Array.from({ length: n }, (_, i) => i).filter((i) => !task.trials.some((t) => t.trial === i));
    if (missing.length > 0)
      issues.push({
        file,
        line: null,
        row: null,
        column: 'trial',
        message: `task ${task.taskId} lacks trial ${missing.join(', ')}; every task needs trials 0…${n - 1}`,
      });
  }
  if (issues.length > 0) throw new DatasetError(issues);
  return all;
}
