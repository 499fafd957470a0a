import type { Outcome } from '../model/index.js';
import { renderSuiteMarkdown } from './suite-table.js';
import { armTally } from './verdict-text.js';

const num = (x: number | null) => (x === null ? '—' : x.toFixed(2));
const cell = (s: string) => s.replace(/\|/g, '\\|').replace(/\n/g, ' ');

/** A Markdown summary of a run: one table of trials, then each trial's arms and reason. */
export function renderMarkdown(outcomes: readonly Outcome[], runId: string): string {
  const lines = [`# riddle run ${runId}`, '', '| verdict | trial | file | arms |', '|---|---|---|---|'];
  for (const o of outcomes) {
    lines.push(`| **${o.judgment.verdict}** | ${cell(o.trial.name)} | ${cell(o.trial.file)} | ${o.arms.map((a) => `${a.arm}: ${a.verdict}`).join(', ')} |`);
  }
  for (const o of outcomes) {
    lines.push('', `## ${o.judgment.verdict} — ${o.trial.name}`, '', `Why: ${o.judgment.reason}`, '');
    lines.push('| arm | role | verdict | attempts | rate (Wilson 95%) | exact one-sided bounds | τ |', '|---|---|---|---|---|---|---|');
    for (const a of o.arms) {
      const rate = a.rate === null ? '—' : `${num(a.rate)} [${num(a.wilson?.lower ?? null)}, ${num(a.wilson?.upper ?? null)}]`;
      lines.push(`| ${cell(a.arm)} | ${a.role} | ${a.verdict} | ${cell(armTally(a))} | ${rate} | [${num(a.decision.lower)}, ${num(a.decision.upper)}] | ${a.decision.threshold} |`);
    }
    for (const w of o.warnings) lines.push('', `> warning: ${w}`);
    if (o.findings.length) lines.push('', ...o.findings.map((f) => `- **${f.owner}** · ${cell(f.kind)}: ${cell(f.message)}`));
    if (o.capabilities.length) lines.push('', ...o.capabilities.map((c) => `- capability: ${cell(c)}`));
  }
  const suites = outcomes.flatMap((o) => (o.suite ? [o.suite] : []));
  if (suites.length > 0) lines.push('', '## Suite tables', '', renderSuiteMarkdown(suites));
  return `${lines.join('\n')}\n`;
}
