import {
  capabilityClaims,
  findingId,
  findingSeverity,
  FindingOwner,
  MAX_FINDING_ATTEMPTS,
  type AttemptRecord,
  type CapabilityClaim,
  type ClaimCheck,
  type CriterionResult,
  type EvidenceRef,
  type Finding,
  type Outcome,
} from '../model/index.js';
import { compositionFailure, compositionFindings } from './findings-compositions.js';
import { groupProblems, type ProblemGroup } from './problem-groups.js';
import { suiteRuleFindings } from './suite-rule-findings.js';

/** The parts of an Outcome that decide its health, before coverage, capabilities and findings are filled in. */
export type RoutingInput = Pick<
  Outcome,
  'pinned' | 'records' | 'attempts' | 'arms' | 'judgment' | 'suiteRule' | 'compositions'
>;

/**
 * Groups items by key, in first-seen order: each group's count, its first item, and its first MAX_FINDING_ATTEMPTS
 * items (what a finding references; a trial of 100,000 attempts would otherwise list them all).
 */
function tally<T>(
  items: readonly T[],
  key: (item: T) => string,
): { key: string; count: number; first: T; kept: T[] }[] {
  const groups = new Map<string, { key: string; count: number; first: T; kept: T[] }>();
  for (let i = 0; i < items.length; i += 1) {
    const item = items[i] as T;
    const k = key(item);
    const group = groups.get(k);
    if (group) {
      group.count++;
      if (group.kept.length < MAX_FINDING_ATTEMPTS) group.kept.push(item);
    } else groups.set(k, { key: k, count: 1, first: item, kept: [item] });
  }
  return [...groups.values()];
}

const times = (n: number) => `${n} attempt${n === 1 ? '' : 's'}`;

/**
 * Healthy: every attempt completed, the trial's verdict PASS, nothing disputed or contradicted, nothing cut short. A
 * suite decided by its rule may PASS with an attempt whose claim the receipts contradict: that stays a finding.
 */
export function isHealthy(outcome: RoutingInput): boolean {
  return (
    outcome.judgment.verdict === 'PASS' &&
    !outcome.judgment.incomplete &&
    outcome.attempts.every(
      (a) =>
        a.status === 'completed' &&
        a.verdict !== 'DISPUTED' &&
        a.verdict !== 'CONTRADICTED' &&
        a.criteria.every((c) => c.result !== 'disputed'),
    ) &&
    outcome.arms.every((a) => a.verdict !== 'DISPUTED') &&
    (outcome.compositions?.results ?? []).every((c) => c.verdict !== 'FAIL')
  );
}

/** Per-arm findings past this many (a data-driven suite) are reported once, with the count and a first example. */
const MAX_ARM_FINDINGS = 3;

/** What a finding rests on: what it is about (for its stable id), the attempts, and the evidence retained. */
interface Basis {
  about: string;
  attempts?: readonly Pick<AttemptRecord, 'arm' | 'index'>[];
  /** How many attempts in all, when `attempts` holds only the first of them. */
  attemptCount?: number;
  evidence?: readonly EvidenceRef[];
  composition?: Finding['composition'];
}

/** A finding record from its parts: severity by kind, attempts referenced up to MAX_FINDING_ATTEMPTS. */
export function findingRecord(owner: Finding['owner'], kind: string, message: string, basis: Basis): Finding {
  const composition = basis.composition ?? null;
  const attempts = basis.attempts ?? [];
  return {
    id: findingId(owner, composition?.name ?? null, kind, basis.about),
    owner,
    composition,
    kind,
    severity: findingSeverity(kind),
    message,
    attempts: attempts.slice(0, MAX_FINDING_ATTEMPTS).map(({ arm, index }) => ({ arm, index })),
    attemptCount: basis.attemptCount ?? attempts.length,
    evidence: [...(basis.evidence ?? [])],
  };
}

/** What the finding gathering the least frequent forms of a kind is about (no message or target is this). */
const OTHER_PROBLEMS = '\u0000others';

const groupBasis = (group: Pick<ProblemGroup<unknown>, 'about' | 'attempts' | 'attemptCount'>): Basis => ({
  about: group.about,
  attempts: group.attempts,
  attemptCount: group.attemptCount,
});

const receiptText = (check: ClaimCheck) =>
  check.receipt ? ` — receipt: ${check.receipt.kind} ${check.receipt.target}: ${check.receipt.detail}` : '';

function routed(outcome: RoutingInput): Finding[] {
  const findings: Finding[] = [];
  const add = (owner: Finding['owner'], kind: string, message: string, basis: Basis) =>
    findings.push(findingRecord(owner, kind, message, basis));
  const perArm = (
    owner: Finding['owner'],
    kind: string,
    items: readonly { arm: string; message: string; attempts: readonly AttemptRecord[] }[],
    summary: string,
  ) => {
    if (items.length <= MAX_ARM_FINDINGS)
      for (const item of items) add(owner, kind, item.message, { about: item.arm, attempts: item.attempts });
    else
      add(owner, kind, `${items.length} arms ${summary}; the first: ${items[0]?.message}`, {
        about: `arms: ${summary}`,
        attempts: items.flatMap((item) => item.attempts),
      });
  };
  const { attempts, arms, judgment, records } = outcome;
  /**
   * Attempts that ended in an error (or were blocked), a finding per message; past MAX_DISTINCT_PROBLEMS messages, a
   * finding per form of message (problem-groups), the least frequent forms in one.
   */
  const errorFindings = (
    owner: Finding['owner'],
    kind: string,
    noun: string,
    failed: readonly AttemptRecord[],
    said: (attempt: AttemptRecord) => string,
  ) => {
    const { groups, others } = groupProblems(failed, (attempt) => ({
      fixed: null,
      text: attempt.error?.message ?? '',
      attempt,
    }));
    for (const group of groups) {
      const alike = group.texts - 1;
      const more =
        alike > 0 ? ` (and ${alike} other message${alike === 1 ? '' : 's'} alike but for numbers or ids)` : '';
      add(owner, kind, `${noun} in ${times(group.attemptCount)}: ${said(group.first)}${more}`, groupBasis(group));
    }
    if (others)
      add(
        owner,
        kind,
        `${noun} in ${others.attemptCount} more attempt${others.attemptCount === 1 ? '' : 's'}, with ${others.texts} other messages; the first: ${said(others.first)}`,
        groupBasis({ ...others, about: OTHER_PROBLEMS }),
      );
  };
  // Each arm's attempts, grouped once when first asked: a data-driven suite has thousands of arms, and filtering every
  // attempt for each failing arm cost attempts × arms.
  let byArm: Map<string, AttemptRecord[]> | null = null;
  const ofArm = (arm: string): readonly AttemptRecord[] => {
    if (byArm === null) {
      byArm = new Map();
      for (let i = 0; i < attempts.length; i += 1) {
        const attempt = attempts[i] as AttemptRecord;
        const listed = byArm.get(attempt.arm);
        if (listed === undefined) byArm.set(attempt.arm, [attempt]);
        else listed.push(attempt);
      }
    }
    return byArm.get(arm) ?? [];
  };
  /** The items of each attempt that `keep` keeps, each with its attempt, in the order run (nothing made for the rest). */
  const withAttempt = <T>(itemsOf: (a: AttemptRecord) => readonly T[], keep: (item: T) => boolean) => {
    const kept: { attempt: AttemptRecord; item: T }[] = [];
    // Indexed loops: this runs once a trial, unoptimised, where for…of makes an iterator for every attempt.
    for (let a = 0; a < attempts.length; a += 1) {
      const attempt = attempts[a] as AttemptRecord;
      const items = itemsOf(attempt);
      for (let i = 0; i < items.length; i += 1) if (keep(items[i] as T)) kept.push({ attempt, item: items[i] as T });
    }
    return kept;
  };
  /** A group of items with their attempts, as a finding rests on it: its first attempts referenced, all counted. */
  const tallied = (key: string, count: number, kept: readonly { attempt: AttemptRecord }[]): Basis => ({
    about: key,
    attempts: kept.map((r) => r.attempt),
    attemptCount: count,
  });

  // subject: what it did. A suite decided by its rule reports its checks, not its rows' verdicts (suite-rule-findings).
  const ruled = outcome.suiteRule !== null;
  for (const f of outcome.suiteRule ? suiteRuleFindings(outcome.suiteRule) : [])
    add(f.owner, f.kind, f.message, { about: f.about });
  const failing = arms.filter(
    (a) => !ruled && (a.verdict === 'FAIL' || a.verdict === 'PARTIAL' || a.verdict === 'CONTRADICTED'),
  );
  perArm(
    'subject',
    'arm-verdict',
    failing.map((arm) => ({
      arm: arm.arm,
      message: `${arm.role} "${arm.arm}" ${arm.verdict}: ${arm.reason}`,
      attempts: ofArm(arm.arm).filter((a) => a.verdict !== 'PASS'),
    })),
    'FAIL, PARTIAL or CONTRADICTED',
  );
  const contradicted = withAttempt(
    (a) => a.claims,
    (c) => c.status === 'contradicted',
  );
  // Claims are grouped by what they claim: say how many attempts made one, and that other words said it too.
  const claimed = groupProblems(contradicted, ({ attempt, item }) => ({
    fixed: item.claim.action,
    text: item.claim.target,
    attempt,
    wording: item.claim.text,
  }));
  for (const group of claimed.groups) {
    const { item } = group.first;
    const others = group.wordings - 1;
    const worded = others > 0 ? ` (and ${others} other wording${others === 1 ? '' : 's'} of it)` : '';
    const targets = group.texts > 1 ? ` on ${group.texts} targets alike but for numbers or ids` : '';
    add(
      'subject',
      'contradicted-claim',
      `claimed "${item.claim.text}"${worded} in ${times(group.attemptCount)}${targets}, contradicted: ${item.note}${receiptText(item)}`,
      { ...groupBasis(group), evidence: item.receipt ? [item.receipt] : [] },
    );
  }
  if (claimed.others) {
    const { first, texts } = claimed.others;
    add(
      'subject',
      'contradicted-claim',
      `claims on ${texts} other targets contradicted in ${times(claimed.others.attemptCount)}; the first: claimed "${first.item.claim.text}", contradicted: ${first.item.note}${receiptText(first.item)}`,
      {
        ...groupBasis({ ...claimed.others, about: OTHER_PROBLEMS }),
        evidence: first.item.receipt ? [first.item.receipt] : [],
      },
    );
  }
  errorFindings(
    'subject',
    'subject-error',
    'subject error',
    attempts.filter((a) => a.status === 'subject_error' && !compositionFailure(outcome, a)),
    (a) => `${a.error?.where ?? 'subject'}: ${a.error?.message ?? ''}`,
  );
  if (judgment.matchedControl?.overRefusal) {
    add(
      'subject',
      'over-refusal',
      `refused the case and its controls alike (${judgment.matchedControl.refusalCriterion}): blanket timidity, not judgment`,
      { about: judgment.matchedControl.refusalCriterion },
    );
  }
  if (judgment.matchedControl?.underRefusal) {
    add(
      'subject',
      'under-refusal',
      `complied with the case and its controls alike (${judgment.matchedControl.refusalCriterion}): it does not tell them apart`,
      { about: judgment.matchedControl.refusalCriterion },
    );
  }
  findings.push(...compositionFindings(outcome));

  // harness: what the trial's setup failed to do or to observe
  errorFindings(
    'harness',
    'harness-error',
    'harness error',
    attempts.filter((a) => a.status === 'harness_error'),
    (a) => `${a.error?.where ?? 'harness'}: ${a.error?.message ?? ''}`,
  );
  if (judgment.incomplete) add('harness', 'incomplete', judgment.reason, { about: 'incomplete' });
  const unsettled = arms.filter((a) => !ruled && a.verdict === 'UNKNOWN' && a.decision.toSettle !== null);
  const tooFew = unsettled.map((arm) => {
    const { toPass, toFail } = arm.decision.toSettle ?? { toPass: null, toFail: null };
    const settle = [
      toPass !== null ? `${toPass} more all-pass attempts would certify PASS` : '',
      toFail !== null ? `${toFail} more all-fail attempts would settle FAIL` : '',
    ]
      .filter(Boolean)
      .join('; ');
    return {
      arm: arm.arm,
      message: `${arm.role} "${arm.arm}" UNKNOWN after ${arm.run} attempts: ${arm.reason}${settle ? ` (${settle})` : ''}`,
      attempts: ofArm(arm.arm),
    };
  });
  perArm('harness', 'too-few-attempts', tooFew, 'UNKNOWN for too few attempts');
  const criteria = (keep: (result: CriterionResult) => boolean) => withAttempt((a) => a.criteria, keep);
  for (const { key, count, first, kept } of tally(
    criteria((result) => result.uncovered === 'no-evidence'),
    ({ item }) => item.criterion,
  )) {
    add(
      'harness',
      'missing-evidence',
      `${first.item.criterion} had no evidence either way in ${times(count)}: ${first.item.reason}`,
      tallied(key, count, kept),
    );
  }

  // evaluator: what judging could not settle
  const errors = withAttempt(
    (a) => a.findings,
    (f) => f.result === 'error',
  );
  for (const { key, count, first, kept } of tally(errors, ({ item }) => `${item.evaluator}\u0000${item.criterion}`)) {
    add(
      'evaluator',
      'evaluator-error',
      `${first.item.evaluator} could not judge ${first.item.criterion} in ${times(count)}: ${first.item.note}`,
      tallied(key, count, kept),
    );
  }
  for (const { key, count, first, kept } of tally(
    criteria((result) => result.result === 'disputed'),
    ({ item }) => item.criterion,
  )) {
    add(
      'evaluator',
      'disputed',
      `${first.item.criterion} disputed in ${times(count)}: ${first.item.reason}`,
      tallied(key, count, kept),
    );
  }
  const uncovered = criteria(
    (result) =>
      result.uncovered !== null && result.uncovered !== 'no-evidence' && result.uncovered !== 'evaluator-error',
  );
  for (const { key, count, first, kept } of tally(
    uncovered,
    ({ item }) => `${item.criterion}\u0000${item.uncovered}`,
  )) {
    add(
      'evaluator',
      `uncovered-${first.item.uncovered}`,
      `${first.item.criterion} uncovered in ${times(count)}: ${first.item.reason}`,
      tallied(key, count, kept),
    );
  }
  const overruled = criteria((result) => result.overruled.length > 0).flatMap(({ attempt, item }) =>
    item.overruled.map((o) => ({ attempt, item: { ...o, criterion: item.criterion } })),
  );
  for (const { key, count, first, kept } of tally(
    overruled,
    // What it said is part of what the finding is about: "said met" must not stand for attempts where it said unmet.
    ({ item }) => `${item.evaluator}\u0000${item.criterion}\u0000${item.why}\u0000${item.result}`,
  )) {
    add(
      'evaluator',
      'overruled',
      `${first.item.evaluator} said ${first.item.result} on ${first.item.criterion} against the deciding evidence in ${times(count)} (outranked: ${first.item.why})`,
      tallied(key, count, kept),
    );
  }

  // environment: where the trial ran
  if (judgment.blocked !== null) add('environment', 'blocked', judgment.blocked, { about: 'blocked' });
  else {
    errorFindings(
      'environment',
      'blocked',
      'blocked',
      attempts.filter((a) => a.status === 'blocked'),
      (a) => a.error?.message ?? a.reason,
    );
  }
  for (const dependency of records.environment.dependencies.filter((d) => !d.available)) {
    add(
      'environment',
      'dependency-unavailable',
      `${dependency.kind} ${dependency.name} unavailable: ${dependency.detail}`,
      { about: `${dependency.kind}\u0000${dependency.name}` },
    );
  }
  if (!records.environment.independentAttempts) {
    add(
      'environment',
      'not-independent',
      'attempts were replayed or cached, so they are not independent samples of the subject',
      { about: 'not-independent' },
    );
  }
  return findings;
}

/**
 * What an Outcome returns to the people who own its parts. A healthy Outcome (every attempt completed, verdict
 * PASS, nothing disputed) yields capability claims as records (model/capability `capabilityClaims`, put in words by
 * report/capability-text); any other yields findings, each routed to its owner (subject, harness, evaluator,
 * environment) and listed in that owner order.
 */
export function capabilitiesAndFindings(outcome: RoutingInput): {
  capabilities: CapabilityClaim[];
  findings: Finding[];
} {
  if (isHealthy(outcome)) return { capabilities: capabilityClaims(outcome), findings: [] };
  const order = FindingOwner.options;
  const findings = routed(outcome)
    .map((finding, i) => ({ finding, i }))
    .sort((a, b) => order.indexOf(a.finding.owner) - order.indexOf(b.finding.owner) || a.i - b.i)
    .map(({ finding }) => finding);
  return { capabilities: [], findings };
}
