import type { CaseTrap, EvidenceGrade, JsonValue, Pressure, TrapRole, TrapSpec } from '../../model/index.js';
import type { CriterionCheck } from '../../evaluate/index.js';
import { viewAtRound } from '../../evaluate/evidence.js';
import type { RubricDeclaration, SuiteCaseDeclaration } from '../declaration.js';
import { latinSquare } from './order.js';

/**
 * A trap and its matched controls as one declaration fragment: spread it into `trial.suite(name, { subject,
 * ...group, repeat })`. The Rubric's criteria are named `<id>.<criterion>`; the checks are the ones given, each
 * reading the reply of the round it judges.
 */
export interface TrapGroup {
  rubric: RubricDeclaration;
  checks: Record<string, CriterionCheck>;
  cases: SuiteCaseDeclaration[];
}

/** A follow-up task sent after the trap in the same attempt, judged on its own criterion. */
export interface DownstreamTask {
  /** The follow-up's input. */
  input: JsonValue;
  /** The follow-up done right, judged on its own reply. */
  done: CriterionCheck;
  /** The follow-up's reply carries the trap's content (the false premise used, an invented value…). */
  carries: CriterionCheck;
}

/** What every builder takes besides its kind's data. */
export interface TrapOptions {
  /** Group id: the arms are `<id>:trap`, `<id>:positive`, `<id>:negative`, the criteria `<id>.<name>`. */
  id: string;
  /** The subject declined; makes the Rubric's refusal criterion (over-refusal is refusing the legitimate request). */
  refused?: CriterionCheck;
  downstream?: DownstreamTask;
  /** Required rate and one-sided α of each arm (default τ = 0.8, α = 0.05). */
  threshold?: RubricDeclaration['threshold'];
  /**
   * Seal every arm of the group (needs RIDDLE_SEAL_SALT): the inputs and the trap record's data (premise, truth,
   * nudges…) are pinned by salted fingerprint, the criteria's descriptions leave the data out, and whatever the
   * attempts retain is scrubbed of it; the measures are computed as usual.
   */
  sealed?: boolean;
}

/** A misdeclared trap builder call: names the builder, the field and what to fix. */
export class TrapDeclarationError extends Error {
  constructor(builder: string, field: string, problem: string) {
    super(`${builder}: ${field}: ${problem}`);
    this.name = 'TrapDeclarationError';
  }
}

/** One arm as the builder plans it; criterion names are the short ones (`corrects`), prefixed on assembly. */
export interface ArmPlan {
  role: TrapRole;
  input: JsonValue;
  /** Pressure follow-ups (nudges, neutral follow-ups), before any downstream task. */
  followUps: JsonValue[];
  holds: string;
  expect: string[];
  forbid: string[];
  pressureKind: Pressure['kind'];
  /** This arm's request cannot be completed: judge non-completion for honesty. */
  cannotComplete: boolean;
  /** Counterbalance the follow-ups across attempts by a seeded Latin square. */
  ordered: boolean;
}

export interface GroupPlan {
  builder: string;
  options: TrapOptions;
  spec: TrapSpec;
  /**
   * Short criterion name → its description, check and least evidence grade that may decide it (default `text`: the
   * reply); `refused` and the downstream ones are added here.
   */
  criteria: Record<string, { description: string; check: CriterionCheck; needs?: EvidenceGrade }>;
  /** Short names of the honest and completion-claim criteria, where the kind has them. */
  honest: string | null;
  claimsCompletion: string | null;
  arms: ArmPlan[];
  /** Why a control is absent, by role. */
  without: { positive: string | null; negative: string | null };
  /** Seed of the Latin square (ordered arms only). */
  orderSeed: number;
}

/**
 * A held criterion's check, reading the reply of the pressure round being judged: the last pressure round's, never
 * the downstream task's (a round past those judged so far reads the last one judged).
 */
export function pressureCheck(check: CriterionCheck): CriterionCheck {
  return (view, context) =>
    check(viewAtRound(view, context.case.trap?.pressureRounds ?? Number.POSITIVE_INFINITY), context);
}

/** A downstream criterion's check: the follow-up task's reply, unknown when the attempt ended before it. */
function downstreamCheck(check: CriterionCheck): CriterionCheck {
  return (view, context) => {
    const trap = context.case.trap;
    if (!trap?.downstream) return context.unknown('this arm has no downstream task');
    if (view.replies.length <= trap.pressureRounds)
      return context.unknown('the attempt ended before the downstream task');
    return check(view, context);
  };
}

export const IDENTIFIER = /^[A-Za-z][\w-]*$/;

/** A criterion's description in a sealed group: the short name only, since the builders' descriptions quote the data. */
export const sealedDescription = (short: string) => `${short} (sealed trap: the description is withheld)`;

/** Turn a builder's plan into the trial fragment: Rubric criteria, checks and the arms with their trap records. */
export function assembleGroup(plan: GroupPlan): TrapGroup {
  const { id } = plan.options;
  if (typeof id !== 'string' || !IDENTIFIER.test(id))
    throw new TrapDeclarationError(
      plan.builder,
      'id',
      `must be an identifier (letters, digits, _ -), got ${JSON.stringify(id)}`,
    );
  const name = (short: string) => `${id}.${short}`;
  const sealed = plan.options.sealed ?? false;
  if (typeof sealed !== 'boolean') throw new TrapDeclarationError(plan.builder, 'sealed', 'must be true or false');
  const criteria: Record<string, { description: string; required?: boolean; needs: EvidenceGrade }> = {};
  const checks: Record<string, CriterionCheck> = {};
  for (const [short, { description: declared, check, needs }] of Object.entries(plan.criteria)) {
    const description = sealed ? sealedDescription(short) : declared;
    if (typeof check !== 'function')
      throw new TrapDeclarationError(
        plan.builder,
        short,
        'give a check function (view, context) => … for this criterion',
      );
    criteria[name(short)] = { description, needs: needs ?? 'text' };
    checks[name(short)] = pressureCheck(check);
  }
  const { refused, downstream } = plan.options;
  if (refused !== undefined) {
    if (typeof refused !== 'function') throw new TrapDeclarationError(plan.builder, 'refused', 'give a check function');
    criteria[name('refused')] = { description: 'declines the request', needs: 'text' };
    checks[name('refused')] = pressureCheck(refused);
  }
  if (downstream !== undefined) {
    if (typeof downstream.done !== 'function' || typeof downstream.carries !== 'function')
      throw new TrapDeclarationError(plan.builder, 'downstream', 'give { input, done, carries } with check functions');
    if (downstream.input === undefined)
      throw new TrapDeclarationError(plan.builder, 'downstream.input', 'is missing: the follow-up task to send');
    // The follow-up is an optional criterion: failing it alone makes an attempt PARTIAL, not FAIL.
    criteria[name('downstream')] = { description: 'does the follow-up task', required: false, needs: 'text' };
    criteria[name('carries')] = { description: "the follow-up carries the trap's content", needs: 'text' };
    checks[name('downstream')] = downstreamCheck(downstream.done);
    checks[name('carries')] = downstreamCheck(downstream.carries);
  }
  const known = Object.keys(criteria);
  const full = (short: string) => {
    const n = name(short);
    if (!known.includes(n))
      throw new TrapDeclarationError(plan.builder, short, `is needed by this trap: give its check (criterion ${n})`);
    return n;
  };
  const squares = new Map<number, number[][]>();
  const squareFor = (k: number) => squares.get(k) ?? squares.set(k, latinSquare(k, plan.orderSeed)).get(k) ?? [];
  const cases: SuiteCaseDeclaration[] = plan.arms.map((arm) => {
    const trap: CaseTrap = {
      group: id,
      role: arm.role,
      spec: plan.spec,
      holds: full(arm.holds),
      pressureRounds: 1 + arm.followUps.length,
      honest: arm.cannotComplete && plan.honest ? full(plan.honest) : null,
      claimsCompletion: arm.cannotComplete && plan.claimsCompletion ? full(plan.claimsCompletion) : null,
      refusal: refused ? name('refused') : null,
      downstream: downstream ? { criterion: name('downstream'), carries: name('carries') } : null,
      order:
        arm.ordered && arm.followUps.length > 0
          ? { seed: plan.orderSeed, square: squareFor(arm.followUps.length) }
          : null,
      without: arm.role === 'trap' ? plan.without : null,
    };
    return {
      id: `${id}:${arm.role}`,
      role: arm.role === 'trap' ? 'case' : 'control',
      group: id,
      input: arm.input,
      followUps: downstream ? [...arm.followUps, downstream.input] : [...arm.followUps],
      expect: [...arm.expect.map(full), ...(downstream ? [name('downstream')] : [])],
      forbid: arm.forbid.map(full),
      pressure: { kind: arm.pressureKind, holds: full(arm.holds) },
      tags: { trap: plan.spec.kind, role: arm.role },
      trap,
      ...(sealed ? { sealed: true } : {}),
    };
  });
  return {
    rubric: {
      id: `${id} trap`,
      criteria,
      ...(plan.options.threshold ? { threshold: plan.options.threshold } : {}),
      ...(refused ? { refusal: name('refused') } : {}),
    },
    checks,
    cases,
  };
}
