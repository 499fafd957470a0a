import {
  describeSuiteCheck,
  type ArmReason,
  type ArmRule,
  type ArmSummary,
  type AttemptReason,
  type MatchedControlJudgment,
  type MissingVerdicts,
  type SuiteRuleDecision,
  type SuiteRuleVerdict,
  type TrialJudgment,
  type UnsettledReading,
} from '../model/index.js';
import type { TrialReason } from '../aggregate/index.js';

const fmt = (x: number) => x.toFixed(3);
const pct = (x: number | null) => (x === null ? 'n/a' : `${Math.round(x * 100)}%`);

/** The deciding branch of the arm rule in words. */
function armRuleText(rule: ArmRule): string {
  switch (rule.kind) {
    case 'no-attempts':
      return 'no attempt ran';
    case 'all-blocked':
      return 'every attempt was blocked';
    case 'no-verdict':
      return 'no attempt reached a verdict';
    case 'sequential':
      return `${rule.method} (α ${rule.alpha}) decided ${rule.decision} after ${rule.attempts} attempts (${rule.successes} passed)`;
    case 'certified':
      return `${rule.successes}/${rule.attempts} passed; one-sided ${fmt(1 - rule.alpha)} exact lower bound ${fmt(rule.lower)} ≥ τ ${rule.threshold}`;
    case 'required-only':
      return `${rule.requiredMet}/${rule.attempts} met every required criterion (exact lower bound ${fmt(rule.requiredLower)} ≥ τ ${rule.threshold}) but only ${rule.successes}/${rule.attempts} passed fully (lower bound ${fmt(rule.lower)} < τ)`;
    case 'bounded-below':
      return `${rule.requiredMet}/${rule.attempts} met every required criterion; exact upper bound ${fmt(rule.requiredUpper)} < τ ${rule.threshold}`;
    case 'straddles': {
      const more = [
        rule.toPass === null ? null : `${rule.toPass} more passing`,
        rule.toFail === null ? null : `${rule.toFail} more failing`,
      ].filter((s) => s !== null);
      const settle = more.length ? `${more.join(' or ')} attempts would settle it` : 'no number of attempts settles it';
      return `${rule.successes}/${rule.attempts} passed; bounds [${fmt(rule.lower)}, ${fmt(rule.upper)}] straddle τ ${rule.threshold}: ${settle}`;
    }
    case 'disputes-swing':
      return `${rule.disputed} disputed attempt(s) decide it: ${rule.ifFail} if they fail, ${rule.ifPass} if they pass`;
    case 'missing-swings':
      return `${rule.unknown} attempt(s) without a verdict could swing it (${rule.ifFail} if they fail, ${rule.ifPass} if they pass)`;
    case 'cut-short':
      return `cut short: ${rule.notRun} declared attempt(s) never ran (${rule.successes}/${rule.attempts} of those run passed), so no verdict can stand`;
    default:
      return rule satisfies never;
  }
}

/** Why an arm has its verdict, in one line: the rule's branch with its numbers, contradictions first, errors after. */
export function armReasonText(why: ArmReason): string {
  let text = armRuleText(why.rule);
  if (why.contradicted > 0) text = `${why.contradicted} attempt(s) claimed what the receipts contradict; ${text}`;
  if (why.notCompleted.length > 0) {
    const statuses = why.notCompleted.map((s) => `${s.count} ${s.status}`).join(', ');
    text += ` [${statuses}: never imputed${why.excluded ? `, ${why.excluded} excluded` : ''}]`;
  } else if (why.excluded > 0) text += ` [${why.excluded} without a verdict excluded]`;
  return text;
}

/** Why an attempt has its verdict, in one line: the branch of the attempt rule with what it decided on. */
export function attemptReasonText(why: AttemptReason): string {
  switch (why.kind) {
    case 'not-completed':
      return `${why.status}${why.error ? ` in ${why.error.where}: ${why.error.message}` : ''}`;
    case 'contradicted':
      return `claim "${why.claim}" contradicted: ${why.note}`;
    case 'failed':
      return [
        ...why.unmet.map((name) => `expected ${name} unmet`),
        ...why.met.map((name) => `forbidden ${name} met`),
      ].join('; ');
    case 'disputed':
      return why.criteria.map((c) => `${c.criterion}: ${c.reason}`).join('; ');
    case 'unknown':
      return why.criteria.map((c) => `${c.criterion}: ${c.reason ?? 'no result'}`).join('; ');
    case 'partial':
      return `optional ${why.unmet.join(', ')} unmet`;
    case 'passed':
      return `all ${why.declared} declared criteria as expected`;
    default:
      return why satisfies never;
  }
}

const READINGS: Record<UnsettledReading['suggested'][number], string> = {
  overRefusal: 'over-refusal',
  underRefusal: 'under-refusal',
  toldApart: 'telling the case from its controls',
};

/** The way of holding the attempts without a verdict that favours each reading. */
const FAVOURING: Record<UnsettledReading['suggested'][number], string> = {
  overRefusal: 'refused',
  underRefusal: 'not refused',
  toldApart: 'refused on the case and not on its controls',
};

type MatchedMissing = MatchedControlJudgment['withoutVerdict'];

/**
 * What the point refusal rates suggest and the intervals do not settle, in one line; first the readings the attempts
 * without a verdict swing (`withoutVerdict.swing`), then those more attempts could settle.
 */
export function unsettledText(unsettled: UnsettledReading, withoutVerdict: MatchedMissing = null): string {
  const swing = withoutVerdict?.swing ?? [];
  const left = unsettled.suggested.filter((k) => !swing.includes(k));
  const parts: string[] = [];
  if (withoutVerdict !== null && swing.length > 0) {
    const readings = swing.map((k) => `${READINGS[k]} with them held as ${FAVOURING[k]}`).join(', ');
    parts.push(
      `${withoutVerdict.case.attempts} case and ${withoutVerdict.control.attempts} control attempts without a verdict could swing it (never imputed): ${readings}, not with them held the other way`,
    );
  }
  if (left.length > 0) {
    const needed = unsettled.attemptsNeeded;
    parts.push(
      `the point rates suggest ${left.map((k) => READINGS[k]).join(' and ')}, but on ${unsettled.caseJudged} case and ${unsettled.controlJudged} control attempts the intervals do not support it; ${needed === null ? 'no number of attempts at these rates would' : `about ${needed} judged attempts per side at these rates would settle it`}`,
    );
  }
  return `not settled: ${parts.join('; ')}`;
}

/** One side's attempts without a refusal verdict and what the policy did with them; null when it had none. */
function sideMissingText(side: 'case' | 'control', missing: MissingVerdicts): string | null {
  if (missing.attempts === 0) return null;
  const counted = `${missing.attempts} ${side} attempt${missing.attempts === 1 ? '' : 's'} without a verdict`;
  if (missing.policy === 'exclude') return `${counted} excluded`;
  // Held as failing: not refused where meant to refuse, refused where meant to comply.
  const [held, other] = side === 'case' ? ['not refused', 'refused'] : ['refused', 'not refused'];
  const ifOther = missing.valueIfPassing === null ? '' : ` (${pct(missing.valueIfPassing)} if ${other})`;
  return `${counted} held as ${held}${ifOther}`;
}

/**
 * Beside a matched-control judgment's rates, the attempts without a refusal verdict on each side and what the policy
 * did with them (`430 case attempts without a verdict held as not refused (100% if refused)`); '' when none, or when
 * the record did not count them (before riddle.outcome/5).
 */
export function matchedMissingText(withoutVerdict: MatchedMissing): string {
  if (withoutVerdict === null) return '';
  return [sideMissingText('case', withoutVerdict.case), sideMissingText('control', withoutVerdict.control)]
    .filter((text) => text !== null)
    .join(', ');
}

/** Checks a suite rule's reason quotes; the rest are counted. */
const MAX_QUOTED_CHECKS = 3;

/** Why a declared suite rule decided the trial, in one line: the checks by decision, then those of its verdict. */
export function suiteRuleReasonText(decision: SuiteRuleDecision): string {
  const { verdict, checks } = decision;
  const count = (d: SuiteRuleVerdict) => checks.filter((c) => c.decision === d).length;
  const deciding = checks.filter((c) => c.decision === verdict);
  const quoted = deciding.slice(0, MAX_QUOTED_CHECKS).map((c) => describeSuiteCheck(c, decision));
  if (deciding.length > MAX_QUOTED_CHECKS) quoted.push(`and ${deciding.length - MAX_QUOTED_CHECKS} more ${verdict}`);
  return `suite rule ${verdict} (${count('PASS')} PASS, ${count('FAIL')} FAIL, ${count('UNKNOWN')} UNKNOWN of ${checks.length} ${checks.length === 1 ? 'check' : 'checks'}): ${quoted.join('; ')}`;
}

/** Arms whose reasons the trial's reason quotes; a data-driven suite's other arms are counted, not quoted. */
const MAX_REASONS = 3;

/**
 * Why a trial has its verdict, in one line: the deciding arms' reasons (up to three), then what matched controls and
 * pressure showed. `arms` are the trial's arms with their reasons as data.
 */
export function trialReasonText(
  why: TrialReason,
  judgment: Pick<TrialJudgment, 'matchedControl' | 'pressure'>,
  arms: readonly (Pick<ArmSummary, 'arm' | 'role' | 'verdict'> & { why: ArmReason })[],
): string {
  if (why.kind === 'blocked') return `blocked: ${why.blocked}`;
  if (why.kind === 'incomplete')
    return `incomplete: ${why.notRun} declared attempt(s) never ran, so no verdict can stand`;
  // Looked up by id: filtering every arm for each deciding one grew with the square of a data-driven suite's rows.
  const byId = new Map(arms.map((arm) => [arm.arm, arm]));
  const deciding = why.deciding.flatMap((id) => byId.get(id) ?? []);
  const parts = deciding.slice(0, MAX_REASONS).map((a) => `${a.role} "${a.arm}" ${a.verdict}: ${armReasonText(a.why)}`);
  if (deciding.length > MAX_REASONS) parts.push(`and ${deciding.length - MAX_REASONS} more ${why.verdict} arms`);
  const matched = judgment.matchedControl;
  const missing = matched ? matchedMissingText(matched.withoutVerdict) : '';
  const counted = missing ? ` [${missing}]` : '';
  if (matched?.overRefusal)
    parts.push(
      `over-refusal: refused the case ${pct(matched.caseRefusalRate)} and its control ${pct(matched.controlRefusalRate)} alike${counted}`,
    );
  if (matched?.underRefusal)
    parts.push(
      `under-refusal: complied with the case and its control alike (refused ${pct(matched.caseRefusalRate)} / ${pct(matched.controlRefusalRate)})${counted}`,
    );
  if (matched?.unsettled) parts.push(unsettledText(matched.unsettled, matched.withoutVerdict));
  const { pressure } = judgment;
  if (pressure !== null && pressure.net !== null) {
    parts.push(
      `under pressure it gave way in ${pct(pressure.caseCapitulation)} of case attempts vs ${pct(pressure.controlCapitulation)} after a neutral follow-up (net ${pct(pressure.net)})`,
    );
  }
  return parts.join('; ');
}
