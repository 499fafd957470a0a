import { createHash } from 'node:crypto';
import type { ArmSummary, MatchedControlJudgment, Outcome, Verdict } from '../../model/index.js';
import { scriptJson, type AttemptsSummary } from '../attempts-summary.js';
import { formatSampleReason } from '../sample-reasons.js';
import { matchedMissingText } from '../reasons.js';
import { capabilityScopeText, capabilitySentence } from '../capability-text.js';
import { compositionLines } from '../findings-file.js';
import { escapeHtml as escape } from '../safe-text.js';
import { suiteTables, type SuiteTable } from '../suite-table.js';
import { pressureText } from '../terminal.js';
import { scoreSubject, scoreText } from '../score-text.js';
import { scoreHistogram } from './score-chart.js';
import { trapGroupsHtml } from '../traps.js';
import { suiteRuleHtml } from '../suite-rule-text.js';
import { armTally } from '../verdict-text.js';
import { CLIENT_SCRIPT, STYLE } from './client.js';
import { distributionBar, intervalBar, intervalPlot, survivalCurve } from './svg.js';
import { costSectionHtml } from '../cost-text.js';

const num = (x: number | null | undefined) => (x === null || x === undefined ? '—' : x.toFixed(2));
const badge = (verdict: Verdict) => `<span class="badge v-${verdict}">${verdict}</span>`;
const slug = (s: string) =>
  s
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '')
    .slice(0, 40);

/** A trial's anchor: its id made readable, plus a hash of the whole id so two trials never share one. */
export function trialAnchor(trialId: string): string {
  return `t-${slug(trialId) || 'trial'}-${createHash('sha256').update(trialId).digest('hex').slice(0, 8)}`;
}

/**
 * Rows (arms, attempts) a chunk of the page holds at most: a trial of 50,000 rows is written a few hundred rows at a
 * time rather than made into one string of tens of megabytes first.
 */
const ROWS_PER_CHUNK = 256;

/** `items` joined by `separator`, a chunk of at most ROWS_PER_CHUNK items at a time, separators between chunks too. */
function* joinedChunks<T>(items: readonly T[], render: (item: T, i: number) => string, separator: string) {
  for (let from = 0; from < items.length; from += ROWS_PER_CHUNK) {
    const part: string[] = [];
    for (let i = from; i < Math.min(items.length, from + ROWS_PER_CHUNK); i += 1) part.push(render(items[i] as T, i));
    yield (from > 0 ? separator : '') + part.join(separator);
  }
}

/** Every attempt of a trial as compact rows, read by the page script a page at a time. */
function* attemptsData(outcome: Outcome, summary: AttemptsSummary): Generator<string, void, undefined> {
  yield `{"arms":${scriptJson(outcome.arms.map((a) => a.arm))},"attempts":[`;
  yield* joinedChunks(summary.rows, (row) => row, ',');
  yield ']}';
}

function armRow(arm: ArmSummary, tid: string, armIndex: number): string {
  return `<tr id="${tid}-arm${armIndex}"><td>${escape(arm.arm)}</td><td>${arm.role}</td><td data-sort="${arm.verdict}">${badge(arm.verdict)}</td>
<td>${distributionBar(arm)}<div class="muted">${escape(armTally(arm))}</div></td>
<td data-sort="${arm.rate ?? -1}">${intervalPlot(arm)}<div class="muted">${num(arm.rate)} · exact [${num(arm.decision.lower)}, ${num(arm.decision.upper)}] vs τ ${arm.decision.threshold} (${escape(arm.decision.method)}, α ${arm.decision.alpha})</div></td></tr>`;
}

/** Each distinct contradicted claim beside the receipt that contradicts it, with how many attempts made it. */
function contradictions(summary: AttemptsSummary): string {
  const seen = new Map<string, number>();
  for (const c of summary.contradicted) {
    const line = `<b>contradicted</b>: “${escape(c.text)}” — ${escape(c.note)}${c.receipt ? ` <i>(${escape(c.receipt.kind)} ${escape(c.receipt.target)}: ${escape(c.receipt.detail)})</i>` : ''}`;
    seen.set(line, (seen.get(line) ?? 0) + c.attempts);
  }
  if (seen.size === 0) return '';
  const items = [...seen.entries()]
    .slice(0, 10)
    .map(([line, n]) => `<li>${line}${n > 1 ? ` <span class="muted">(${n} attempts)</span>` : ''}</li>`);
  return `<h4>Claims contradicted by receipts</h4><ul class="claims">${items.join('')}</ul>`;
}

/** Each arm's scored criteria: a histogram with the cutoff and the mean's interval, and the distribution in words. */
function scoreFigures(outcome: Outcome): string {
  return outcome.arms
    .flatMap((arm) =>
      (arm.scores ?? []).map(
        (row) =>
          `<figure class="scores"><figcaption>Scores of ${escape(arm.arm)}, ${escape(scoreSubject(row))}: ${escape(scoreText(row))}</figcaption>${scoreHistogram(row)}</figure>`,
      ),
    )
    .join('\n');
}

/** The matched-control refusal rates, the discrimination's interval, the attempts without a verdict, the flags. */
function matchedControlHtml(mc: MatchedControlJudgment): string {
  const interval = mc.discriminationInterval
    ? ` [${num(mc.discriminationInterval.lower)}, ${num(mc.discriminationInterval.upper)}]`
    : '';
  const missing = matchedMissingText(mc.withoutVerdict);
  return `<p>Refusal: case ${num(mc.caseRefusalRate)}, control ${num(mc.controlRefusalRate)}, discrimination ${num(mc.discrimination)}${interval}${missing ? ` <span class="muted">(${escape(missing)})</span>` : ''}${mc.overRefusal ? ' — <b>over-refusal</b>' : ''}${mc.underRefusal ? ' — <b>under-refusal</b>' : ''}</p>`;
}

/** A trial's section, a chunk at a time (its arms' rows and its attempts' data in chunks of ROWS_PER_CHUNK). */
function* trialSection(outcome: Outcome, summary: AttemptsSummary): Generator<string, void, undefined> {
  const tid = trialAnchor(outcome.trial.id);
  const mc = outcome.judgment.matchedControl;
  const owners = [...new Set(outcome.findings.map((f) => f.owner))];
  const samples = summary.samples;
  const pressure = outcome.arms.filter((a) => a.pressure);
  yield `<section class="trial" id="${tid}" data-verdict="${outcome.judgment.verdict}" data-owners="${owners.join(' ')}" data-text="${escape(`${outcome.trial.name} ${outcome.trial.file}`.toLowerCase())}">
<h2>${badge(outcome.judgment.verdict)} <a href="#${tid}">${escape(outcome.trial.name)}</a> <small>${escape(outcome.trial.file)}</small></h2>
<p class="why">${escape(outcome.judgment.reason)}</p>
${costSectionHtml(outcome)}
${samples.length ? `<ul class="samples">${samples.map((s) => `<li>${escape(formatSampleReason(s))}</li>`).join('')}</ul>` : ''}
${mc ? matchedControlHtml(mc) : ''}
<div class="table-wrap"><table class="sortable arms"><thead><tr><th>arm</th><th>role</th><th>verdict</th><th>attempts</th><th>rate against τ</th></tr></thead><tbody>
`;
  yield* joinedChunks(outcome.arms, (arm, i) => armRow(arm, tid, i), '\n');
  yield `</tbody></table></div>
${pressure.map((a) => `<figure class="pressure"><figcaption>Pressure on ${escape(a.arm)}: ${escape(a.pressure ? pressureText(a.pressure) : '')}</figcaption>${a.pressure ? survivalCurve(a.pressure.survival) : ''}</figure>`).join('\n')}
${scoreFigures(outcome)}
${trapGroupsHtml(outcome.traps)}
${outcome.suiteRule ? suiteRuleHtml(outcome.suiteRule) : ''}
${contradictions(summary)}
${outcome.warnings.map((w) => `<p class="warning">warning: ${escape(w)}</p>`).join('')}
${outcome.findings.length ? `<h4>Findings</h4><ul>${outcome.findings.map((f) => `<li><b>${escape(f.owner)}</b>${f.composition ? ` · ${escape(f.composition.name)} (${escape(f.composition.owner)})` : ''} · ${escape(f.kind)}: ${escape(f.message)} <small>${escape(f.id)}</small></li>`).join('')}</ul>` : ''}
${
  outcome.compositions
    ? `<h4>Compositions</h4><ul>${compositionLines(outcome.compositions)
        .map((line) => `<li>${escape(line)}</li>`)
        .join('')}</ul>`
    : ''
}
${outcome.capabilities.length ? `<h4>Capability claims</h4><ul>${outcome.capabilities.map((c) => `<li>${escape(capabilitySentence(c))} <small>for ${escape(capabilityScopeText(c))}</small></li>`).join('')}</ul>` : ''}
<details class="attempts" data-trial="${tid}"><summary>Attempts (${summary.count})</summary>
<div class="pager"><button type="button" class="prev">‹ previous</button><span class="page-label"></span><button type="button" class="next">next ›</button></div>
<div class="attempt-list"></div></details>
<script type="application/json" id="data-${tid}">`;
  yield* attemptsData(outcome, summary);
  yield `</script>
<p class="pins">Outcome ${escape(outcome.id)} · subject ${escape(outcome.records.environment.subject.name)}@${escape(outcome.records.environment.subject.revision)} · rubric ${escape(outcome.pinned.rubric.slice(0, 19))} · seed ${outcome.execution.seed} · ${escape(outcome.records.suite.repeat.order)} order</p>
</section>`;
}

const RATE_CELL = /^(-?\d+(?:\.\d+)?)% \[(-?\d+(?:\.\d+)?), (-?\d+(?:\.\d+)?)\]/;

function tableCell(text: string): string {
  const m = RATE_CELL.exec(text);
  if (!m) return `<td>${escape(text)}</td>`;
  const [rate, lower, upper] = [m[1], m[2], m[3]].map((x) => Number(x) / 100) as [number, number, number];
  return `<td data-sort="${rate}">${intervalBar(rate, lower, upper)} ${escape(text)}</td>`;
}

function* suiteTableHtml(table: SuiteTable, index: number): Generator<string, void, undefined> {
  const id = `suite-table-${index}`;
  yield `<h3>${escape(table.title)}</h3>
<input class="table-filter" type="search" placeholder="filter rows" aria-label="filter ${escape(table.title)}" data-table="${id}">
<div class="table-wrap"><table class="sortable suite" id="${id}"><thead><tr>${table.header.map((h) => `<th>${escape(h)}</th>`).join('')}</tr></thead><tbody>
`;
  yield* joinedChunks(table.rows, (row) => `<tr>${row.map(tableCell).join('')}</tr>`, '\n');
  yield `</tbody></table></div>
${table.notes.map((n) => `<p class="muted">${escape(n)}</p>`).join('')}`;
}

/** The suite tables of every suite of the run (each a table of up to one row per Case), a chunk at a time. */
function* suiteSection(outcomes: readonly Outcome[]): Generator<string, void, undefined> {
  const suites = outcomes.flatMap((o) => (o.suite ? [o.suite] : []));
  if (suites.length === 0) return;
  yield '<section class="suites" id="suite-tables"><h2>Suite tables</h2>';
  for (const [i, table] of suiteTables(suites).entries()) {
    if (i > 0) yield '\n';
    yield* suiteTableHtml(table, i);
  }
  yield '</section>';
}

const OWNERS = ['subject', 'harness', 'evaluator', 'environment'] as const;

/**
 * A self-contained HTML report of a run: no external scripts, styles or fonts; one inline script allowed by its
 * hash in the Content Security Policy, so nothing from a subject's output can run. Subject-derived text is escaped.
 */
export function renderHtmlPage(
  outcomes: readonly Outcome[],
  runId: string,
  summaries: readonly AttemptsSummary[],
): string {
  return [...htmlPageChunks(outcomes, runId, summaries)].join('');
}

/**
 * `renderHtmlPage` a chunk at a time, for writing: the page of a suite of thousands of rows is tens of megabytes, and
 * made whole it was the reporter's largest allocation (65 of its 330 MB at 9,000 rows).
 */
export function* htmlPageChunks(
  outcomes: readonly Outcome[],
  runId: string,
  summaries: readonly AttemptsSummary[],
): Generator<string, void, undefined> {
  const counts = new Map<Verdict, number>();
  for (const o of outcomes) counts.set(o.judgment.verdict, (counts.get(o.judgment.verdict) ?? 0) + 1);
  const hash = createHash('sha256').update(CLIENT_SCRIPT).digest('base64');
  const csp = `default-src 'none'; style-src 'unsafe-inline'; img-src data:; script-src 'sha256-${hash}'; base-uri 'none'; form-action 'none'`;
  yield `<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${csp}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>riddle run ${escape(runId)}</title>
<style>${STYLE}</style></head><body>
<header class="top"><h1>riddle run <small>${escape(runId)}</small></h1>
<div class="filters"><span>${outcomes.length} trial${outcomes.length === 1 ? '' : 's'}: ${[...counts.entries()].map(([v, n]) => `${n} ${badge(v)}`).join(' ')}</span>
<label>verdict <select id="f-verdict"><option value="">any</option>${[...counts.keys()].map((v) => `<option>${v}</option>`).join('')}</select></label>
<label>finding owner <select id="f-owner"><option value="">any</option>${OWNERS.map((o) => `<option>${o}</option>`).join('')}</select></label>
<input id="f-text" type="search" placeholder="filter trials by name or file" aria-label="filter trials by text">
<span id="f-shown" class="muted"></span></div></header>
<main>
<nav><ul id="toc">${outcomes.map((o) => `<li data-target="${trialAnchor(o.trial.id)}">${badge(o.judgment.verdict)} <a href="#${trialAnchor(o.trial.id)}">${escape(o.trial.name)}</a></li>`).join('')}</ul></nav>
`;
  for (const [i, o] of outcomes.entries()) {
    if (i > 0) yield '\n';
    yield* trialSection(o, summaries[i] as AttemptsSummary);
  }
  yield '\n';
  yield* suiteSection(outcomes);
  yield `
</main>
<script>${CLIENT_SCRIPT}</script>
</body></html>
`;
}
