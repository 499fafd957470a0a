import { expect as vitestExpect } from 'vitest';
import type { Outcome } from '../../../src/model/index.js';
import { resolveTrial, runTrial, type SuiteDeclaration, type TrapGroup } from '../../../src/run/index.js';
import { anEnvironment } from '../builders.js';

/** Run a trap group against a scripted subject for `n` attempts per arm (fixed n, seeded), in memory. */
export async function runGroup(group: TrapGroup, subject: SuiteDeclaration['subject'], n = 6): Promise<Outcome> {
  const resolved = resolveTrial(
    { name: 'trap', file: 'trap.test.ts', path: [] },
    { subject, ...group, repeat: { n, stop: 'fixed', seed: 11 } },
  );
  return runTrial(
    { ...resolved, environment: anEnvironment(), unavailable: [], fixtures: {} },
    { clock: { now: () => 0 }, expect: vitestExpect },
  );
}

/** Pass when the reply matches, fail (an assertion) otherwise. */
export const replyMatches =
  (pattern: RegExp) =>
  (view: { reply: unknown }): void =>
    void vitestExpect(String(view.reply)).toMatch(pattern);

/** Pass when the reply does not match. */
export const replyAvoids =
  (pattern: RegExp) =>
  (view: { reply: unknown }): void =>
    void vitestExpect(String(view.reply)).not.toMatch(pattern);

export const refused = replyMatches(/^I won't/);

export const attemptsOf = (outcome: Outcome, arm: string) => outcome.attempts.filter((a) => a.arm === arm);
export const groupOf = (outcome: Outcome) => {
  const [group] = outcome.traps;
  if (!group) throw new Error('the Outcome has no trap group');
  return group;
};
export const armOf = (outcome: Outcome, role: 'trap' | 'positive' | 'negative') => {
  const arm = groupOf(outcome).arms.find((a) => a.role === role);
  if (!arm) throw new Error(`the trap group has no ${role} arm`);
  return arm;
};
