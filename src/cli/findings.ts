import { existsSync, statSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { migrate, type FindingsFile } from '../model/index.js';
import {
  artifactJson,
  findingsFile,
  findingsFor,
  renderFindingsMarkdown,
  renderFindingsText,
} from '../report/index.js';
import { loadRun, readJsonFile } from './read-records.js';
import { UsageError } from './usage.js';

const FORMATS = ['text', 'json', 'md'] as const;
type Format = (typeof FORMATS)[number];

const isFindings = (data: unknown) =>
  typeof data === 'object' &&
  data !== null &&
  typeof (data as { schema?: unknown }).schema === 'string' &&
  (data as { schema: string }).schema.startsWith('riddle.findings/');

/**
 * A run's findings: its `findings.json` when the target is one or a run folder holding one (the latest run's, for a
 * report folder whose index points there); otherwise built from the run's Outcomes (runs written before findings
 * files, or a single Outcome file), in the same shape.
 */
export function readFindings(target: string): FindingsFile {
  const folder = existsSync(target) && statSync(target).isDirectory() ? target : null;
  if (folder === null) {
    const data = readJsonFile(target);
    if (isFindings(data)) return migrate('findings', data, target);
  } else if (existsSync(path.join(folder, 'findings.json'))) {
    const file = path.join(folder, 'findings.json');
    return migrate('findings', readJsonFile(file), file);
  }
  const run = loadRun(target);
  const runId = run.index?.runId ?? null;
  // A report folder's latest index points into runs/<runId>/, where that run's findings.json is.
  const written = runId === null ? null : path.join(run.base, 'runs', runId, 'findings.json');
  if (written !== null && existsSync(written)) return migrate('findings', readJsonFile(written), written);
  return findingsFile(run.outcomes, runId);
}

/**
 * `riddle findings <run> [--owner X] [--format text|json|md]`: the findings a run returns to their owners, for
 * hand-off to the owning team. Exits 1 when a listed finding is an error, 0 otherwise, 2 on a usage or input error.
 */
export function findingsCommand(args: readonly string[]): number {
  const { values, positionals } = parseArgs({
    args: [...args],
    allowPositionals: true,
    options: { owner: { type: 'string' }, format: { type: 'string' } },
  });
  const [target, ...extra] = positionals;
  if (target === undefined)
    throw new UsageError('findings', 'needs a run folder, an index.json, a findings.json or an Outcome file');
  if (extra.length > 0) throw new UsageError('findings', `takes one run, got also ${extra.join(' ')}`);
  const format = (values.format ?? 'text') as Format;
  if (!FORMATS.includes(format))
    throw new UsageError('findings', `--format must be one of ${FORMATS.join(', ')}; got "${values.format}"`);
  if (values.owner !== undefined && values.owner.trim() === '')
    throw new UsageError('findings', '--owner needs a name (a team, or subject, harness, evaluator, environment)');
  const all = readFindings(target);
  const shown = values.owner === undefined ? all : findingsFor(all, values.owner);
  if (values.owner !== undefined && shown.total === 0 && all.total > 0)
    process.stderr.write(
      `riddle findings: no finding returns to "${values.owner}"; owners in this run: ${all.owners.map((o) => o.owner).join(', ')}\n`,
    );
  const text =
    format === 'json'
      ? artifactJson(shown)
      : format === 'md'
        ? renderFindingsMarkdown(shown)
        : renderFindingsText(shown);
  process.stdout.write(text);
  return shown.owners.some((o) => o.findings.some((f) => f.severity === 'error')) ? 1 : 0;
}
