import type { AttemptsSummary } from './attempts-summary.js';
import type { ArmSummary, Outcome, RunIndex } from '../model/index.js';
import { armDigest, roleText, unquotedText } from './arm-digest.js';
import { escapeHtml, mapStrings, markdownInline } from './safe-text.js';
import { formatSampleReason, sampleReasons } from './sample-reasons.js';
import { armTally } from './verdict-text.js';

const num = (x: number | null) => (x === null ? '—' : x.toFixed(2));
/** Neutralised text in a line of Markdown or a table cell: one line, no markup, no HTML tags or entities (with `<`
 * escaped no tag opens, so `>` and `"` stay as written). */
const cell = (s: string) => markdownInline(s.replace(/&/g, '&amp;').replace(/</g, '&lt;')).replace(/\|/g, '\\|');
/** Neutralised text as a code span: a fence longer than any run of backticks in it, so none can close it early. */
function code(s: string): string {
  const text = s.replace(/\n/g, ' ');
  const fence = '`'.repeat(Math.max(0, ...(text.match(/`+/g) ?? []).map((run) => run.length)) + 1);
  // A space keeps a backtick at either end from joining the fence; Markdown strips one from each side.
  const pad = text.startsWith('`') || text.endsWith('`') ? ' ' : '';
  return `${fence}${pad}${text}${pad}${fence}`;
}
/** A code span in a table cell: GFM splits cells at a `|` even inside code, unless escaped. */
const codeCell = (s: string) => code(s).replace(/\|/g, '\\|');
/** Neutralised text inside an HTML block (`<summary>`), where Markdown escapes would show as written. */
const html = (s: string) => escapeHtml(s).replace(/\n/g, ' ');

export interface JobSummaryLinks {
  /** The run's folder and its HTML report, as paths relative to the workspace. */
  runDir: string;
  html: string;
  /** The workflow run's page (where uploaded artifacts are listed), when known. */
  runUrl: string | null;
}

function armTable(arms: readonly ArmSummary[]): string[] {
  return [
    '| arm | role | verdict | attempts | rate [exact one-sided bounds] | τ |',
    '|---|---|---|---|---|---|',
    ...arms.map(
      (a) =>
        `| ${cell(a.arm)} | ${a.role} | ${a.verdict} | ${cell(armTally(a))} | ${num(a.rate)} [${num(a.decision.lower)}, ${num(a.decision.upper)}] | ${a.decision.threshold} |`,
    ),
    '',
  ];
}

/** Each arm's row, or for a trial of many arms (report/arm-digest) its tallies per role and a few arms with its verdict. */
function armLines(o: Outcome): string[] {
  const digest = armDigest(o);
  if (!digest) return armTable(o.arms);
  return [
    ...digest.roles.map((tally) => `- ${roleText(tally)}`),
    '',
    ...(digest.quoted.length ? armTable(digest.quoted.map(({ arm }) => arm)) : []),
    unquotedText(digest, o.judgment.verdict),
    '',
  ];
}

/**
 * A GitHub Actions job summary of a run (appended to `$GITHUB_STEP_SUMMARY`): a verdict table, each trial's arm
 * distributions, sample reasons for trials that did not pass, and where the report and Outcomes are.
 */
export function renderJobSummary(
  unsafeOutcomes: readonly Outcome[],
  unsafeMissing: RunIndex['missing'],
  unsafeLinks: JobSummaryLinks,
  summaries: readonly (AttemptsSummary | undefined)[] = [],
): string {
  const outcomes = mapStrings(unsafeOutcomes);
  const missing = mapStrings(unsafeMissing);
  const links = mapStrings(unsafeLinks);
  const tally = new Map<string, number>();
  for (const o of outcomes) tally.set(o.judgment.verdict, (tally.get(o.judgment.verdict) ?? 0) + 1);
  const lines = [
    '## riddle',
    '',
    `${outcomes.length} trial${outcomes.length === 1 ? '' : 's'}: ${[...tally.entries()].map(([v, n]) => `**${n} ${v}**`).join(' · ')}${missing.length ? ` · ${missing.length} without an Outcome` : ''}`,
    '',
    '| verdict | trial | file | test | why |',
    '|---|---|---|---|---|',
    ...outcomes.map(
      (o) =>
        `| ${o.judgment.verdict} | ${cell(o.trial.name)} | ${codeCell(o.trial.file)} | ${o.judgment.testOutcome} | ${cell(o.judgment.reason)} |`,
    ),
    ...missing.map((m) => `| UNKNOWN | ${cell(m.name)} | ${codeCell(m.file)} | — | no Outcome: ${cell(m.reason)} |`),
    '',
  ];
  for (const [i, o] of outcomes.entries()) {
    lines.push(
      `<details${o.judgment.verdict === 'PASS' ? '' : ' open'}><summary>${o.judgment.verdict} — ${html(o.trial.name)}</summary>`,
      '',
    );
    lines.push(...armLines(o));
    const samples = mapStrings(summaries[i]?.samples ?? sampleReasons(o));
    if (samples.length)
      lines.push(
        'Why attempts did not pass (samples):',
        '',
        ...samples.map((s) => `- ${cell(formatSampleReason(s))}`),
        '',
      );
    lines.push('</details>', '');
  }
  lines.push(
    `Report: ${code(links.html)} · Outcomes: ${code(links.runDir)}${links.runUrl ? ` · [artifacts of this workflow run](${links.runUrl})` : ''}`,
    '',
  );
  return lines.join('\n');
}

/** Escape a workflow command's message (GitHub: `%`, CR and LF). */
const escapeData = (s: string) => s.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
/** Escape a workflow command's property value (also `:` and `,`). */
const escapeProperty = (s: string) => escapeData(s).replace(/:/g, '%3A').replace(/,/g, '%2C');

export interface AnnotatedTrial {
  outcome: Outcome;
  /** The `trial(…)` line in its file, when known. */
  line: number | null;
  /** Whether the trial's Vitest test failed (and so already carries Vitest's own failure annotation). */
  testFailed: boolean;
  /** Its attempts' summary when they are not inline (read from the attempts file); else they are summarised here. */
  summary?: AttemptsSummary;
}

/**
 * GitHub Actions annotations (`::error file=…,line=…::…`) for trials that did not pass, at their declaration line:
 * an error when the trial's test failed, a warning when it passed or was skipped despite its verdict.
 * `skipFailed` leaves failed tests to Vitest's own github-actions reporter, so none is annotated twice.
 */
export function githubAnnotations(trials: readonly AnnotatedTrial[], options: { skipFailed: boolean }): string[] {
  return trials.flatMap(({ outcome: unsafe, line, testFailed, summary }) => {
    if (unsafe.judgment.verdict === 'PASS' || (testFailed && options.skipFailed)) return [];
    // Neutralised before the command's own escaping: the runner prints titles and messages, controls and all.
    const outcome = mapStrings(unsafe);
    const level = testFailed ? 'error' : 'warning';
    const place = [`file=${escapeProperty(outcome.trial.file)}`, ...(line ? [`line=${line}`] : [])];
    const title = escapeProperty(`riddle ${outcome.judgment.verdict}: ${outcome.trial.name}`);
    const samples = mapStrings(summary?.samples ?? sampleReasons(outcome)).map((s) => `  ${formatSampleReason(s)}`);
    const message = [outcome.judgment.reason, ...samples].join('\n');
    return [`::${level} ${place.join(',')},title=${title}::${escapeData(message)}`];
  });
}
