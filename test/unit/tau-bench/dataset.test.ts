import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { DATASET_FILE, loadTauBench } from '../../../example-project/tau-bench/dataset.js';
import { airlineChangeClaims } from '../../../example-project/tau-bench/claims.js';

type RawRun = { task_id: number; trial: number; reward: number; traj: unknown[]; info: { reward_info: unknown } };

/** The released file with `edit` applied to its records, written to a temporary folder. */
function edited(edit: (runs: RawRun[]) => RawRun[]): string {
  const runs = JSON.parse(readFileSync(DATASET_FILE, 'utf8')) as RawRun[];
  const file = path.join(mkdtempSync(path.join(os.tmpdir(), 'riddle-tau-')), 'runs.json');
  writeFileSync(file, JSON.stringify(edit(runs)));
  return file;
}

describe('τ-bench airline dataset', () => {
  test('50 tasks of 4 trials in trial order; 5 rewards recorded without their basis', () => {
    const tasks = loadTauBench();
    expect(tasks).toHaveLength(50);
    expect(tasks.every((t) => t.trials.map((x) => x.trial).join() === '0,1,2,3')).toBe(true);
    const withoutBasis = tasks.flatMap((t) =>
      t.trials.filter((x) => x.reward.basis === null).map((x) => `${t.id}#${x.trial}`),
    );
    expect(withoutBasis).toEqual(['task-2#1', 'task-9#2', 'task-9#3', 'task-33#0', 'task-46#3']);
    expect(tasks.flatMap((t) => t.trials).filter((x) => x.reward.basis === null && x.reward.reward !== 0)).toEqual([]);
  });

  test('a malformed conversation is named by file, row and message', () => {
    const file = edited((runs) => {
      const [first] = runs;
      if (first) first.traj.push({ role: 'tool', tool_call_id: 'call_nobody', content: '' });
      return runs;
    });
    expect(() => loadTauBench(file)).toThrow(
      /row 1 column "traj\.\d+\.tool_call_id": call_nobody answers no tool call/,
    );
  });

  test('a repeated trial, a missing one and a reward that disagrees with its reward_info are each reported', () => {
    const file = edited((runs) => {
      const first = runs[0] as RawRun;
      const scored = runs.findIndex((run) => run.info.reward_info !== null);
      return [
        ...runs
          .filter((run) => !(run.task_id === 7 && run.trial === 2))
          .map((run, i) => (i === scored ? { ...run, reward: 1 - run.reward } : run)),
        structuredClone(first),
      ];
    });
    let message = '';
    try {
      loadTauBench(file);
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toContain('3 problems');
    expect(message).toMatch(/row \d+ column "info\.reward_info\.reward": [01], but the record's reward is [01]/);
    // The first record (task 0, trial 0) copied to the end, as row 200.
    expect(message).toContain('row 200 column "trial": task 0 trial 0 repeats');
    expect(message).toContain('column "trial": task 7 lacks trial 2; every task needs trials 0…3');
  });

  test('the airline claims: stated changes, not questions, conditions or promises', () => {
    const found = (reply: string) => airlineChangeClaims.extract(reply).map((c) => c.target);
    expect(found('Your reservation ABC123 has been successfully cancelled.')).toEqual(['cancel_reservation']);
    expect(found('Two checked bags have been added to your reservation.')).toEqual(['update_reservation_baggages']);
    expect(found('You are now booked on flight HAT041.')).toEqual(['book_reservation|update_reservation_flights']);
    expect(found("I've issued a $100 certificate to your account.")).toEqual(['send_certificate']);
    expect(found('Once your reservation has been cancelled, the refund follows.')).toEqual([]);
    expect(found('Has your reservation been cancelled?')).toEqual([]);
    expect(found('I will cancel the reservation for you.')).toEqual([]);
  });
});
