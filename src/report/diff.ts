import pc from 'picocolors';
import { VERDICT_COLOUR } from './verdict-colour.js';
import {
  missingVerdictsWords,
  suiteRateWords,
  type ArmComparison,
  type ArmSide,
  type Comparison,
  type CompositionComparison,
  type Cost,
  type DiscordantPairs,
  type PinnedChange,
  type SuiteCheckComparison,
  type SuiteCheckSide,
  type SuiteRuleComparison,
  type TrialComparison,
} from '../model/index.js';
import { MAX_LISTED } from './arm-digest.js';
import { costChangeText } from './cost-text.js';

const num = (x: number | null) => (x === null ? '—' : x.toFixed(2));
const signed = (x: number | null) => (x === null ? '—' : `${x > 0 ? '+' : ''}${x.toFixed(2)}`);
const pValue = (p: number) => (p < 0.0001 ? '< 0.0001' : p.toFixed(4));
/** A p-value in a sentence: "p = 0.0313", or "p < 0.0001" (never "p = <0.0001"). */
const pText = (p: number) => (p < 0.0001 ? 'p < 0.0001' : `p = ${p.toFixed(4)}`);
const percent = (confidence: number) => `${Math.round(confidence * 1000) / 10}%`;
const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;
const cell = (s: string) => s.replace(/\|/g, '\\|').replace(/\n/g, ' ');

/** One pinned record that differs, in a few words: which record, and which of its fields. */
function describeChange(change: PinnedChange): string {
  const name = change.id === null ? change.record : `${change.record} "${change.id}"`;
  if (change.record === 'subject') return `subject ${change.a ?? '—'} → ${change.b ?? '—'}`;
  if (change.a === null) return `${name} only in B`;
  if (change.b === null) return `${name} only in A`;
  return `${name} (${change.fields.join(', ')})`;
}

/** Attempts (or cases) a reading of the trial could not use: without a pass/fail verdict, excluded, or in one run only. */
function unusable(trial: TrialComparison): number | null {
  if (trial.mcnemar === null) return null;
  const { undecided, oneRunOnly } = trial.mcnemar.leftOut;
  const excluded = trial.arms.reduce(
    (sum, arm) => sum + arm.a.attempts - arm.a.decided + arm.b.attempts - arm.b.decided,
    0,
  );
  return undecided + oneRunOnly + excluded;
}

/** The top table's "what changed" cell: "nothing" only where nothing pinned differs and every attempt paired. */
function changedCell(trial: TrialComparison): string {
  if (trial.changes.length > 0) return trial.changes.map(describeChange).join('; ');
  const left = unusable(trial);
  if (left === 0) return 'nothing';
  return left === null ? 'nothing pinned' : 'nothing pinned; attempts without a verdict or in one run only';
}

function scopeLine(trial: TrialComparison): string {
  switch (trial.scope) {
    case 'identical': {
      // Same records, but a run whose attempts crashed (or did not run) did not replicate the other.
      const left = unusable(trial);
      if (left === 0) return 'nothing pinned differs (a replication)';
      return left === null
        ? 'nothing pinned differs'
        : 'nothing pinned differs, but attempts without a verdict or run in one run only leave it short of a replication (see McNemar and the notes)';
    }
    case 'subject-only':
      return `${trial.changes.map(describeChange).join('; ')}: only the subject differs`;
    case 'beyond-subject':
      return `${trial.changes.map(describeChange).join('; ')}: more than the subject differs, so the difference is not the subject's alone`;
    default:
      return trial.scope satisfies never;
  }
}

/** `UNKNOWN 10/20 0.50`: the rate on the decision's denominator; attempts it excluded are labelled as such. */
const side = (s: ArmSide) =>
  `${s.verdict} ${s.successes}/${s.decided} ${num(s.rate)}${s.attempts > s.decided ? `, ${s.attempts - s.decided} excluded` : ''}`;
const interval = (arm: ArmComparison) =>
  `${signed(arm.difference.value)} [${signed(arm.difference.lower)}, ${signed(arm.difference.upper)}]`;

function mcnemarLine(pairs: DiscordantPairs): string {
  const left = pairs.leftOut.undecided + pairs.leftOut.oneRunOnly;
  const leftOut =
    left > 0
      ? ` (left out, never imputed: ${pairs.leftOut.undecided} without a pass/fail verdict in a run, ${pairs.leftOut.oneRunOnly} in one run only)`
      : '';
  return `over ${plural(pairs.pairs, `${pairs.unit} pair`)}: ${pairs.aOnly} passed in A only, ${pairs.bOnly} in B only${leftOut}; exact ${pText(pairs.pValue)}`;
}

function casesLine(trial: TrialComparison, confidence: number): string | null {
  const c = trial.cases;
  if (c === null) return null;
  const left = trial.arms.length - c.units;
  return `over ${plural(c.units, 'case')}${left > 0 ? ` (${left} left out: no rate in a run)` : ''}: mean rate A ${num(c.meanA)}, B ${num(c.meanB)}; A − B ${signed(c.mean)}, SE ${c.se.toFixed(3)}, ${percent(confidence)} CI [${signed(c.lower)}, ${signed(c.upper)}]`;
}

const fixed3 = (x: number) => x.toFixed(3);
const signed3 = (x: number | null) => (x === null ? '—' : `${x > 0 ? '+' : ''}${x.toFixed(3)}`);

/** `over-refusal in b ≤ 0.25`, or `≤ 0.25 → 0.2` when the runs' rules set different thresholds. */
function checkHead(check: SuiteCheckComparison): string {
  const sign = check.bound === 'atLeast' ? '≥' : '≤';
  const ta = check.a?.threshold;
  const tb = check.b?.threshold;
  const threshold = ta !== undefined && tb !== undefined && ta !== tb ? `${ta} → ${tb}` : `${ta ?? tb}`;
  return `${suiteRateWords(check.rate, check.group)} ${sign} ${threshold}`;
}

/** What a run's attempts without a verdict did to a check: `; 5 attempts without a verdict (in 5 cases) held as failing`. */
function missingText(side: SuiteCheckSide): string {
  const missing = side.withoutVerdict;
  if (missing === null || missing.attempts === 0) return '';
  const held = missing.policy === 'exclude' ? 'excluded' : 'held as failing';
  const swing =
    missing.ifFailing !== null && missing.ifPassing !== null && missing.ifFailing !== missing.ifPassing
      ? ` (they could swing it: ${missing.ifFailing} if they fail, ${missing.ifPassing} if they pass)`
      : '';
  return `; ${missingVerdictsWords(missing)} ${held}${swing}`;
}

/** One run's check: `FAIL 0.250 [0.174, 0.338] over 120 cases`, or `— (not checked)` where its rule has no such check. */
function checkSideText(side: SuiteCheckSide | null): string {
  if (side === null) return '— (not checked)';
  const figures =
    side.value === null
      ? 'no judged attempt'
      : `${fixed3(side.value)}${side.interval ? ` [${fixed3(side.interval.lower)}, ${fixed3(side.interval.upper)}]` : ''} over ${plural(side.cases, 'case')}`;
  return `${side.decision} ${figures}${missingText(side)}`;
}

function checkDifferenceText(check: SuiteCheckComparison): string {
  const d = check.difference;
  if (d.value === null) return '—';
  return d.lower === null || d.upper === null
    ? signed3(d.value)
    : `${signed3(d.value)} [${signed3(d.lower)}, ${signed3(d.upper)}]`;
}

/** The rule's verdicts and how to read its figures: `PASS → FAIL (95% intervals over cases; …)`. */
function ruleHeadline(rule: SuiteRuleComparison): string {
  const verdict = (v: string | null) => v ?? 'no rule';
  const { a, b } = rule.confidence;
  const intervals =
    a !== null && b !== null && a !== b
      ? `A's intervals ${percent(a)}, B's ${percent(b)}: no difference at one confidence`
      : `${percent(a ?? b ?? 0)} intervals over cases; A − B unpaired, MOVER from the two intervals`;
  return `${verdict(rule.verdict.a)} → ${verdict(rule.verdict.b)} (${intervals})`;
}

const summaryParts = (c: Comparison) => [
  `${plural(c.summary.compared, 'trial')} compared`,
  `${plural(c.summary.verdictChanges, 'verdict')} changed`,
  `${c.summary.beyondSubject} with more than the subject changed`,
  `${plural(c.summary.unmatchedTrials, 'unmatched trial')}`,
  `${plural(c.summary.unmatchedArms, 'unmatched arm')}`,
];

const runName = (run: Comparison['a']) => (run.runId === null ? run.label : `${run.label} (${run.runId})`);

/** One composition across the two runs: `reviewer (review-team) 3.0 → 3.1 changed: PASS → FAIL, 15/15 → 0/7; …`. */
export function compositionChangeText(c: CompositionComparison): string {
  const version = c.changed
    ? `${c.version.a ?? 'absent'} → ${c.version.b ?? 'absent'} changed`
    : `${c.version.a} unchanged`;
  const paired = c.pairs
    ? `; paired ${c.pairs.aOnly}/${c.pairs.bOnly} of ${c.pairs.pairs} (A only/B only), McNemar ${pText(c.pairs.pValue)}`
    : '';
  return `${c.composition} (${c.owner}) ${version}: ${c.verdict.a ?? '—'} → ${c.verdict.b ?? '—'}, ${c.successes.a}/${c.ran.a} → ${c.successes.b}/${c.ran.b} met${paired}`;
}

/**
 * The arms a terminal lists: every one of a trial of up to `MAX_LISTED` (report/arm-digest, as the run's own terminal
 * report); past it, those whose verdict changed first, then those whose rate moved, in declared order, the rest
 * counted (a 1000-row suite was 1000 lines). Markdown and --json keep every arm.
 */
function listedArms(arms: readonly ArmComparison[]): {
  listed: ArmComparison[];
  unlisted: number;
  unlistedChanged: number;
} {
  if (arms.length <= MAX_LISTED) return { listed: [...arms], unlisted: 0, unlistedChanged: 0 };
  const changed = (arm: ArmComparison) => arm.a.verdict !== arm.b.verdict;
  const rank = (arm: ArmComparison) => (changed(arm) ? 0 : arm.a.rate !== arm.b.rate ? 1 : 2);
  const ordered = arms
    .map((arm, index) => ({ arm, index }))
    .sort((x, y) => rank(x.arm) - rank(y.arm) || x.index - y.index);
  const listed = ordered.slice(0, MAX_LISTED).map((o) => o.arm);
  const rest = ordered.slice(MAX_LISTED).map((o) => o.arm);
  return { listed, unlisted: rest.length, unlistedChanged: rest.filter(changed).length };
}

/** The declared suite rule's checks for a terminal, one line per check with each run's figures and A − B. */
function ruleLinesTerminal(rule: SuiteRuleComparison): string[] {
  const rows = rule.checks.map((check) => ({
    head: checkHead(check),
    a: checkSideText(check.a),
    b: checkSideText(check.b),
    d: checkDifferenceText(check),
  }));
  const head = Math.max(12, ...rows.map((r) => r.head.length));
  const a = Math.max(4, ...rows.map((r) => r.a.length));
  const b = Math.max(4, ...rows.map((r) => r.b.length));
  return [
    `    ${pc.dim('rule'.padEnd(9))} suite rule ${ruleHeadline(rule)}`,
    pc.dim(`      ${'check'.padEnd(head)} ${'A'.padEnd(a)} ${'B'.padEnd(b)} A − B`),
    ...rows.map((r) => `      ${r.head.padEnd(head)} ${r.a.padEnd(a)} ${r.b.padEnd(b)} ${r.d}`),
  ];
}

/** The comparison for a terminal: per trial the verdict change, what changed, each arm's rates and the paired tests. */
export function renderDiffTerminal(comparison: Comparison, costs: ReadonlyMap<string, Cost> = new Map()): string {
  const lines = [
    '',
    `${pc.inverse(pc.bold(' riddle diff '))} A ${runName(comparison.a)}  →  B ${runName(comparison.b)}`,
    ` ${summaryParts(comparison).join(pc.dim(' · '))}  ${pc.dim('(differences are A − B)')}`,
    '',
  ];
  for (const trial of comparison.trials) {
    const { a, b } = trial.verdict;
    const arrow = a === b ? pc.dim('=') : pc.bold('→');
    lines.push(
      ` ${VERDICT_COLOUR[a](a)} ${arrow} ${VERDICT_COLOUR[b](b)}  ${pc.bold(trial.trial.name)}  ${pc.dim(trial.trial.file)}`,
    );
    const scope = scopeLine(trial);
    lines.push(
      `    ${pc.dim('changed'.padEnd(9))} ${trial.scope === 'beyond-subject' ? pc.yellow(`⚑ ${scope}`) : scope}`,
    );
    if (trial.suiteRule) lines.push(...ruleLinesTerminal(trial.suiteRule));
    const { listed, unlisted, unlistedChanged } = listedArms(trial.arms);
    const width = Math.max(12, ...listed.map((arm) => arm.arm.length));
    const sides = Math.max(20, ...listed.flatMap((arm) => [side(arm.a).length, side(arm.b).length]));
    const header = `${'arm'.padEnd(width)} ${'role'.padEnd(7)} ${'A'.padEnd(sides)} ${'B'.padEnd(sides)} ${`A − B [${percent(comparison.confidence)} CI, unpaired]`.padEnd(27)}`;
    lines.push(pc.dim(`    ${header} paired: A only/B only of pairs, McNemar p`));
    for (const arm of listed) {
      const paired = arm.pairs
        ? `${arm.pairs.aOnly}/${arm.pairs.bOnly} of ${arm.pairs.pairs}, ${pText(arm.pairs.pValue)}`
        : '—';
      lines.push(
        `    ${arm.arm.padEnd(width)} ${pc.dim(arm.role.padEnd(7))} ${side(arm.a).padEnd(sides)} ${side(arm.b).padEnd(sides)} ${interval(arm).padEnd(27)} ${paired}`,
      );
    }
    if (unlisted > 0)
      lines.push(
        pc.dim(
          `    … ${plural(unlisted, 'more arm')} (${unlistedChanged} with a changed verdict): riddle diff --markdown or --json lists every arm`,
        ),
      );
    for (const u of trial.unmatchedArms)
      lines.push(`    ${pc.yellow(`arm "${u.arm}" only in ${u.run.toUpperCase()}`)}`);
    const cases = casesLine(trial, comparison.confidence);
    if (cases) lines.push(`    ${pc.dim('cases'.padEnd(9))} ${cases}`);
    if (trial.mcnemar) lines.push(`    ${pc.dim('McNemar'.padEnd(9))} ${mcnemarLine(trial.mcnemar)}`);
    for (const c of trial.compositions) lines.push(`    ${pc.dim('part'.padEnd(9))} ${compositionChangeText(c)}`);
    const cost = costChangeText(costs.get(trial.outcomes.a), costs.get(trial.outcomes.b));
    if (cost) lines.push(`    ${pc.dim('cost'.padEnd(9))} ${cost}`);
    for (const note of trial.notes) lines.push(`    ${pc.dim('note'.padEnd(9))} ${pc.dim(note)}`);
    lines.push('');
  }
  for (const u of comparison.unmatched) {
    lines.push(
      ` ${pc.yellow(`only in ${u.run.toUpperCase()}`)} ${pc.bold(u.trial.name)}  ${pc.dim(`${u.trial.file} — ${u.reason}`)}`,
    );
  }
  return lines.join('\n');
}

/** The comparison as Markdown: a table of trials, then each trial's arms, paired tests and notes. */
export function renderDiffMarkdown(comparison: Comparison, costs: ReadonlyMap<string, Cost> = new Map()): string {
  const lines = [
    `# riddle diff: A \`${runName(comparison.a)}\` → B \`${runName(comparison.b)}\``,
    '',
    `${summaryParts(comparison).join(' · ')}. Differences are A − B; intervals are ${percent(comparison.confidence)}.`,
    '',
    '| verdict A → B | trial | what changed | cases A − B | McNemar p |',
    '|---|---|---|---|---|',
  ];
  for (const t of comparison.trials) {
    const flag = t.scope === 'beyond-subject' ? '⚑ ' : '';
    lines.push(
      `| ${t.verdict.a} → ${t.verdict.b} | ${cell(t.trial.name)} | ${flag}${cell(changedCell(t))} | ${t.cases ? signed(t.cases.mean) : '—'} | ${t.mcnemar ? pValue(t.mcnemar.pValue) : '—'} |`,
    );
  }
  for (const t of comparison.trials) {
    lines.push(
      '',
      `## ${t.verdict.a} → ${t.verdict.b} — ${t.trial.name}`,
      '',
      `${t.scope === 'beyond-subject' ? '**⚑ Not a clean subject comparison.** ' : ''}Changed: ${scopeLine(t)}.`,
      '',
    );
    if (t.suiteRule) {
      lines.push(`Suite rule ${cell(ruleHeadline(t.suiteRule))}.`, '');
      lines.push('| check | A | B | A − B |', '|---|---|---|---|');
      for (const check of t.suiteRule.checks)
        lines.push(
          `| ${cell(checkHead(check))} | ${cell(checkSideText(check.a))} | ${cell(checkSideText(check.b))} | ${checkDifferenceText(check)} |`,
        );
      lines.push('');
    }
    lines.push(
      `| arm | role | A | B | A − B [${percent(comparison.confidence)} CI, unpaired] | paired: A only / B only of pairs | McNemar p |`,
      '|---|---|---|---|---|---|---|',
    );
    for (const arm of t.arms) {
      const paired = arm.pairs ? `${arm.pairs.aOnly} / ${arm.pairs.bOnly} of ${arm.pairs.pairs}` : '—';
      lines.push(
        `| ${cell(arm.arm)} | ${arm.role} | ${side(arm.a)} | ${side(arm.b)} | ${interval(arm)} | ${paired} | ${arm.pairs ? pValue(arm.pairs.pValue) : '—'} |`,
      );
    }
    for (const u of t.unmatchedArms) lines.push('', `Arm \`${u.arm}\` is only in ${u.run.toUpperCase()}.`);
    const cases = casesLine(t, comparison.confidence);
    if (cases) lines.push('', `Paired over cases ${cases}.`);
    if (t.mcnemar) lines.push('', `McNemar ${mcnemarLine(t.mcnemar)}.`);
    if (t.compositions.length > 0) lines.push('', ...t.compositions.map((c) => `- ${cell(compositionChangeText(c))}`));
    const cost = costChangeText(costs.get(t.outcomes.a), costs.get(t.outcomes.b));
    if (cost) lines.push('', `Cost: ${cost}.`);
    for (const note of t.notes) lines.push('', `> ${note}`);
  }
  if (comparison.unmatched.length > 0) {
    lines.push('', '## Unmatched trials', '', '| only in | trial | file | why |', '|---|---|---|---|');
    for (const u of comparison.unmatched)
      lines.push(`| ${u.run.toUpperCase()} | ${cell(u.trial.name)} | ${cell(u.trial.file)} | ${cell(u.reason)} |`);
  }
  return `${lines.join('\n')}\n`;
}
