import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { calibrateAcrossSuites } from '../aggregate/index.js';
import { RUN_SCHEMA, type Outcome, type RunIndex } from '../model/index.js';
import { renderHtml } from './html.js';
import { renderMarkdown } from './markdown.js';
import { writeOutcomeFiles } from './outcome-files.js';

/** Write a file whole or not at all: a temp file beside it, then a rename. */
export function writeFileAtomic(file: string, content: string): void {
  mkdirSync(path.dirname(file), { recursive: true });
  const temp = path.join(
    path.dirname(file),
    `.${path.basename(file)}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`,
  );
  writeFileSync(temp, content);
  renameSync(temp, file);
}

/** Stable JSON for artifacts: two-space indent, trailing newline. */
export function artifactJson(value: unknown): string {
  return `${JSON.stringify(value, null, 2)}\n`;
}

/** A run id that sorts by time and does not collide between runs started in the same millisecond. */
export function newRunId(startedAt: Date): string {
  return `${startedAt.toISOString().replace(/[:.]/g, '-')}-${randomBytes(3).toString('hex')}`;
}

function slug(name: string): string {
  return (
    name
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-|-$/g, '')
      .slice(0, 60) || 'trial'
  );
}

export interface RunArtifacts {
  outputDir: string;
  runId: string;
  startedAt: string;
  finishedAt: string;
  versions: RunIndex['versions'];
  outcomes: readonly Outcome[];
  missing: RunIndex['missing'];
}

/**
 * Write one run's artifacts into its own folder, `runs/<runId>/` (Outcomes, index.json, summary.md), then point
 * the top-level index.json at it. An earlier run's folder is never touched.
 */
export function writeRunArtifacts(run: RunArtifacts): { runDir: string; index: string } {
  const runDir = path.join(run.outputDir, 'runs', run.runId);
  if (existsSync(runDir))
    throw new Error(`riddle: run folder ${runDir} already exists; refusing to overwrite an earlier run`);
  const rows: RunIndex['trials'] = [];
  const used = new Set<string>();
  for (const outcome of run.outcomes) {
    let file = `outcomes/${slug(outcome.trial.name)}-${outcome.id.slice(7, 19)}.json`;
    for (let i = 2; used.has(file); i += 1)
      file = `outcomes/${slug(outcome.trial.name)}-${outcome.id.slice(7, 19)}-${i}.json`;
    used.add(file);
    writeOutcomeFiles(path.join(runDir, file), outcome);
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
    trials: rows,
    missing: run.missing,
  };
  writeFileAtomic(path.join(runDir, 'summary.md'), renderMarkdown(run.outcomes, run.runId));
  writeFileAtomic(path.join(runDir, 'index.html'), renderHtml(run.outcomes, run.runId));
  const suites = run.outcomes.flatMap((o) => (o.suite ? [o.suite] : []));
  // Judges calibrated across every subject of a dataset: only a run holding all of them can compute this.
  if (suites.length > 0)
    writeFileAtomic(path.join(runDir, 'suite-calibration.json'), artifactJson(calibrateAcrossSuites(suites)));
  writeFileAtomic(path.join(runDir, 'index.json'), artifactJson(index));
  const latest: RunIndex = {
    ...index,
    trials: rows.map((row) => ({ ...row, outcome: `runs/${run.runId}/${row.outcome}` })),
  };
  const top = path.join(run.outputDir, 'index.json');
  writeFileAtomic(top, artifactJson(latest));
  return { runDir, index: top };
}
