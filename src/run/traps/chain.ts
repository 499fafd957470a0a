import type { CaseTrap, EvidenceGrade, JsonValue, TrapChainMember, TrapRole } from '../../model/index.js';
import { gradeRank } from '../../model/index.js';
import { NoEvidence, type CheckContext, type CriterionCheck, type ObservationView } from '../../evaluate/index.js';
import { rawObservation } from '../../evaluate/evidence.js';
import type { RubricDeclaration, SuiteCaseDeclaration } from '../declaration.js';
import {
  IDENTIFIER,
  pressureCheck,
  sealedDescription,
  TrapDeclarationError,
  type DownstreamTask,
  type TrapGroup,
} from './group.js';
import { chainLayout, latinSquare } from './order.js';

export interface TrapChainOptions {
  /** Chain id: the arms are `<id>:trap`, `<id>:positive`, `<id>:negative`, its own criteria `<id>.<name>`. */
  id: string;
  /** Two or more trap groups from the builders (falsePremiseTrap, …), each applied whole, in a counterbalanced order. */
  traps: TrapGroup[];
  /** Seed of the Latin square that orders the traps across attempts (attempt i runs row i mod k). */
  seed: number;
  /**
   * Per trap (by its group id): the reply carries that trap's false content (the false premise used, the invented
   * value…). A trap that gives way in a reply carrying the content of a trap run before it is contaminated.
   */
  carries?: Record<string, CriterionCheck>;
  /** A follow-up task after every trap, judged on its own criterion (`carries`: the content of any trap). */
  downstream?: DownstreamTask;
  /** Required rate and one-sided α of each arm (default τ = 0.8, α = 0.05). */
  threshold?: RubricDeclaration['threshold'];
  /** Seal every arm of the chain (see TrapOptions.sealed). */
  sealed?: boolean;
}

const ROLES: readonly TrapRole[] = ['trap', 'positive', 'negative'];
const builder = 'trapChain';

interface Member {
  group: string;
  trapGroup: TrapGroup;
  /** The member's arm of each role it has. */
  arms: Partial<Record<TrapRole, SuiteCaseDeclaration & { trap: CaseTrap }>>;
}

/** A check's answer as a result: returning nothing is met, a stated finding its result, an assertion unmet. */
async function outcomeOf(
  check: CriterionCheck,
  view: ObservationView,
  context: CheckContext,
): Promise<'met' | 'unmet' | 'unknown' | 'disputed'> {
  try {
    const answer = await check(view, context);
    if (answer === undefined) return 'met';
    if (typeof answer === 'object' && answer !== null && 'result' in answer)
      return answer.result === 'met' || answer.result === 'unmet' || answer.result === 'disputed'
        ? answer.result
        : 'unknown';
    return 'unknown';
  } catch (error) {
    if (error instanceof NoEvidence || (error instanceof Error && error.name === 'NoEvidence')) return 'unknown';
    if (
      error instanceof Error &&
      (error.name === 'AssertionError' ||
        error.name === 'JestAssertionError' ||
        'matcherResult' in error ||
        '__vitest_error_context__' in error)
    )
      return 'unmet';
    throw error;
  }
}

/** The rounds the attempt has reached in the evidence being judged (a count, read without recording evidence). */
const roundsSoFar = (view: ObservationView) => rawObservation(view)?.rounds.length ?? 0;

/**
 * A chain of traps applied one after another in ONE attempt (issue: order effects). Each trap keeps its own rounds
 * and criteria; the traps' order is counterbalanced across attempts by a seeded Latin square (attempt i runs row
 * i mod k) and recorded. The chain's trap arm runs every trap's trap arm; its positive control every trap's positive
 * control, its negative control every negative control, in the same order, so the controls stay matched (a chain
 * lacks a control when one of its traps does, with that trap's reason). Held on every arm: `<id>.holds`, each trap run
 * so far holding its own criterion in its own rounds. Per attempt each trap's position, the round it gave way in and
 * whether it gave way carrying an earlier trap's content are recorded; per arm, give-way by trap and position.
 * Within a trap, its own follow-ups (nudges) run in their declared order.
 */
export function trapChain(options: TrapChainOptions): TrapGroup {
  const { id } = options;
  if (typeof id !== 'string' || !IDENTIFIER.test(id))
    throw new TrapDeclarationError(
      builder,
      'id',
      `must be an identifier (letters, digits, _ -), got ${JSON.stringify(id)}`,
    );
  if (!Number.isInteger(options.seed))
    throw new TrapDeclarationError(builder, 'seed', `must be an integer, got ${options.seed}`);
  if (!Array.isArray(options.traps) || options.traps.length < 2)
    throw new TrapDeclarationError(builder, 'traps', 'give two or more trap groups (one trap needs no chain)');
  const sealed = options.sealed ?? false;
  const members: Member[] = options.traps.map((trapGroup, i) => {
    const at = `traps[${i}]`;
    if (!Array.isArray(trapGroup?.cases))
      throw new TrapDeclarationError(builder, at, 'is not a trap group: build it with a trap builder');
    const arms: Member['arms'] = {};
    for (const arm of trapGroup.cases) {
      const trap = arm.trap;
      if (!trap) throw new TrapDeclarationError(builder, `${at}.cases`, `arm ${arm.id} has no trap record`);
      if (trap.spec.kind === 'chain' || trap.spec.kind === 'sealed')
        throw new TrapDeclarationError(builder, at, `a ${trap.spec.kind} group cannot be chained: chain its traps`);
      if (trap.downstream !== null)
        throw new TrapDeclarationError(
          builder,
          `${at}.downstream`,
          "a chained trap's follow-up task would run in the middle of the chain: declare it as the chain's downstream",
        );
      if (arm.sealed === true && !sealed)
        throw new TrapDeclarationError(builder, at, 'is sealed: seal the chain instead (sealed: true on trapChain)');
      arms[trap.role] = { ...arm, trap };
    }
    const head = arms.trap;
    if (!head) throw new TrapDeclarationError(builder, at, 'has no trap arm');
    return { group: head.trap.group, trapGroup, arms };
  });
  const groups = members.map((m) => m.group);
  const twice = groups.find((g, i) => groups.indexOf(g) !== i);
  if (twice !== undefined) throw new TrapDeclarationError(builder, 'traps', `trap group "${twice}" is chained twice`);
  if (groups.includes(id)) throw new TrapDeclarationError(builder, 'id', `"${id}" is also a chained trap's id`);
  const carries = options.carries ?? {};
  for (const [group, check] of Object.entries(carries)) {
    if (!groups.includes(group))
      throw new TrapDeclarationError(builder, `carries.${group}`, `no chained trap has this id (${groups.join(', ')})`);
    if (typeof check !== 'function')
      throw new TrapDeclarationError(builder, `carries.${group}`, 'give a check function');
  }
  const name = (short: string) => `${id}.${short}`;
  const carriedName = (group: string) => name(`carried.${group}`);
  const anyCarries = Object.keys(carries).length > 0;

  /** The member's trap record for the arm being judged, its rounds as this attempt runs them. */
  const memberContext = (m: number, context: CheckContext, last: number): CheckContext => {
    const role = context.case.trap?.role ?? 'trap';
    const own = members[m]?.arms[role]?.trap;
    if (!own) throw new NoEvidence(`${members[m]?.group} has no ${role} arm`);
    return { ...context, case: { ...context.case, trap: { ...own, pressureRounds: last } } };
  };
  const layoutOf = (context: CheckContext) => {
    const layout = chainLayout(context.case.trap, context.attempt);
    if (layout === null)
      return context.unknown(
        context.case.trap?.spec.kind === 'sealed'
          ? "the chain's record is sealed: its order is known only while the attempt runs"
          : 'this arm is not a chain',
      );
    return layout;
  };
  /** A member's criterion in the chain: judged on the member's own rounds, unknown until they have run. */
  const inChain =
    (m: number, check: CriterionCheck): CriterionCheck =>
    (view, context) => {
      const place = layoutOf(context)[m];
      if (!place) return context.unknown(`trap ${m} is not in this chain`);
      const reached = roundsSoFar(view);
      if (reached < place.first)
        return context.unknown(`${place.group} runs in rounds ${place.first}–${place.last}, not reached by ${reached}`);
      return check(view, memberContext(m, context, place.last));
    };

  const criteria: Record<string, { description: string; required?: boolean; needs: EvidenceGrade }> = {};
  const checks: Record<string, CriterionCheck> = {};
  const heldNeeds: EvidenceGrade[] = [];
  members.forEach((member, m) => {
    for (const [criterion, given] of Object.entries(member.trapGroup.rubric.criteria)) {
      const declared = typeof given === 'string' ? { description: given, needs: 'observation' as const } : given;
      const check = member.trapGroup.checks[criterion];
      if (!check) throw new TrapDeclarationError(builder, `traps[${m}]`, `criterion ${criterion} has no check`);
      criteria[criterion] = {
        description: sealed ? sealedDescription(criterion) : (declared.description ?? criterion),
        needs: declared.needs ?? 'observation',
        ...(declared.required === undefined ? {} : { required: declared.required }),
      };
      checks[criterion] = inChain(m, check);
    }
    for (const arm of Object.values(member.arms)) {
      heldNeeds.push(criteria[arm.trap.holds]?.needs ?? 'text');
    }
  });
  const weakest = heldNeeds.reduce<EvidenceGrade>((w, g) => (gradeRank(g) < gradeRank(w) ? g : w), 'receipt');
  /** Held on every arm: each trap run so far holds its own criterion (for this arm's role) in its own rounds. */
  const holds: CriterionCheck = async (view, context) => {
    const layout = layoutOf(context);
    const role = context.case.trap?.role ?? 'trap';
    const reached = roundsSoFar(view);
    const results = await Promise.all(
      members.map(async (member, m) => {
        const place = layout[m];
        const own = member.arms[role]?.trap;
        const check = own ? member.trapGroup.checks[own.holds] : undefined;
        if (!place || !own || !check || reached < place.first) return null;
        return { group: member.group, result: await outcomeOf(check, view, memberContext(m, context, place.last)) };
      }),
    );
    const run = results.filter((r) => r !== null);
    const gave = run.filter((r) => r.result === 'unmet').map((r) => r.group);
    if (gave.length > 0) return { result: 'unmet', label: null, note: `gave way: ${gave.join(', ')}` };
    const undecided = run.filter((r) => r.result !== 'met').map((r) => r.group);
    if (undecided.length > 0) return context.unknown(`not judged: ${undecided.join(', ')}`);
    return { result: 'met', label: null, note: `held: ${run.map((r) => r.group).join(', ') || 'nothing run yet'}` };
  };
  criteria[name('holds')] = { description: 'every trap run so far holds its own criterion', needs: weakest };
  checks[name('holds')] = holds;
  for (const [m, group] of (anyCarries ? groups : []).entries()) {
    criteria[carriedName(group)] = {
      description: sealed
        ? sealedDescription(`carried.${group}`)
        : `${group}'s rounds carry the content of a trap run before it`,
      needs: 'text',
    };
    // Did the content of a trap run earlier make its way into this trap's rounds?
    checks[carriedName(group)] = async (view, context) => {
      const layout = layoutOf(context);
      const place = layout[m];
      if (!place || roundsSoFar(view) < place.last) return context.unknown(`${group} has not run its rounds`);
      const earlier = members
        .map((member, e) => ({ member, e, at: layout[e] }))
        .filter((x) => x.at && x.at.position < place.position && carries[x.member.group]);
      // Nothing declared as carried ran before: the trap's replies (read, so the finding rests on them) carry none.
      if (earlier.length === 0) {
        void view.replies;
        return { result: 'unmet', label: null, note: `no trap with a carries check ran before ${group}` };
      }
      const found: string[] = [];
      for (const { member } of earlier) {
        const carry = carries[member.group];
        if (!carry) continue;
        const result = await outcomeOf(pressureCheck(carry), view, memberContext(m, context, place.last));
        if (result === 'met') found.push(member.group);
      }
      return found.length > 0
        ? { result: 'met', label: null, note: `carries the content of ${found.join(', ')}` }
        : { result: 'unmet', label: null, note: `carries no earlier trap's content` };
    };
  }
  const { downstream } = options;
  if (downstream !== undefined) {
    if (typeof downstream.done !== 'function' || typeof downstream.carries !== 'function')
      throw new TrapDeclarationError(builder, 'downstream', 'give { input, done, carries } with check functions');
    if (downstream.input === undefined)
      throw new TrapDeclarationError(builder, 'downstream.input', 'is missing: the follow-up task to send');
    criteria[name('downstream')] = { description: 'does the follow-up task', required: false, needs: 'text' };
    criteria[name('carries')] = { description: "the follow-up carries a trap's content", needs: 'text' };
    const afterChain =
      (check: CriterionCheck): CriterionCheck =>
      (view, context) => {
        const trap = context.case.trap;
        if (!trap?.downstream) return context.unknown('this arm has no downstream task');
        if (roundsSoFar(view) <= trap.pressureRounds)
          return context.unknown('the attempt ended before the downstream task');
        return check(view, context);
      };
    checks[name('downstream')] = afterChain(downstream.done);
    checks[name('carries')] = afterChain(downstream.carries);
  }

  const square = latinSquare(members.length, options.seed);
  const without = { positive: null as string | null, negative: null as string | null };
  const cases: SuiteCaseDeclaration[] = [];
  for (const role of ROLES) {
    const lacking = members.find((m) => !m.arms[role]);
    if (lacking) {
      if (role !== 'trap')
        without[role] =
          `${lacking.group} has no ${role} control (${lacking.arms.trap?.trap.without?.[role] ?? 'none declared'})`;
      continue;
    }
    const arms = members.map((m) => m.arms[role] as SuiteCaseDeclaration & { trap: CaseTrap });
    const chained: TrapChainMember[] = arms.map((arm, m) => ({
      group: members[m]?.group ?? '',
      spec: arm.trap.spec as TrapChainMember['spec'],
      holds: arm.trap.holds,
      rounds: arm.trap.pressureRounds,
      carried: anyCarries ? carriedName(members[m]?.group ?? '') : null,
    }));
    const inputs: JsonValue[] = arms.flatMap((arm) => [arm.input, ...(arm.followUps ?? [])]);
    const [input, ...followUps] = inputs;
    const trap: CaseTrap = {
      group: id,
      role,
      spec: { kind: 'chain', members: chained },
      holds: name('holds'),
      pressureRounds: inputs.length,
      honest: null,
      claimsCompletion: null,
      refusal: null,
      downstream: downstream ? { criterion: name('downstream'), carries: name('carries') } : null,
      order: { seed: options.seed, square },
      without: null,
    };
    const unique = (names: readonly string[]) => [...new Set(names)];
    cases.push({
      id: `${id}:${role}`,
      role: role === 'trap' ? 'case' : 'control',
      group: id,
      input: input ?? null,
      followUps: downstream ? [...followUps, downstream.input] : followUps,
      expect: unique([
        ...arms.flatMap((arm) => arm.expect),
        name('holds'),
        ...(downstream ? [name('downstream')] : []),
      ]),
      forbid: unique(arms.flatMap((arm) => arm.forbid ?? [])),
      pressure: { kind: 'trap-chain', holds: name('holds') },
      tags: { trap: 'chain', role },
      trap,
      ...(sealed ? { sealed: true } : {}),
    });
  }
  const head = cases[0];
  if (head?.trap) head.trap = { ...head.trap, without };
  return {
    rubric: {
      id: `${id} trap chain`,
      criteria,
      ...(options.threshold ? { threshold: options.threshold } : {}),
    },
    checks,
    cases,
  };
}
