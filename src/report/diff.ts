import pc from 'picocolors';
import { VERDICT_COLOUR } from './verdict-colour.js';
import type {
  ArmComparison,
  ArmSide,
  Comparison,
  CompositionComparison,
  Cost,
  DiscordantPairs,
  PinnedChange,
  TrialComparison,
} from '../model/index.js';
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
    const width = Math.max(12, ...trial.arms.map((arm) => arm.arm.length));
    const sides = Math.max(20, ...trial.arms.flatMap((arm) => [side(arm.a).length, side(arm.b).length]));
    const header = `${'arm'.padEnd(width)} ${'role'.padEnd(7)} ${'A'.padEnd(sides)} ${'B'.padEnd(sides)} ${`A − B [${percent(comparison.confidence)} CI, unpaired]`.padEnd(27)}`;
    lines.push(pc.dim(`    ${header} paired: A only/B only of pairs, McNemar p`));
    for (const arm of trial.arms) {
      const paired = arm.pairs
        ? `${arm.pairs.aOnly}/${arm.pairs.bOnly} of ${arm.pairs.pairs}, ${pText(arm.pairs.pValue)}`
        : '—';
      lines.push(
        `    ${arm.arm.padEnd(width)} ${pc.dim(arm.role.padEnd(7))} ${side(arm.a).padEnd(sides)} ${side(arm.b).padEnd(sides)} ${interval(arm).padEnd(27)} ${paired}`,
      );
    }
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
    const changed = t.changes.length === 0 ? 'nothing' : t.changes.map(describeChange).join('; ');
    lines.push(
      `| ${t.verdict.a} → ${t.verdict.b} | ${cell(t.trial.name)} | ${flag}${cell(changed)} | ${t.cases ? signed(t.cases.mean) : '—'} | ${t.mcnemar ? pValue(t.mcnemar.pValue) : '—'} |`,
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
