import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { setImmediate as turn } from 'node:timers/promises';
import path from 'node:path';
import { calibrateAcrossSuites } from '../aggregate/index.js';
import { RUN_SCHEMA, type BudgetRecord, type Outcome, type RunIndex } from '../model/index.js';
import { findingsFile } from './findings-file.js';
import { shownHtmlChunks } from './html.js';
import { renderMarkdown } from './markdown.js';
import { runBudgetText } from './run-budget-text.js';
import { markdownLine, markdownText } from './safe-text.js';
import { writeAtomically, writeAtomicallyAsync, writeOutcomeFiles, writeOutcomeFilesAsync } from './outcome-files.js';
import type { AttemptsSummary } from './attempts-summary.js';
import { shownOutcomes, type ShownOutcomes } from './shown-outcomes.js';
import { fileNameSlug } from './file-name-slug.js';

/**
 * Write a file whole or not at all: a temp file beside it, then a rename (the temp file removed if it failed). Content
 * given in chunks is written as it is made, never joined into one string.
 */
export function writeFileAtomic(file: string, content: string | Iterable<string>): void {
  mkdirSync(path.dirname(file), { recursive: true });
  writeAtomically(file, content);
}

/** `writeFileAtomic` without blocking the event loop. */
async function writeFileAtomicAsync(file: string, content: string | Iterable<string>): Promise<void> {
  await mkdir(path.dirname(file), { recursive: true });
  await writeAtomicallyAsync(file, content);
}

/** Stable JSON for artifacts: two-space indent, trailing newline. */
export function artifactJson(value: unknown): string {
  return `${JSON.stringify(value, null, 2)}\n`;
}

/** A run id that sorts by time and does not collide between runs started in the same millisecond. */
export function newRunId(startedAt: Date): string {
  return `${startedAt.toISOString().replace(/[:.]/g, '-')}-${randomBytes(3).toString('hex')}`;
}

export interface RunArtifacts {
  outputDir: string;
  runId: string;
  startedAt: string;
  finishedAt: string;
  versions: RunIndex['versions'];
  outcomes: readonly Outcome[];
  missing: RunIndex['missing'];
  /** What interrupted the run (e.g. "SIGINT"); absent or null when it ran to its end. */
  interruptedBy?: string | null;
  /**
   * Outcomes whose attempts were written while their trial ran (run/attempt-stream), with that file: it is moved into
   * the run folder rather than written again from `attempts` (which may hold lean copies, for rendering only).
   */
  attemptFiles?: ReadonlyMap<Outcome, string>;
  /** The run-wide budget and what the run spent of it; absent or null when the run declared none. */
  runBudget?: BudgetRecord | null;
  /**
   * By position in `outcomes`: what the reports show of the attempts of an Outcome that holds none inline (read from
   * its attempts file, report/attempts-summary); the others are summarised from their inline attempts.
   */
  summaries?: readonly (AttemptsSummary | undefined)[];
  /**
   * `outcomes` and their attempts as the reports show them (report/shown-outcomes, of `outcomes` and `summaries`), when
   * the caller made them already for the terminal: the HTML report takes them rather than neutralising them again.
   */
  shown?: ShownOutcomes;
}

/** One file of a run's artifacts, its content made only when it is written. */
type ArtifactWrite =
  | { kind: 'outcome'; file: string; outcome: Outcome; streamedFrom: string | null }
  | { kind: 'file'; file: string; content: () => string | Iterable<string> };

const trials = (count: number) => `${count} trial${count === 1 ? '' : 's'}`;

/** Why a run is incomplete, in one sentence; null when it is complete. */
export function incompleteReason(run: Pick<RunArtifacts, 'outcomes' | 'missing' | 'interruptedBy'>): string | null {
  const parts: string[] = [];
  if (run.interruptedBy) parts.push(`interrupted by ${run.interruptedBy}`);
  const cutShort = run.outcomes.filter((o) => o.execution.incomplete !== null).length;
  if (cutShort > 0) parts.push(`${trials(cutShort)} cut short`);
  if (run.missing.length > 0) parts.push(`${trials(run.missing.length)} declared but without an Outcome`);
  return parts.length > 0 ? `incomplete run: ${parts.join('; ')}` : null;
}

/**
 * Write one run's artifacts into its own folder, `runs/<runId>/` (Outcomes, index.json, summary.md), then point
 * the top-level index.json at it when the run is complete; an incomplete run keeps only its own folder, so the
 * latest pointer always names a complete run. An earlier run's folder is never touched. Returns the index written
 * last: the top-level one, or the run's own when the run is incomplete.
 */
export function writeRunArtifacts(run: RunArtifacts): { runDir: string; index: string } {
  const writes = artifactWrites(run);
  for (let step = writes.next(); ; step = writes.next()) {
    if (step.done) return step.value;
    const write = step.value;
    if (write.kind === 'outcome') writeOutcomeFiles(write.file, write.outcome, write.streamedFrom);
    else writeFileAtomic(write.file, write.content());
  }
}

/**
 * `writeRunArtifacts` for the reporter: the same files in the same order, written asynchronously with the event loop
 * given a turn between files, so Vitest's timers (its workers' stop) and I/O go on while a large run is written.
 * Attempts already on disk (streamed while their trial ran) are moved into place, never written again.
 */
export async function writeRunArtifactsAsync(run: RunArtifacts): Promise<{ runDir: string; index: string }> {
  const writes = artifactWrites(run);
  for (let step = writes.next(); ; step = writes.next()) {
    if (step.done) return step.value;
    const write = step.value;
    if (write.kind === 'outcome') await writeOutcomeFilesAsync(write.file, write.outcome, write.streamedFrom);
    else await writeFileAtomicAsync(write.file, write.content());
    await turn();
  }
}

/** The files of a run in the order they are written (the indexes last), each made when it is asked for. */
function* artifactWrites(run: RunArtifacts): Generator<ArtifactWrite, { runDir: string; index: string }> {
  const runDir = path.join(run.outputDir, 'runs', run.runId);
  if (existsSync(runDir))
    throw new Error(`riddle: run folder ${runDir} already exists; refusing to overwrite an earlier run`);
  const rows: RunIndex['trials'] = [];
  const used = new Set<string>();
  for (const outcome of run.outcomes) {
    let file = `outcomes/${fileNameSlug(outcome.trial.name)}-${outcome.id.slice(7, 19)}.json`;
    for (let i = 2; used.has(file); i += 1)
      file = `outcomes/${fileNameSlug(outcome.trial.name)}-${outcome.id.slice(7, 19)}-${i}.json`;
    used.add(file);
    yield {
      kind: 'outcome',
      file: path.join(runDir, file),
      outcome,
      streamedFrom: run.attemptFiles?.get(outcome) ?? null,
    };
    rows.push({
      id: outcome.trial.id,
      name: outcome.trial.name,
      file: outcome.trial.file,
      verdict: outcome.judgment.verdict,
      testOutcome: outcome.judgment.testOutcome,
      outcomeId: outcome.id,
      outcome: file,
    });
  }
  const index: RunIndex = {
    schema: RUN_SCHEMA,
    runId: run.runId,
    startedAt: run.startedAt,
    finishedAt: run.finishedAt,
    versions: run.versions,
    incomplete: incompleteReason(run) !== null,
    interruptedBy: run.interruptedBy ?? null,
    trials: rows,
    missing: run.missing,
    runBudget: run.runBudget ?? null,
  };
  const incomplete = incompleteReason(run);
  // Trial names, files and reasons (an error's message) are subject-derived: each stays text on its list item's line.
  const missingLines = run.missing.map(
    (m) => `- ${markdownLine(m.file)} › ${markdownLine(m.name)}: ${markdownLine(m.reason)}`,
  );
  const bannerLines = [
    ...(incomplete === null ? [] : [`> **${markdownLine(incomplete)}**`, '', ...missingLines, '']),
    ...(index.runBudget ? [`> ${markdownText(runBudgetText(index.runBudget))}`, ''] : []),
  ];
  const banner = bannerLines.length === 0 ? '' : `${bannerLines.join('\n')}\n`;
  const file = (name: string, content: () => string | Iterable<string>): ArtifactWrite => ({
    kind: 'file',
    file: path.join(runDir, name),
    content,
  });
  yield file('summary.md', () => banner + renderMarkdown(run.outcomes, run.runId));
  // Written as it is made: a suite of thousands of rows makes a page of tens of megabytes.
  yield file('index.html', () => shownHtmlChunks(run.shown ?? shownOutcomes(run.outcomes, run.summaries), run.runId));
  const suites = run.outcomes.flatMap((o) => (o.suite ? [o.suite] : []));
  // Judges calibrated across every subject of a dataset: only a run holding all of them can compute this.
  if (suites.length > 0) yield file('suite-calibration.json', () => artifactJson(calibrateAcrossSuites(suites)));
  // Findings returned to their owners, grouped by owner, for hand-off (`riddle findings`).
  yield file('findings.json', () => artifactJson(findingsFile(run.outcomes, run.runId)));
  yield file('index.json', () => artifactJson(index));
  if (index.incomplete) return { runDir, index: path.join(runDir, 'index.json') };
  const latest: RunIndex = {
    ...index,
    trials: rows.map((row) => ({ ...row, outcome: `runs/${run.runId}/${row.outcome}` })),
  };
  const top = path.join(run.outputDir, 'index.json');
  yield { kind: 'file', file: top, content: () => artifactJson(latest) };
  return { runDir, index: top };
}
