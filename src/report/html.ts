import type { ArmSummary, AttemptRecord, Outcome, Verdict } from '../model/index.js';
import { mapStrings } from './safe-text.js';
import { renderSuiteTerminal } from './suite-table.js';
import { pressureText } from './terminal.js';
import { armTally } from './verdict-text.js';
import { costSectionHtml } from './cost-text.js';

const COLOUR: Record<Verdict, string> = {
  PASS: '#1a7f37',
  PARTIAL: '#bf8700',
  FAIL: '#cf222e',
  CONTRADICTED: '#8250df',
  UNKNOWN: '#8c959f',
  DISPUTED: '#0a7ea4',
};

const escape = (s: string) =>
  s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
const num = (x: number | null | undefined) => (x === null || x === undefined ? '—' : x.toFixed(2));
const json = (value: unknown) => escape(JSON.stringify(value, null, 2));
const badge = (verdict: Verdict) => `<span class="badge" style="background:${COLOUR[verdict]}">${verdict}</span>`;

function attemptCell(attempt: AttemptRecord): string {
  const title = `${attempt.arm}#${attempt.index} ${attempt.verdict} (${attempt.status}): ${attempt.reason}`;
  return `<a class="cell" href="#a-${escape(attempt.arm)}-${attempt.index}" title="${escape(title)}" style="background:${COLOUR[attempt.verdict]}"></a>`;
}

function attemptDetail(attempt: AttemptRecord): string {
  const o = attempt.observation;
  const rows = attempt.criteria
    .map(
      (c) =>
        `<tr><td>${escape(c.criterion)}</td><td>${escape(c.result)}</td><td>${escape(c.grade ?? '—')}</td><td>${escape(c.reason)}</td></tr>`,
    )
    .join('');
  const claims = attempt.claims
    .map(
      (c) =>
        `<li><b>${escape(c.status)}</b>: “${escape(c.claim.text)}” — ${escape(c.note)}${c.receipt ? ` <i>(${escape(c.receipt.kind)} ${escape(c.receipt.target)}: ${escape(c.receipt.detail)})</i>` : ''}</li>`,
    )
    .join('');
  const tools = (o?.toolRequests ?? [])
    .map(
      (t) =>
        `<li>${t.admitted ? 'admitted' : '<b>denied</b>'} <code>${escape(t.tool)}</code> (${escape(t.effect)}) ${escape(JSON.stringify(t.arguments))} — ${escape(t.reason)}</li>`,
    )
    .join('');
  const files = (o?.files ?? [])
    .map((f) => `<li>${escape(f.change)} <code>${escape(f.path)}</code> (${f.size} B)</li>`)
    .join('');
  const replies = (o?.rounds ?? [])
    .map(
      (r) =>
        `<li>round ${r.index}: <pre>${escape(typeof r.reply === 'string' ? r.reply : JSON.stringify(r.reply))}</pre></li>`,
    )
    .join('');
  return `<details id="a-${escape(attempt.arm)}-${attempt.index}" class="attempt">
<summary>${badge(attempt.verdict)} <b>${escape(attempt.arm)}#${attempt.index}</b> · ${escape(attempt.status)} · seed ${attempt.seed} · ${attempt.durationMs.toFixed(0)} ms — ${escape(attempt.reason)}</summary>
${attempt.error ? `<p class="error">${escape(attempt.error.where)}: ${escape(attempt.error.message)}</p>` : ''}
${replies ? `<h5>Replies</h5><ul>${replies}</ul>` : ''}
${rows ? `<h5>Criteria</h5><table><tr><th>criterion</th><th>result</th><th>evidence grade</th><th>why</th></tr>${rows}</table>` : ''}
${claims ? `<h5>Claims checked against receipts</h5><ul>${claims}</ul>` : ''}
${tools ? `<h5>Tool requests</h5><ul>${tools}</ul>` : ''}
${files ? `<h5>Files</h5><ul>${files}</ul>` : ''}
${attempt.sandbox ? `<p>sandbox kept at <code>${escape(attempt.sandbox)}</code></p>` : ''}
<details><summary>Raw attempt record</summary><pre>${json(attempt)}</pre></details>
</details>`;
}

function armRow(outcome: Outcome, arm: ArmSummary): string {
  const attempts = outcome.attempts.filter((a) => a.arm === arm.arm).sort((a, b) => a.index - b.index);
  const notRun = Array.from(
    { length: arm.notRun.count },
    () => '<span class="cell notrun" title="not run"></span>',
  ).join('');
  return `<tr><td>${escape(arm.role)}</td><td>${escape(arm.arm)}</td><td class="bar">${attempts.map(attemptCell).join('')}${notRun}</td><td>${badge(arm.verdict)}</td>
<td>${num(arm.rate)} [${num(arm.wilson?.lower)}, ${num(arm.wilson?.upper)}]</td><td>[${num(arm.decision.lower)}, ${num(arm.decision.upper)}] vs τ ${arm.decision.threshold} (${escape(arm.decision.method)}, α ${arm.decision.alpha})</td><td>${escape(armTally(arm))}</td></tr>`;
}

function trialSection(outcome: Outcome): string {
  const mc = outcome.judgment.matchedControl;
  return `<section class="trial" id="${escape(outcome.id)}">
<h2>${badge(outcome.judgment.verdict)} ${escape(outcome.trial.name)} <small>${escape(outcome.trial.file)}</small></h2>
<p class="why">${escape(outcome.judgment.reason)}</p>
${costSectionHtml(outcome)}
${outcome.arms.flatMap((a) => (a.pressure ? [`<p>Pressure on ${escape(a.arm)}: ${escape(pressureText(a.pressure))}</p>`] : [])).join('')}
${mc ? `<p>Refusal: case ${num(mc.caseRefusalRate)}, control ${num(mc.controlRefusalRate)}, discrimination ${num(mc.discrimination)}${mc.overRefusal ? ' — <b>over-refusal</b>' : ''}${mc.underRefusal ? ' — <b>under-refusal</b>' : ''}</p>` : ''}
${outcome.arms.length > MAX_OPEN_ARMS ? `<details><summary>${outcome.arms.length} arms</summary>` : ''}
<table><tr><th>role</th><th>arm</th><th>attempts (click one)</th><th>verdict</th><th>rate (Wilson 95%)</th><th>exact one-sided bounds</th><th>tally</th></tr>
${outcome.arms.map((arm) => armRow(outcome, arm)).join('\n')}</table>${outcome.arms.length > MAX_OPEN_ARMS ? '</details>' : ''}
${outcome.warnings.map((w) => `<p class="warning">warning: ${escape(w)}</p>`).join('')}
${outcome.findings.length ? `<h4>Findings</h4><ul>${outcome.findings.map((f) => `<li><b>${escape(f.owner)}</b> · ${escape(f.kind)}: ${escape(f.message)}</li>`).join('')}</ul>` : ''}
${outcome.capabilities.length ? `<h4>Capability claims</h4><ul>${outcome.capabilities.map((c) => `<li>${escape(c)}</li>`).join('')}</ul>` : ''}
<h4>Attempts</h4>
${outcome.attempts.length <= MAX_ATTEMPT_DETAILS ? outcome.attempts.map(attemptDetail).join('\n') : `<p>${outcome.attempts.length} attempts: too many to list here; every attempt's evidence is in this trial's Outcome JSON (see index.json).</p>`}
<p class="pins">Outcome ${escape(outcome.id)} · subject ${escape(outcome.records.environment.subject.name)}@${escape(outcome.records.environment.subject.revision)} · rubric ${escape(outcome.pinned.rubric.slice(0, 19))} · seed ${outcome.execution.seed} · ${escape(outcome.records.suite.repeat.order)} order</p>
</section>`;
}

/** Trials with more arms than this (data-driven suites) fold their arm table away. */
const MAX_OPEN_ARMS = 8;

/** Trials with more attempts than this (data-driven suites) list them in their Outcome JSON only. */
const MAX_ATTEMPT_DETAILS = 200;

function suiteSection(outcomes: readonly Outcome[]): string {
  const suites = outcomes.flatMap((o) => (o.suite ? [o.suite] : []));
  return suites.length
    ? `<section class="trial"><h2>Suite tables</h2><pre>${escape(renderSuiteTerminal(suites))}</pre></section>`
    : '';
}

/** A self-contained HTML report of a run: verdicts at a glance, every attempt's evidence one click away. */
export function renderHtml(unsafeOutcomes: readonly Outcome[], runId: string): string {
  // HTML is escaped where text is placed; controls and bidi marks are made visible first.
  const outcomes = mapStrings(unsafeOutcomes);
  const counts = new Map<Verdict, number>();
  for (const o of outcomes) counts.set(o.judgment.verdict, (counts.get(o.judgment.verdict) ?? 0) + 1);
  const summary = [...counts.entries()].map(([v, n]) => `${n} ${badge(v)}`).join(' ');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>riddle run ${escape(runId)}</title>
<style>
body{font:14px/1.45 system-ui,sans-serif;margin:2rem;max-width:1200px;color:#1f2328}
.badge{color:#fff;border-radius:4px;padding:1px 6px;font-size:12px;font-weight:600}
table{border-collapse:collapse;margin:.5rem 0}td,th{border-bottom:1px solid #d0d7de;padding:4px 8px;text-align:left;vertical-align:top}
.bar{white-space:nowrap}.cell{display:inline-block;width:9px;height:16px;margin-right:1px;border-radius:2px}.notrun{background:#eaeef2}
.trial{border-top:2px solid #d0d7de;margin-top:1.5rem}.why{font-weight:500}.warning{color:#9a6700}.error{color:#cf222e}
pre{background:#f6f8fa;padding:6px;overflow:auto;max-height:300px}small{color:#656d76;font-weight:400}.pins{color:#656d76;font-size:12px}
details.attempt{margin:2px 0}
</style></head><body>
<h1>riddle run <small>${escape(runId)}</small></h1>
<p>${outcomes.length} trial${outcomes.length === 1 ? '' : 's'}: ${summary}</p>
<ul>${outcomes.map((o) => `<li>${badge(o.judgment.verdict)} <a href="#${escape(o.id)}">${escape(o.trial.name)}</a></li>`).join('')}</ul>
${outcomes.map(trialSection).join('\n')}
${suiteSection(outcomes)}
</body></html>
`;
}
