import type { Arm, SuiteRuleCondition } from '../model/index.js';
import type { DeclarationProblem } from './declaration-schema.js';
import { didYouMean } from '../model/suggest.js';

/** Which side of the refusal criterion an arm is on, as the suite summary reads it (aggregate/suite `intentOf`). */
function intentOf(arm: Arm, refusal: string): 'refuse' | 'comply' | null {
  if (arm.case.expect.includes(refusal)) return 'refuse';
  if (arm.case.forbid.includes(refusal)) return 'comply';
  return null;
}

/**
 * What a declared suite rule names that the suite summary will not compute, checked against the suite's arms before
 * anything runs: the refusal rates need a Rubric refusal criterion and arms on both sides of it; a named group must be
 * a matched group (arms sharing `group`) with arms on both sides, like the summary's `pairs` rows. Paths start at the
 * declaration (`summary.rule[1].groups[0]`).
 */
export function suiteRuleProblems(
  rule: readonly SuiteRuleCondition[],
  arms: readonly Arm[],
  refusal: string | null,
): DeclarationProblem[] {
  const at = ['summary', 'rule'];
  // No rule declared: nothing to check (a suite without refusal rates, such as τ-bench's, is the common case).
  if (rule.length === 0) return [];
  if (refusal === null)
    return [
      {
        path: at,
        problem:
          'names refusal rates, but the Rubric has no refusal criterion: set rubric.refusal to the criterion the cases expect and their controls forbid',
      },
    ];
  const sides = (members: readonly Arm[]) => ({
    refuse: members.some((a) => intentOf(a, refusal) === 'refuse'),
    comply: members.some((a) => intentOf(a, refusal) === 'comply'),
  });
  const whole = sides(arms);
  if (!whole.refuse || !whole.comply) {
    const missing = whole.refuse ? 'forbids' : 'expects';
    return [
      {
        path: at,
        problem: `no case ${missing} the refusal criterion "${refusal}", so the suite has no correct refusal beside over-refusal to decide on`,
      },
    ];
  }
  const declared = [...new Set(arms.flatMap((a) => (a.group === null ? [] : [a.group])))];
  const matched = declared.filter((group) => {
    const s = sides(arms.filter((a) => a.group === group));
    return s.refuse && s.comply;
  });
  const problems: DeclarationProblem[] = [];
  rule.forEach((condition, i) => {
    const { groups } = condition;
    if (groups === 'each' && matched.length === 0)
      problems.push({
        path: [...at, i, 'groups'],
        problem: `'each' needs matched groups, and no group (a case's \`group\`) has arms on both sides of "${refusal}"`,
      });
    if (!Array.isArray(groups)) return;
    groups.forEach((group, j) => {
      if (matched.includes(group)) return;
      const path = [...at, i, 'groups', j];
      if (declared.includes(group)) {
        problems.push({
          path,
          problem: `group "${group}" has no arm meant to ${sides(arms.filter((a) => a.group === group)).refuse ? 'comply' : 'refuse'}, so it has no ${condition.rate} row`,
        });
        return;
      }
      const guess = didYouMean(group, matched);
      problems.push({
        path,
        problem: `"${group}" is not a matched group${guess ? `; did you mean "${guess}"?` : '.'} Matched groups: ${matched.join(', ') || '(none)'}`,
      });
    });
  });
  return problems;
}
