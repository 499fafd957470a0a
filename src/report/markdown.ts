import type { Outcome } from '../model/index.js';
import { capabilityScopeText, capabilitySentence } from './capability-text.js';
import { compositionLines } from './findings-file.js';
import { mapStrings, markdownInline, markdownText } from './safe-text.js';
import { renderSuiteMarkdown } from './suite-table.js';
import { suiteRuleMarkdown } from './suite-rule-text.js';
import { armScoreLines } from './score-text.js';
import { pressureText } from './terminal.js';
import { trapGroupLines } from './traps.js';
import { armRate, armTally } from './verdict-text.js';

const num = (x: number | null) => (x === null ? '—' : x.toFixed(2));
const cell = (s: string) => s.replace(/\|/g, '\\|').replace(/\n/g, ' ');

/** Past this many arms (a data-driven suite) the arms are summarised per role; the suite tables say the rest. */
const MAX_ARM_ROWS = 8;

function roleSummary(o: Outcome): string[] {
  return (['case', 'control'] as const).flatMap((role) => {
    const arms = o.arms.filter((a) => a.role === role);
    if (arms.length === 0) return [];
    const verdicts = new Map<string, number>();
    for (const a of arms) verdicts.set(a.verdict, (verdicts.get(a.verdict) ?? 0) + 1);
    return [`- ${arms.length} ${role} arms: ${[...verdicts.entries()].map(([v, n]) => `${n} ${v}`).join(', ')}`];
  });
}

function armTable(o: Outcome): string[] {
  return [
    '| arm | role | verdict | attempts | passed / decided on (Wilson 95%) | exact one-sided bounds | τ |',
    '|---|---|---|---|---|---|---|',
    ...o.arms.map((a) => {
      const rate = armRate(a);
      return `| ${cell(a.arm)} | ${a.role} | ${a.verdict} | ${cell(armTally(a))} | ${rate} | [${num(a.decision.lower)}, ${num(a.decision.upper)}] | ${a.decision.threshold} |`;
    }),
  ];
}

/** A Markdown summary of a run: one table of trials, then each trial's arms and reason. */
export function renderMarkdown(unsafeOutcomes: readonly Outcome[], runId: string): string {
  // Every string shown as text: controls and bidi marks made visible, HTML escaped so viewers do not render it, and
  // on one line with markup escaped, wherever a line puts it (headings, `Why:`, list items, cells, suite tables).
  const outcomes = mapStrings(unsafeOutcomes, (text) => markdownInline(markdownText(text)));
  const lines = [`# riddle run ${runId}`, '', '| verdict | trial | file | arms |', '|---|---|---|---|'];
  for (const o of outcomes) {
    const arms =
      o.arms.length > MAX_ARM_ROWS
        ? roleSummary(o)
            .map((l) => l.slice(2))
            .join('; ')
        : o.arms.map((a) => `${a.arm}: ${a.verdict}`).join(', ');
    lines.push(`| **${o.judgment.verdict}** | ${cell(o.trial.name)} | ${cell(o.trial.file)} | ${cell(arms)} |`);
  }
  for (const o of outcomes) {
    lines.push('', `## ${o.judgment.verdict} — ${o.trial.name}`, '', `Why: ${o.judgment.reason}`, '');
    if (o.arms.length > MAX_ARM_ROWS) lines.push(...roleSummary(o));
    else lines.push(...armTable(o));
    for (const a of o.arms)
      if (a.pressure) lines.push('', `Pressure on ${cell(a.arm)}: ${cell(pressureText(a.pressure))}`);
    for (const a of o.arms)
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
  if (suites.length > 0) lines.push('', '## Suite tables', '', renderSuiteMarkdown(suites));
  return `${lines.join('\n')}\n`;
}
