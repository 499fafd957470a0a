import {
  FINDINGS_SCHEMA,
  returnsTo,
  type CompositionResult,
  type CompositionSummary,
  type FindingsFile,
  type Outcome,
  type ReturnedClaim,
  type ReturnedFinding,
} from '../model/index.js';
import { capabilityScopeText, capabilitySentence } from './capability-text.js';
import { mapStrings, markdownText } from './safe-text.js';

const byteOrder = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/**
 * A run's findings as the `riddle.findings/2` record: every Outcome's findings with the trial and Outcome they came
 * from, grouped by the owner each returns to (a composition's owning team, else its boundary), owners in byte
 * order and findings in the order their Outcomes routed them, so identical runs give identical files; and every
 * Outcome's capability claims, each with the id of the Outcome it was made in.
 */
export function findingsFile(outcomes: readonly Outcome[], runId: string | null): FindingsFile {
  const groups = new Map<string, ReturnedFinding[]>();
  for (const outcome of outcomes) {
    for (const finding of outcome.findings) {
      const owner = returnsTo(finding);
      const returned: ReturnedFinding = { ...finding, trial: outcome.trial, outcome: outcome.id };
      groups.set(owner, [...(groups.get(owner) ?? []), returned]);
    }
  }
  const owners = [...groups.entries()]
    .sort(([a], [b]) => byteOrder(a, b))
    .map(([owner, findings]) => ({ owner, findings }));
  const claims: ReturnedClaim[] = outcomes.flatMap((outcome) =>
    outcome.capabilities.map((claim) => ({ ...claim, trial: outcome.trial, outcome: outcome.id })),
  );
  return {
    schema: FINDINGS_SCHEMA,
    runId,
    owners,
    total: owners.reduce((n, o) => n + o.findings.length, 0),
    claims,
  };
}

/** Only the findings returning to `owner` (a team, or a boundary: subject, harness, evaluator, environment). */
export function findingsFor(file: FindingsFile, owner: string): FindingsFile {
  const owners = file.owners
    .map((group) => ({
      owner: group.owner,
      findings: group.findings.filter((f) => group.owner === owner || f.owner === owner),
    }))
    .filter((group) => group.findings.length > 0);
  return { ...file, owners, total: owners.reduce((n, o) => n + o.findings.length, 0) };
}

const cell = (s: string) => s.replace(/\|/g, '\\|').replace(/\n/g, ' ');
const attemptsText = (f: ReturnedFinding) =>
  f.attemptCount === 0
    ? '—'
    : `${f.attempts.map((a) => `${a.arm}#${a.index}`).join(', ')}${f.attemptCount > f.attempts.length ? ` (+${f.attemptCount - f.attempts.length} more)` : ''}`;

/** Findings as Markdown for hand-off: a section per owner, one table row per finding with what it rests on. */
export function renderFindingsMarkdown(unsafe: FindingsFile): string {
  const file = mapStrings(unsafe, markdownText);
  const lines = [
    `# Findings${file.runId ? ` of run ${file.runId}` : ''}`,
    '',
    `${file.total} finding${file.total === 1 ? '' : 's'}.`,
  ];
  if (file.claims?.length) {
    lines.push('', `## Capability claims (${file.claims.length})`, '');
    for (const claim of file.claims)
      lines.push(
        `- ${cell(claim.trial.name)}: ${cell(capabilitySentence(claim))} _(for ${cell(capabilityScopeText(claim))}; Outcome \`${claim.outcome}\`)_`,
      );
  }
  for (const group of file.owners) {
    lines.push('', `## ${group.owner} (${group.findings.length})`, '');
    lines.push(
      '| severity | kind | trial | composition | finding | attempts | evidence | id |',
      '|---|---|---|---|---|---|---|---|',
    );
    for (const f of group.findings) {
      const composition = f.composition ? `${f.composition.name} (${f.composition.version})` : '—';
      const evidence = f.evidence.map((e) => `${e.kind} ${e.target}: ${e.detail}`).join('; ') || '—';
      lines.push(
        `| ${f.severity} | ${cell(f.kind)} | ${cell(f.trial.name)} | ${cell(composition)} | ${cell(f.message)} | ${cell(attemptsText(f))} | ${cell(evidence)} | \`${f.id}\` |`,
      );
    }
  }
  return `${lines.join('\n')}\n`;
}

/** Findings as plain text for a terminal: owner headings, one finding per line with its id and attempts. */
export function renderFindingsText(unsafe: FindingsFile): string {
  const file = mapStrings(unsafe);
  const lines: string[] = file.total === 0 ? ['no findings'] : [];
  for (const group of file.owners) {
    lines.push(`${group.owner} (${group.findings.length})`);
    for (const f of group.findings) {
      const composition = f.composition ? ` [${f.composition.name} ${f.composition.version}]` : '';
      lines.push(`  ${f.severity} ${f.kind}${composition} — ${f.trial.name}: ${f.message}`);
      lines.push(`    ${f.id} · attempts ${attemptsText(f)}`);
    }
  }
  if (file.claims?.length) {
    lines.push(`capability claims (${file.claims.length})`);
    for (const claim of file.claims) {
      lines.push(`  ${claim.trial.name}: ${capabilitySentence(claim)}`);
      lines.push(`    for ${capabilityScopeText(claim)} · Outcome ${claim.outcome}`);
    }
  }
  return `${lines.join('\n')}\n`;
}

/** Each composition's own verdict and rate beside the end-to-end verdict, one line each (terminal and Markdown). */
export function compositionLines(summary: CompositionSummary): string[] {
  return summary.results.map((r) => {
    const rate =
      r.rate === null || r.interval === null
        ? 'not run'
        : `${r.successes}/${r.ran} met (${r.rate.toFixed(2)}, ${Math.round(r.interval.confidence * 100)}% [${r.interval.lower.toFixed(2)}, ${r.interval.upper.toFixed(2)}])`;
    const extra = [
      r.crashed ? `${r.crashed} crashed` : '',
      r.invalidOutputs ? `${r.invalidOutputs} broke its type` : '',
      r.notReached ? `${r.notReached} not reached` : '',
      r.attributed ? `${r.attributed} failures attributed` : '',
    ]
      .filter(Boolean)
      .join(', ');
    const itself = r.observed && r.observed.passes > 0 ? `; itself: ${observedText(r.observed)}` : '';
    return `${r.composition} (${r.owner}, ${r.version}) ${r.verdict}: ${rate}${extra ? `; ${extra}` : ''}${itself}`;
  });
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/** A composition's own observation in words: `3 passes, 2 files changed, 4 tool calls (1 failed), 1 receipt, cpu 12 ms`. */
export function observedText(observed: NonNullable<CompositionResult['observed']>): string {
  return [
    `${observed.passes} pass${observed.passes === 1 ? '' : 'es'}`,
    observed.files === null ? 'files not watched' : `${plural(observed.files, 'file')} changed`,
    `${plural(observed.tools, 'tool call')}${observed.toolErrors ? ` (${observed.toolErrors} failed)` : ''}`,
    plural(observed.receipts, 'receipt'),
    ...(observed.cpuMs === null ? [] : [`cpu ${Math.round(observed.cpuMs)} ms`]),
    ...(observed.peakRssBytes === null ? [] : [`peak ${Math.round(observed.peakRssBytes / 1048576)} MiB`]),
  ].join(', ');
}
