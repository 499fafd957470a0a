import pc from 'picocolors';
import { armScoreLines } from './score-text.js';
import { VERDICT_COLOUR } from './verdict-colour.js';
import {
  trialTestResult,
  type ArmSummary,
  type AttemptRecord,
  type Finding,
  type Outcome,
  type Verdict,
} from '../model/index.js';
import { compositionLines } from './findings-file.js';
import { mapStrings } from './safe-text.js';
import { renderSuiteTerminal, ruleDecidingGroups } from './suite-table.js';
import { suiteRuleLines } from './suite-rule-text.js';
import { armRate, armTally } from './verdict-text.js';
import { spendingLines } from './cost-text.js';
import { trapGroupLines } from './traps.js';
import type { AttemptsSummary } from './attempts-summary.js';
import { shownOutcomes, type ShownOutcomes } from './shown-outcomes.js';
import { matchedMissingText, unsettledText } from './reasons.js';
import {
  armDigest,
  countsText,
  unquotedText,
  VERDICT_ORDER,
  type ArmDigest,
  type VerdictCounts,
} from './arm-digest.js';

/** One glyph per verdict, each its own shape so a bar reads without colour (CI logs); FAIL, CONTRADICTED and DISPUTED
 * take their badge's mark. */
const GLYPH: Record<Verdict, string> = {
  PASS: '█',
  PARTIAL: '▄',
  FAIL: '✗',
  CONTRADICTED: '!',
  UNKNOWN: '░',
  DISPUTED: '≠',
};
const BADGE: Record<Verdict, string> = {
  PASS: '✓',
  PARTIAL: '◐',
  FAIL: '✗',
  CONTRADICTED: '!',
  UNKNOWN: '?',
  DISPUTED: '≠',
};
const BAR_WIDTH = 40;

/** One cell per attempt in run order, or past 40 attempts each verdict's share of the cells; `·` for attempts not run. */
export function attemptBar(attempts: readonly AttemptRecord[], notRun: number): string {
  return verdictBar(
    attempts.map((a) => a.verdict),
    notRun,
  );
}

const cell = (verdict: Verdict) => VERDICT_COLOUR[verdict](GLYPH[verdict]);

/**
 * `width` cells shared among `counts` in proportion by largest remainder (ties to the earlier count), then each count
 * above 0 left without a cell given one from the count with most: sampling cells instead could leave out the one
 * failure among many passes.
 */
function allotCells(counts: readonly number[], width: number): number[] {
  const total = counts.reduce((sum, n) => sum + n, 0);
  const quotas = counts.map((n) => (n * width) / total);
  const cells = quotas.map(Math.floor);
  const byRemainder = quotas.map((_, i) => i).sort((a, b) => ((quotas[b] ?? 0) % 1) - ((quotas[a] ?? 0) % 1) || a - b);
  const left = width - cells.reduce((sum, n) => sum + n, 0);
  for (const i of byRemainder.slice(0, left)) cells[i] = (cells[i] ?? 0) + 1;
  for (const [i, n] of counts.entries()) {
    if (n === 0 || (cells[i] ?? 0) > 0) continue;
    const most = cells.indexOf(Math.max(...cells));
    cells[most] = (cells[most] ?? 0) - 1;
    cells[i] = 1;
  }
  return cells;
}

/** A bar of `BAR_WIDTH` cells showing each verdict's share in `VERDICT_ORDER`, then the share not run as `·`. */
function proportionBar(verdicts: VerdictCounts, notRun: number): string {
  const counts = [...verdicts.map(([, n]) => n), notRun];
  const glyphs = [...verdicts.map(([v]) => cell(v)), pc.dim('·')];
  return allotCells(counts, BAR_WIDTH)
    .map((n, i) => (glyphs[i] ?? '').repeat(n))
    .join('');
}

/** `attemptBar` from the attempts' verdicts. */
function verdictBar(verdicts: readonly Verdict[], notRun: number): string {
  if (verdicts.length + notRun <= BAR_WIDTH)
    return [...verdicts.map(cell), ...(notRun > 0 ? [pc.dim('·'.repeat(notRun))] : [])].join('');
  const counts = new Map<Verdict, number>();
  for (const v of verdicts) counts.set(v, (counts.get(v) ?? 0) + 1);
  return proportionBar(
    VERDICT_ORDER.flatMap((v) => (counts.has(v) ? [[v, counts.get(v) ?? 0] as const] : [])),
    notRun,
  );
}

const num = (x: number | null) => (x === null ? '—' : x.toFixed(2));

function armLine(arm: ArmSummary, verdicts: readonly Verdict[]): string {
  const rate = armRate(arm);
  return `    ${pc.dim(arm.role.padEnd(7))} ${arm.arm.padEnd(12)} ${verdictBar(verdicts, arm.notRun.count)}  ${VERDICT_COLOUR[arm.verdict](arm.verdict.padEnd(12))} ${rate}  ${pc.dim(armTally(arm))}`;
}

/**
 * For a trial of many arms (report/arm-digest): a line per role (each arm's verdict as a cell, or past 40 arms each
 * verdict's share of the cells, then arm and attempt tallies), then a few arms with the trial's verdict.
 */
function digestLines(outcome: Outcome, digest: ArmDigest, summary: AttemptsSummary): string[] {
  const roles = digest.roles.map((tally) => {
    const arms = outcome.arms.filter((a) => a.role === tally.role);
    const bar = arms.length <= BAR_WIDTH ? arms.map((a) => cell(a.verdict)).join('') : proportionBar(tally.verdicts, 0);
    return `    ${pc.dim(tally.role.padEnd(7))} ${`${tally.arms} arms`.padEnd(12)} ${bar}  arms: ${countsText(tally.verdicts)}  ${pc.dim(`attempts: ${countsText(tally.attempts)}`)}`;
  });
  return [
    ...roles,
    ...digest.quoted.map(({ arm, index }) => armLine(arm, summary.verdicts[index] ?? [])),
    `    ${pc.dim(unquotedText(digest, outcome.judgment.verdict))}`,
  ];
}

/** `repeated-nudge: held 0.90 → 0.55 (ΔFF −0.35) · capitulation 0.39 (7/18) · recovery 0.00 (0/2) · survival …` */
export function pressureText(p: NonNullable<ArmSummary['pressure']>): string {
  const share = (s: { count: number; of: number; rate: number | null }) => `${num(s.rate)} (${s.count}/${s.of})`;
  const delta = p.delta === null ? '—' : `${p.delta > 0 ? '+' : ''}${p.delta.toFixed(2)}`;
  const extras = [
    p.contaminated ? `${p.contaminated} stayed given way` : '',
    p.overRefusals ? `${p.overRefusals} over-refused` : '',
    p.truthfulNonCompletions ? `${p.truthfulNonCompletions} owned up to not completing` : '',
  ].filter(Boolean);
  return `${p.kind}: held ${num(p.initial.rate)} → ${num(p.final.rate)} (ΔFF ${delta}) · capitulation ${share(p.capitulation)} · recovery ${share(p.recovery)} · survival ${p.survival.map(num).join(' ')}${extras.length ? ` · ${extras.join(', ')}` : ''}`;
}

/**
 * How the trial's test ended, where the verdict's mark does not say it: a PASS whose test fails (a policy changed after
 * results were seen, a passOn without PASS) or a verdict other than PASS whose test passes (passOn allows it).
 */
function testMark(outcome: Outcome): string {
  const test = trialTestResult(outcome);
  if (test.outcome === 'skip') return pc.dim(' (skipped)');
  const passed = outcome.judgment.verdict === 'PASS';
  if (test.outcome === 'fail' && passed) return pc.red(` (test fails: ${test.reason})`);
  if (test.outcome === 'pass' && !passed) return pc.dim(' (test passes: passOn allows it)');
  return '';
}

/**
 * The riddle section of the terminal output: per trial its verdict, each arm's bar and rate, and why. What it shows
 * of the attempts comes from `summaries` (report/attempts-summary, by position; the reporter reads them from the
 * attempts files), or from each Outcome's inline attempts where none is given.
 */
export function renderTerminal(
  unsafeOutcomes: readonly Outcome[],
  unsafeMissing: readonly { name: string; reason: string }[],
  summaries: readonly (AttemptsSummary | undefined)[] = [],
): string {
  // Subject-derived text must not drive the terminal: controls and bidi marks are shown, not obeyed.
  return renderShownTerminal(shownOutcomes(unsafeOutcomes, summaries), unsafeMissing);
}

/** `renderTerminal` of Outcomes already neutralised (report/shown-outcomes), e.g. shared with the HTML report. */
export function renderShownTerminal(
  shown: ShownOutcomes,
  unsafeMissing: readonly { name: string; reason: string }[],
): string {
  const { outcomes, attempts } = shown;
  const missing = mapStrings(unsafeMissing);
  if (outcomes.length === 0 && missing.length === 0) return '';
  const byVerdict = new Map<Verdict, number>();
  for (const o of outcomes) byVerdict.set(o.judgment.verdict, (byVerdict.get(o.judgment.verdict) ?? 0) + 1);
  const head = [...byVerdict.entries()].map(([v, n]) => VERDICT_COLOUR[v](`${n} ${v}`)).join(pc.dim(' · '));
  const lines = [
    '',
    `${pc.inverse(pc.bold(' riddle '))} ${outcomes.length} trial${outcomes.length === 1 ? '' : 's'}  ${head}`,
    '',
  ];
  for (const [at, outcome] of outcomes.entries()) {
    const summary = attempts[at] as AttemptsSummary;
    const { verdict, reason } = outcome.judgment;
    lines.push(
      ` ${VERDICT_COLOUR[verdict](`${BADGE[verdict]} ${verdict}`)} ${pc.bold(outcome.trial.name)}${testMark(outcome)}  ${pc.dim(outcome.trial.file)}`,
    );
    const digest = armDigest(outcome);
    if (digest) lines.push(...digestLines(outcome, digest, summary));
    else {
      for (const [i, arm] of outcome.arms.entries()) lines.push(armLine(arm, summary.verdicts[i] ?? []));
      // A trap group's arms are shown by the group's own lines below.
      const trapArms = new Set(outcome.traps.flatMap((g) => g.arms.map((a) => a.arm)));
      for (const arm of outcome.arms)
        if (arm.pressure && !trapArms.has(arm.arm))
          lines.push(`    ${pc.dim('pressure')} ${arm.arm}: ${pressureText(arm.pressure)}`);
      for (const arm of outcome.arms)
        for (const { label, text } of armScoreLines(arm)) lines.push(`    ${pc.dim(label)}: ${text}`);
    }
    for (const group of outcome.traps)
      for (const { label, text } of trapGroupLines(group)) lines.push(`    ${pc.dim(label)} ${text}`);
    if (outcome.suiteRule)
      for (const { label, text } of suiteRuleLines(outcome.suiteRule)) lines.push(`    ${pc.dim(label)} ${text}`);
    const mc = outcome.judgment.matchedControl;
    if (mc && mc.discrimination !== null) {
      const flags = [mc.overRefusal ? pc.yellow('over-refusal') : '', mc.underRefusal ? pc.yellow('under-refusal') : '']
        .filter(Boolean)
        .join(' ');
      const missing = matchedMissingText(mc.withoutVerdict);
      lines.push(
        `    ${pc.dim('refusal')} case ${num(mc.caseRefusalRate)} · control ${num(mc.controlRefusalRate)} · discrimination ${num(mc.discrimination)}${mc.discriminationInterval ? ` [${num(mc.discriminationInterval.lower)}, ${num(mc.discriminationInterval.upper)}]` : ''}${missing ? ` · ${missing}` : ''} ${flags}`,
      );
      if (mc.unsettled) lines.push(`    ${pc.dim('refusal')} ${unsettledText(mc.unsettled, mc.withoutVerdict)}`);
    }
    lines.push(`    ${pc.dim('why')} ${reason}`);
    for (const { label, text } of spendingLines(outcome)) lines.push(`    ${pc.dim(label)} ${text}`);
    lines.push(...contradictions(summary));
    if (outcome.compositions)
      for (const line of compositionLines(outcome.compositions)) lines.push(`    ${pc.dim('composition')} ${line}`);
    for (const warning of outcome.warnings) lines.push(`    ${pc.yellow('warning')} ${warning}`);
    for (const a of summary.sandboxes)
      lines.push(`    ${pc.dim('sandbox kept')} ${a.arm}#${a.index} (${a.verdict}): ${a.sandbox}`);
    const unlisted = summary.sandboxesKept - summary.sandboxes.length;
    if (unlisted > 0)
      lines.push(`    ${pc.dim('sandbox kept')} and ${unlisted} more (each attempt's sandbox is in the attempts file)`);
    lines.push('');
  }
  for (const m of missing)
    lines.push(` ${pc.gray('? UNKNOWN')} ${pc.bold(m.name)}  ${pc.dim(`no Outcome: ${m.reason}`)}`);
  lines.push(...findingsByOwner(outcomes));
  const suites = outcomes.flatMap((o) => (o.suite ? [o.suite] : []));
  const decidingGroups = new Map(
    outcomes.flatMap((o) => (o.suite ? [[o.suite, ruleDecidingGroups(o.suiteRule)]] : [])),
  );
  if (suites.length > 0) lines.push('', renderSuiteTerminal(suites, { depth: 1, decidingGroups }));
  return lines.join('\n');
}

/** Each distinct contradicted claim, beside the receipt that contradicts it (at most three per trial). */
function contradictions(summary: AttemptsSummary): string[] {
  const seen = new Map<string, number>();
  for (const check of summary.contradicted) {
    const receipt = check.receipt
      ? `${check.receipt.kind} ${check.receipt.target}: ${check.receipt.detail}`
      : check.note;
    const line = `“${check.text}” ${pc.magenta('contradicted by')} ${receipt}`;
    seen.set(line, (seen.get(line) ?? 0) + check.attempts);
  }
  return [...seen.entries()]
    .slice(0, 3)
    .map(([line, n]) => `    ${pc.dim('claim')} ${line}${n > 1 ? pc.dim(` (${n} attempts)`) : ''}`);
}

const OWNERS: readonly Finding['owner'][] = ['subject', 'harness', 'evaluator', 'environment'];

/** Findings returned to the boundary that owns them, grouped by owner, each with the trial it came from. */
function findingsByOwner(outcomes: readonly Outcome[]): string[] {
  const lines: string[] = [];
  for (const owner of OWNERS) {
    const mine = outcomes.flatMap((o) =>
      o.findings.filter((f) => f.owner === owner).map((f) => ({ trial: o.trial.name, finding: f })),
    );
    if (mine.length === 0) continue;
    if (lines.length === 0) lines.push('', pc.bold(' findings by owner'));
    lines.push(`  ${pc.bold(owner)} (${mine.length})`);
    for (const { trial, finding } of mine.slice(0, 8)) {
      const team = finding.composition
        ? `${pc.bold(finding.composition.name)} ${pc.dim(`(${finding.composition.owner})`)} `
        : '';
      lines.push(`    ${pc.dim(`${trial}:`)} ${team}${finding.message}`);
    }
    if (mine.length > 8) lines.push(pc.dim(`    … ${mine.length - 8} more in the report`));
  }
  return lines;
}
