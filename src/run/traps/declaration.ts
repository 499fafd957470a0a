import { trapKindOf, type Arm, type ArmRole, type CaseTrap } from '../../model/index.js';
import { unknownCriterion } from '../../model/suggest.js';
import { isLatinSquare } from './order.js';

/** Builds the error a declaration mistake throws (resolveTrial's, naming the trial and its file:line). */
export type DeclarationFailure = (field: string, problem: string) => Error;

const ROLE_OF: Record<CaseTrap['role'], ArmRole> = { trap: 'case', positive: 'control', negative: 'control' };

/**
 * Check an arm's trap record against the rest of its declaration: every criterion it names is in the Rubric, its
 * pressure rounds and ordered follow-ups exist, and its role matches the arm's. Returns it unchanged.
 */
export function trapOfArm(
  trap: CaseTrap,
  arm: { field: string; criteria: readonly string[]; followUps: number; role: ArmRole },
  fail: DeclarationFailure,
): CaseTrap {
  const at = `${arm.field}.trap`;
  const named: [string, string | null][] = [
    ['holds', trap.holds],
    ['honest', trap.honest],
    ['claimsCompletion', trap.claimsCompletion],
    ['refusal', trap.refusal],
    ['downstream.criterion', trap.downstream?.criterion ?? null],
    ['downstream.carries', trap.downstream?.carries ?? null],
  ];
  for (const [field, name] of named) {
    if (name !== null && !arm.criteria.includes(name))
      throw fail(`${at}.${field}`, unknownCriterion(name, arm.criteria));
  }
  if (ROLE_OF[trap.role] !== arm.role)
    throw fail(`${at}.role`, `a ${trap.role} arm has role "${ROLE_OF[trap.role]}", not "${arm.role}"`);
  const rounds = 1 + arm.followUps;
  const needed = trap.pressureRounds + (trap.downstream ? 1 : 0);
  if (needed !== rounds)
    throw fail(
      `${at}.pressureRounds`,
      `${trap.pressureRounds} pressure round(s)${trap.downstream ? ' and a downstream task' : ''} need ${needed} input(s), the arm has ${rounds}`,
    );
  if (trap.spec.kind === 'chain') {
    const rounds = trap.spec.members.reduce((sum, m) => sum + m.rounds, 0);
    if (rounds !== trap.pressureRounds)
      throw fail(
        `${at}.spec.members`,
        `its traps' rounds add up to ${rounds}, not the ${trap.pressureRounds} declared`,
      );
    if (!trap.order || trap.order.square.length !== trap.spec.members.length)
      throw fail(
        `${at}.order`,
        `a chain of ${trap.spec.members.length} traps is ordered by a Latin square of that size`,
      );
    trap.spec.members.forEach((m, i) => {
      for (const [field, name] of [
        ['holds', m.holds],
        ['carried', m.carried],
      ] as const)
        if (name !== null && !arm.criteria.includes(name))
          throw fail(`${at}.spec.members[${i}].${field}`, unknownCriterion(name, arm.criteria));
    });
  }
  if (trap.order) {
    if (!isLatinSquare(trap.order.square))
      throw fail(`${at}.order.square`, 'is not a Latin square (each row and column a permutation of 0…k−1)');
    if (trap.spec.kind !== 'chain' && trap.order.square.length !== trap.pressureRounds - 1)
      throw fail(
        `${at}.order.square`,
        `orders ${trap.order.square.length} follow-ups but the arm has ${trap.pressureRounds - 1} pressure follow-ups`,
      );
  }
  if (trap.role !== 'trap' && trap.without !== null)
    throw fail(`${at}.without`, 'only the trap arm says why a control is left out');
  return trap;
}

/**
 * Each trap group holds one trap and, for each control, an arm of that role or the trap's declared reason for its
 * absence (a trap without both controls is a declaration error unless the trial says why).
 */
export function checkTrapGroups(arms: readonly Arm[], fail: DeclarationFailure): void {
  const groups = new Map<string, { arm: Arm; trap: CaseTrap }[]>();
  for (const arm of arms) {
    const trap = arm.case.trap;
    if (trap) groups.set(trap.group, [...(groups.get(trap.group) ?? []), { arm, trap }]);
  }
  for (const [group, members] of groups) {
    const traps = members.filter((m) => m.trap.role === 'trap');
    const head = traps[0];
    if (!head || traps.length > 1)
      throw fail(`trap group "${group}"`, `needs exactly one trap arm, found ${traps.length}`);
    for (const member of members) {
      if (trapKindOf(member.trap.spec) !== trapKindOf(head.trap.spec))
        throw fail(
          `${member.arm.id}.trap.spec.kind`,
          `is "${trapKindOf(member.trap.spec)}" but its group's trap is "${trapKindOf(head.trap.spec)}"`,
        );
      // The controls carry the trap's content (a true premise beside the false one, the same nudges): seal all or none.
      if (member.arm.case.sealed !== head.arm.case.sealed)
        throw fail(
          `${member.arm.id}.sealed`,
          `seal every arm of trap group "${group}" or none: ${head.arm.case.sealed ? 'its trap is' : 'this arm is'} sealed and the other is not, and a control shows the trap's content`,
        );
    }
    for (const role of ['positive', 'negative'] as const) {
      const present = members.filter((m) => m.trap.role === role);
      const reason = head.trap.without?.[role] ?? null;
      if (present.length > 1) throw fail(`trap group "${group}"`, `has ${present.length} ${role} controls; keep one`);
      if (present.length === 1 && reason !== null)
        throw fail(`${head.arm.id}.trap.without.${role}`, `says the ${role} control is left out, but it is declared`);
      if (present.length === 0 && reason === null)
        throw fail(
          `trap group "${group}"`,
          `has no ${role} control: declare one, or say why in the trap's without.${role}`,
        );
    }
  }
}
