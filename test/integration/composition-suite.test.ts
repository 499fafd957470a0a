import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { execa } from 'execa';
import { beforeAll, describe, expect, it } from 'vitest';
import { FindingsFile, migrate, type Comparison, type Outcome } from '../../src/model/index.js';
import { fixture, outcomeNamed, readLatestRun, repoRoot, runVitest, tempDir, type VitestRun } from './support.js';

const project = fixture('composition-suite');
const cliBin = path.join(repoRoot, 'dist', 'cli', 'main.js');
const riddle = (args: string[]) =>
  execa(process.execPath, [cliBin, ...args], { reject: false, env: { NO_COLOR: '1' }, timeout: 300_000 });

describe('a planner → executor → reviewer Composition Suite run by Vitest', () => {
  const reportDir = tempDir('composition');
  let run: VitestRun;
  let outcomes: Outcome[];

  beforeAll(async () => {
    run = await runVitest(project, ['--reporter=riddle', `--outputFile.riddle=${reportDir}`]);
    outcomes = readLatestRun(reportDir).outcomes;
  });

  it('passes the good release and fails the two broken ones, with per-composition lines in the summary', () => {
    expect(run.exitCode).toBe(1);
    expect(run.output).toContain('composition reviewer (review-team, reviewer@3.1) FAIL');
    expect(outcomeNamed(outcomes, 'pipeline ships good work').judgment.verdict).toBe('PASS');
  });

  it('pins the graph: its fingerprint and each composition version, and one revision per release', () => {
    const good = outcomeNamed(outcomes, 'pipeline ships good work');
    const lenient = outcomeNamed(outcomes, 'reviewer release passes sloppy work');
    expect(good.compositions?.suite.compositions.map((c) => `${c.name}:${c.owner}:${c.version}`)).toEqual([
      'planner:planning-team:planner@1.0',
      'executor:execution-team:executor@2.0',
      'reviewer:review-team:reviewer@3.0',
    ]);
    expect(good.compositions?.fingerprint).toMatch(/^sha256:/);
    expect(lenient.compositions?.fingerprint).not.toBe(good.compositions?.fingerprint);
    expect(good.records.environment.subject.revision).not.toBe(lenient.records.environment.subject.revision);
    expect(good.setup).not.toBe(lenient.setup);
  });

  it('records every handoff of every attempt, with fingerprints, retained payloads and checks', () => {
    const good = outcomeNamed(outcomes, 'pipeline ships good work');
    expect(good.attempts).toHaveLength(20);
    for (const attempt of good.attempts) {
      const trace = attempt.observation?.composition;
      expect(trace?.stopped).toEqual({ kind: 'finished' });
      expect(trace?.handoffs.map((h) => `${h.producer ?? 'input'}>${h.consumer ?? 'reply'}:${h.check.result}`)).toEqual(
        ['input>planner:valid', 'planner>executor:valid', 'executor>reviewer:valid', 'reviewer>reply:valid'],
      );
      expect(trace?.handoffs[1]?.payload.value).toEqual({
        steps: [{ title: 'draft the report' }, { title: 'send it' }],
      });
      expect(trace?.steps.map((s) => s.owner)).toEqual(['planning-team', 'execution-team', 'review-team']);
    }
    expect(good.compositions?.results.map((r) => [r.composition, r.verdict, r.successes, r.ran])).toEqual([
      ['planner', 'PASS', 20, 20],
      ['executor', 'PASS', 20, 20],
      ['reviewer', 'PASS', 20, 20],
    ]);
    // Each composition's own observation, summed: one pass per attempt, no workspace to watch, no tools called.
    expect(good.compositions?.results.map((r) => r.observed)).toEqual(
      ['planner', 'executor', 'reviewer'].map(() => ({
        passes: 20,
        files: null,
        tools: 0,
        toolErrors: 0,
        receipts: 0,
        cpuMs: null,
        peakRssBytes: null,
      })),
    );
    // Nothing returns to a composition's team (other processes' writes may still show as an environment finding).
    expect(good.findings.filter((f) => f.owner !== 'environment')).toEqual([]);
  });

  it("attributes a broken output type to the producer's team, and stops the attempt there", () => {
    const broken = outcomeNamed(outcomes, 'planner release breaks its output type');
    expect(broken.attempts.every((a) => a.status === 'subject_error')).toBe(true);
    for (const row of broken.compositions?.attempts ?? []) {
      expect(row.stopped).toEqual({ kind: 'invalid-handoff', producer: 'planner', consumer: 'executor', iteration: 1 });
      expect(row.attribution).toMatchObject({ kind: 'invalid-handoff', composition: 'planner', consumer: 'executor' });
    }
    expect(broken.compositions?.results.map((r) => [r.composition, r.verdict, r.ran, r.notReached])).toEqual([
      ['planner', 'FAIL', 20, 0],
      ['executor', 'UNKNOWN', 0, 20],
      ['reviewer', 'UNKNOWN', 0, 20],
    ]);
    const handoff = broken.findings.find((f) => f.kind === 'invalid-handoff');
    expect(handoff).toMatchObject({
      owner: 'subject',
      composition: { name: 'planner', owner: 'planning-team', version: 'planner@1.1' },
      severity: 'error',
      attemptCount: 20,
      evidence: [{ kind: 'handoff', target: 'planner → executor', grade: 'observation' }],
    });
    // The generic subject-error finding gives way to the attribution.
    expect(broken.findings.some((f) => f.kind === 'subject-error')).toBe(false);
  });

  it('attributes approved sloppy work to the reviewer, along the path, beside the end-to-end FAIL', () => {
    const lenient = outcomeNamed(outcomes, 'reviewer release passes sloppy work');
    expect(lenient.judgment.verdict).toBe('FAIL');
    const failed = lenient.attempts.filter((a) => a.verdict === 'FAIL');
    expect(failed.length).toBeGreaterThan(0);
    for (const attempt of failed) {
      const row = lenient.compositions?.attempts.find((r) => r.arm === attempt.arm && r.index === attempt.index);
      expect(row?.attribution).toMatchObject({
        kind: 'criterion',
        composition: 'reviewer',
        criterion: 'rejectsPoorWork',
        chain: [
          { composition: 'planner', state: 'met' },
          { composition: 'executor', state: 'met' },
          { composition: 'reviewer', state: 'unmet-criterion' },
        ],
      });
    }
    const reviewer = lenient.compositions?.results.find((r) => r.composition === 'reviewer');
    expect(reviewer).toMatchObject({ verdict: 'FAIL', attributed: failed.length, ran: 20 });
    expect(reviewer?.criteria[0]).toMatchObject({ criterion: 'rejectsPoorWork', met: 20 - failed.length, judged: 20 });
    expect(reviewer?.interval?.confidence).toBe(0.95);
    const finding = lenient.findings.find((f) => f.kind === 'composition-criterion');
    expect(finding?.composition?.owner).toBe('review-team');
    expect(finding?.attempts.map((a) => a.index)).toEqual(failed.map((a) => a.index));
  });

  it('writes findings.json grouped by the owner each finding returns to', () => {
    const runs = path.join(reportDir, 'runs');
    const [runId] = readdirSync(runs);
    const file = path.join(runs, runId as string, 'findings.json');
    const findings = migrate('findings', JSON.parse(readFileSync(file, 'utf8')), file);
    expect(FindingsFile.parse(findings).runId).toBe(runId);
    // Other owners may appear (an unisolated subject's run can see other processes' files change: environment).
    const owners = findings.owners.map((o) => o.owner);
    expect(owners).toEqual([...owners].sort());
    expect(owners).toEqual(expect.arrayContaining(['planning-team', 'review-team', 'subject']));
    const planning = findings.owners[0]?.findings ?? [];
    expect(planning.map((f) => f.kind)).toEqual(['invalid-handoff', 'composition-verdict']);
    expect(planning[0]?.trial.name).toBe('planner release breaks its output type');
    expect(planning[0]?.outcome).toBe(outcomeNamed(outcomes, 'planner release breaks its output type').id);
    expect(findings.total).toBe(findings.owners.reduce((n, o) => n + o.findings.length, 0));
    // Every healthy Outcome's capability claims, each with the id of the Outcome it was made in.
    expect(findings.claims).toEqual(
      outcomes.flatMap((o) => o.capabilities.map((claim) => ({ ...claim, trial: o.trial, outcome: o.id }))),
    );
  });

  it('riddle findings lists them by owner, as text, JSON and Markdown', async () => {
    const text = await riddle(['findings', reportDir, '--owner', 'review-team']);
    expect(text.exitCode).toBe(1);
    expect(text.stdout).toMatch(/^review-team \(2\)/);
    expect(text.stdout).toContain('error composition-criterion [reviewer reviewer@3.1]');
    expect(text.stdout).not.toContain('planning-team');
    const json = await riddle(['findings', reportDir, '--owner', 'planning-team', '--format', 'json']);
    const parsed = FindingsFile.parse(JSON.parse(json.stdout));
    expect(parsed.owners.map((o) => o.owner)).toEqual(['planning-team']);
    expect(parsed.owners[0]?.findings[0]?.id).toMatch(/^finding:[0-9a-f]{16}$/);
    const md = await riddle(['findings', reportDir, '--format', 'md']);
    expect(md.stdout).toContain('## planning-team (2)');
    expect(md.stdout).toContain('| severity | kind | trial | composition | finding | attempts | evidence | id |');
    const wrong = await riddle(['findings', reportDir, '--format', 'xml']);
    expect(wrong.exitCode).toBe(2);
    expect(wrong.stderr).toContain('--format must be one of text, json, md');
  });

  it('riddle diff says which composition changed and how each one moved, paired by attempt', async () => {
    const next = tempDir('composition-next');
    await runVitest(project, ['--reporter=riddle', `--outputFile.riddle=${next}`], {
      PIPELINE_RELEASE: 'good',
      PIPELINE_PLANNER: 'breaks-type',
    });
    const json = await riddle(['diff', reportDir, next, '--json']);
    const comparison = JSON.parse(json.stdout) as Comparison;
    expect(comparison.schema).toBe('riddle.comparison/3');
    const trial = comparison.trials.find((t) => t.trial.name === 'pipeline ships good work');
    expect(trial?.verdict).toEqual({ a: 'PASS', b: 'UNKNOWN' });
    expect(trial?.compositions.map((c) => [c.composition, c.changed, c.verdict.a, c.verdict.b])).toEqual([
      ['planner', true, 'PASS', 'FAIL'],
      ['executor', false, 'PASS', 'UNKNOWN'],
      ['reviewer', false, 'PASS', 'UNKNOWN'],
    ]);
    expect(trial?.compositions[0]?.version).toEqual({ a: 'planner@1.0', b: 'planner@1.1' });
    expect(trial?.compositions[0]?.pairs).toMatchObject({ pairs: 20, aOnly: 20, bOnly: 0 });
    expect(trial?.compositions[1]?.pairs).toBeNull();
    const text = await riddle(['diff', reportDir, next]);
    expect(text.stdout).toContain(
      'planner (planning-team) planner@1.0 → planner@1.1 changed: PASS → FAIL, 20/20 → 0/20 met; paired 20/0 of 20',
    );
  });

  it('keeps finding ids stable across runs of the same releases', async () => {
    const again = tempDir('composition-again');
    await runVitest(project, ['--reporter=riddle', `--outputFile.riddle=${again}`], {
      PIPELINE_RELEASE: 'lenient-reviewer',
    });
    const rerun = outcomeNamed(readLatestRun(again).outcomes, 'reviewer release passes sloppy work');
    const first = outcomeNamed(outcomes, 'reviewer release passes sloppy work');
    const ids = (o: Outcome) => o.findings.filter((f) => f.owner === 'subject').map((f) => f.id);
    expect(ids(rerun)).toEqual(ids(first));
    expect(ids(first).length).toBeGreaterThan(2);
  });
});
