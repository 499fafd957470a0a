import type { ArmSummary, Outcome } from '../model/index.js';
import { armDigest, roleText, unquotedText, type ArmDigest } from './arm-digest.js';
import { capabilityScopeText, capabilitySentence } from './capability-text.js';
import { compositionLines } from './findings-file.js';
import { mapStrings, markdownLine } from './safe-text.js';
import { renderSuiteMarkdown, ruleDecidingGroups } from './suite-table.js';
import { suiteRuleMarkdown } from './suite-rule-text.js';
import { armScoreLines } from './score-text.js';
import { pressureText } from './terminal.js';
import { trapGroupLines } from './traps.js';
import { armRate, armTally } from './verdict-text.js';

const num = (x: number | null) => (x === null ? '—' : x.toFixed(2));
const cell = (s: string) => s.replace(/\|/g, '\\|').replace(/\n/g, ' ');

function armTable(arms: readonly ArmSummary[]): string[] {
  return [
    '| arm | role | verdict | attempts | passed / decided on (Wilson 95%) | exact one-sided bounds | τ |',
    '|---|---|---|---|---|---|---|',
    ...arms.map((a) => {
      const rate = armRate(a);
      return `| ${cell(a.arm)} | ${a.role} | ${a.verdict} | ${cell(armTally(a))} | ${rate} | [${num(a.decision.lower)}, ${num(a.decision.upper)}] | ${a.decision.threshold} |`;
    }),
  ];
}

/** Each arm's row, or for a trial of many arms (report/arm-digest) its tallies per role and a few arms with its verdict. */
function armLines(o: Outcome, digest: ArmDigest | null): string[] {
  if (!digest) return armTable(o.arms);
  return [
    ...digest.roles.map((tally) => `- ${roleText(tally)}`),
    ...(digest.quoted.length ? ['', ...armTable(digest.quoted.map(({ arm }) => arm))] : []),
    '',
    unquotedText(digest, o.judgment.verdict),
  ];
}

/** A Markdown summary of a run: one table of trials, then each trial's arms and reason. */
export function renderMarkdown(unsafeOutcomes: readonly Outcome[], runId: string): string {
  // Every string shown as text: controls and bidi marks made visible, HTML escaped so viewers do not render it, and
  // on one line with markup escaped, wherever a line puts it (headings, `Why:`, list items, cells, suite tables).
  const outcomes = mapStrings(unsafeOutcomes, markdownLine);
  const lines = [`# riddle run ${runId}`, '', '| verdict | trial | file | arms |', '|---|---|---|---|'];
  for (const o of outcomes) {
    const digest = armDigest(o);
    const arms = digest
      ? digest.roles.map(roleText).join('; ')
      : o.arms.map((a) => `${a.arm}: ${a.verdict}`).join(', ');
    lines.push(`| **${o.judgment.verdict}** | ${cell(o.trial.name)} | ${cell(o.trial.file)} | ${cell(arms)} |`);
  }
  for (const o of outcomes) {
    lines.push('', `## ${o.judgment.verdict} — ${o.trial.name}`, '', `Why: ${o.judgment.reason}`, '');
    const digest = armDigest(o);
    lines.push(...armLines(o, digest));
    // Per-arm pressure and scores only where every arm is listed, as in the terminal: a suite's thousand rows would
    // each add theirs.
    const listed = digest ? [] : o.arms;
    for (const a of listed)
      if (a.pressure) lines.push('', `Pressure on ${cell(a.arm)}: ${cell(pressureText(a.pressure))}`);
    for (const a of listed)
      for (const { label, text } of armScoreLines(a)) lines.push('', `- ${cell(label)}: ${cell(text)}`);
    for (const group of o.traps)
      lines.push('', ...trapGroupLines(group).map(({ label, text }) => `- ${label}: ${cell(text)}`));
    if (o.suiteRule) lines.push('', ...suiteRuleMarkdown(o.suiteRule));
    for (const w of o.warnings) lines.push('', `> warning: ${w}`);
    if (o.findings.length)
      lines.push(
        '',
        ...o.findings.map(
          (f) =>
            `- **${f.owner}**${f.composition ? ` · ${cell(f.composition.name)} (${cell(f.composition.owner)})` : ''} · ${cell(f.kind)}: ${cell(f.message)}`,
        ),
      );
    if (o.compositions)
      lines.push('', '| composition |', '|---|', ...compositionLines(o.compositions).map((l) => `| ${cell(l)} |`));
    if (o.capabilities.length)
      lines.push(
        '',
        ...o.capabilities.map(
          (c) => `- capability: ${cell(capabilitySentence(c))} _(for ${cell(capabilityScopeText(c))})_`,
        ),
      );
  }
  const suites = outcomes.flatMap((o) => (o.suite ? [o.suite] : []));
  const decidingGroups = new Map(
    outcomes.flatMap((o) => (o.suite ? [[o.suite, ruleDecidingGroups(o.suiteRule)]] : [])),
  );
  if (suites.length > 0) lines.push('', '## Suite tables', '', renderSuiteMarkdown(suites, { decidingGroups }));
  return `${lines.join('\n')}\n`;
}
