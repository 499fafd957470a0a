import {
  type DecidedSuiteCheck,
  missingVerdictsWords,
  suiteRateWords,
  type SuiteRuleCheck,
  type SuiteRuleDecision,
  type SuiteRuleVerdict,
} from '../model/index.js';
import { MAX_LISTED } from './arm-digest.js';
import { escapeHtml } from './safe-text.js';

const fixed = (x: number | null) => (x === null ? '—' : x.toFixed(3));
const percent = (x: number) => `${Math.round(x * 1000) / 10}%`;
const interval = (i: { lower: number; upper: number } | null) =>
  i === null ? '—' : `[${fixed(i.lower)}, ${fixed(i.upper)}]`;

/** `over-refusal ≤ 0.15`, `correct refusal in privacy ≥ 0.8`. */
function conditionText(check: SuiteRuleCheck): string {
  return `${suiteRateWords(check.rate, check.group)} ${check.bound === 'atLeast' ? '≥' : '≤'} ${check.threshold}`;
}

const HELD = { bound: 'held as failing and as passing', exclude: 'excluded' } as const;

/** `430 held as failing and as passing`, `430 excluded`, `0`; `—` where the record did not count them (before v5). */
function missingCell(check: DecidedSuiteCheck): string {
  const missing = check.withoutVerdict;
  if (missing === null) return '—';
  if (missing.attempts === 0) return '0';
  return `${missing.attempts} in ${missing.cases} ${missing.cases === 1 ? 'case' : 'cases'} ${HELD[missing.policy]}`;
}

/** The rule's verdict, the count of each decision and what each decision needed. */
export function suiteRuleHeadline(rule: SuiteRuleDecision): string {
  const count = (d: SuiteRuleVerdict) => rule.checks.filter((c) => c.decision === d).length;
  const m = rule.checks.length;
  const needs =
    m > 1
      ? `PASS needs every check's ${percent(rule.confidence)} case-clustered interval on the allowed side of its threshold, FAIL one check's ${percent(rule.failConfidence)} interval (Bonferroni over ${m} checks) wholly on the wrong side; any FAIL fails the suite`
      : `PASS needs the check's ${percent(rule.confidence)} case-clustered interval on the allowed side of its threshold, FAIL that interval wholly on the wrong side`;
  const missing = rule.checks.some((c) => c.withoutVerdict?.policy === 'bound' && c.withoutVerdict.attempts > 0)
    ? '; attempts without a verdict are held as failing and as passing, and a decision stands only when both agree'
    : '';
  return `${rule.verdict} — ${count('PASS')} PASS, ${count('FAIL')} FAIL, ${count('UNKNOWN')} UNKNOWN of ${m} ${m === 1 ? 'check' : 'checks'} (${needs}${missing})`;
}

const HEADER = (rule: SuiteRuleDecision) => [
  'condition',
  'value',
  `${percent(rule.confidence)} interval`,
  `${percent(rule.failConfidence)} interval`,
  'cases',
  'without a verdict',
  'decision',
];

function cells(check: DecidedSuiteCheck): string[] {
  return [
    conditionText(check),
    fixed(check.value),
    interval(check.interval),
    interval(check.failInterval),
    String(check.cases),
    missingCell(check),
    check.decision,
  ];
}

/** The order checks are listed in: what failed, what is unsettled, then what passed (declared order within). */
const ORDER: readonly SuiteRuleVerdict[] = ['FAIL', 'UNKNOWN', 'PASS'];
const ordered = (rule: SuiteRuleDecision) =>
  [...rule.checks].sort((a, b) => ORDER.indexOf(a.decision) - ORDER.indexOf(b.decision));

/** A terminal line's note of the attempts without a verdict, and whether they swing the check; empty without any. */
function missingLine(check: DecidedSuiteCheck): string {
  const missing = check.withoutVerdict;
  if (missing === null || missing.attempts === 0) return '';
  const swing =
    missing.ifFailing && missing.ifPassing && missing.ifFailing !== missing.ifPassing
      ? ` (${missing.ifFailing} if they fail, ${missing.ifPassing} if they pass)`
      : '';
  return `, ${missingVerdictsWords(missing)} ${HELD[missing.policy]}${swing}`;
}

/**
 * The checks the terminal and summary.md list, at most `MAX_LISTED` (those that decide the verdict first: failed,
 * then unsettled, then passed), and a line counting the rest by decision; the HTML report lists every check.
 */
function listedChecks(rule: SuiteRuleDecision): { shown: DecidedSuiteCheck[]; more: string | null } {
  const checks = ordered(rule);
  const rest = checks.slice(MAX_LISTED);
  const tally = ORDER.map((d) => [d, rest.filter((c) => c.decision === d).length] as const)
    .filter(([, n]) => n > 0)
    .map(([d, n]) => `${n} ${d}`);
  return {
    shown: checks.slice(0, MAX_LISTED),
    more: rest.length
      ? `${rest.length} more checks (${tally.join(', ')}); every check is in the run's HTML report`
      : null,
  };
}

/** Terminal lines: the headline, then the checks `listedChecks` lists, then the count of the rest. */
export function suiteRuleLines(rule: SuiteRuleDecision): { label: string; text: string }[] {
  const { shown, more } = listedChecks(rule);
  return [
    { label: 'suite rule', text: suiteRuleHeadline(rule) },
    ...shown.map((check) => ({
      label: check.decision,
      text: `${conditionText(check)}: ${fixed(check.value)} ${interval(check.decision === 'FAIL' ? check.failInterval : check.interval)}${check.decision === 'FAIL' ? ` at ${percent(rule.failConfidence)}` : ''}, ${check.cases} cases${missingLine(check)}`,
    })),
    ...(more === null ? [] : [{ label: 'and', text: more }]),
  ];
}

const md = (s: string) => s.replace(/\|/g, '\\|').replace(/\n/g, ' ');

/** A Markdown table of the checks `listedChecks` lists, after the headline, then the count of the rest. */
export function suiteRuleMarkdown(rule: SuiteRuleDecision): string[] {
  const header = HEADER(rule);
  const { shown, more } = listedChecks(rule);
  return [
    `Suite rule: ${md(suiteRuleHeadline(rule))}`,
    '',
    `| ${header.join(' | ')} |`,
    `|${header.map(() => '---').join('|')}|`,
    ...shown.map((check) => `| ${cells(check).map(md).join(' | ')} |`),
    ...(more === null ? [] : ['', `_and ${md(more)}_`]),
  ];
}

/** The rule's checks as an HTML table (sortable like the other tables), after the headline. */
export function suiteRuleHtml(rule: SuiteRuleDecision): string {
  const rows = ordered(rule)
    .map(
      (check) =>
        `<tr data-decision="${check.decision}">${cells(check)
          .map((cell, i) => `<td${i === 6 ? ` data-sort="${cell}"` : ''}>${escapeHtml(cell)}</td>`)
          .join('')}</tr>`,
    )
    .join('');
  return `<figure class="suite-rule"><figcaption>Suite rule: ${escapeHtml(suiteRuleHeadline(rule))}</figcaption>
<div class="table-wrap"><table class="sortable suite-rule"><thead><tr>${HEADER(rule)
    .map((h) => `<th>${escapeHtml(h)}</th>`)
    .join('')}</tr></thead><tbody>${rows}</tbody></table></div></figure>`;
}
