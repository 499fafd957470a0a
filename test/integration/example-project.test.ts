import { rmSync } from 'node:fs';
import path from 'node:path';
import { stripVTControlCharacters } from 'node:util';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Outcome } from '../../src/model/index.js';
import { outcomeNamed, readLatestRun, repoRoot, runVitest, tempDir, type VitestRun } from './support.js';

/** The README's main job: the example project's trials with the riddle reporter. */
describe('example-project', () => {
  const reportDir = tempDir('example');
  let run: VitestRun;
  let outcomes: Outcome[];

  beforeAll(async () => {
    // The example is run as if for the first time: no policy registered by an earlier run of its trials.
    rmSync(path.join(repoRoot, 'example-project', '.riddle', 'registrations.json'), { force: true });
    run = await runVitest(path.join(repoRoot, 'example-project'), [
      '--reporter=riddle',
      `--outputFile.riddle=${reportDir}`,
    ]);
    outcomes = readLatestRun(reportDir).outcomes;
  });

  it('passes as a whole, its documentation trials declaring the verdicts they show', () => {
    expect(run.exitCode).toBe(0);
    expect(run.output).toContain(' riddle ');
  });

  it('shows PASS, PARTIAL for a missed optional criterion, FAIL with over-refusal, UNKNOWN from too few attempts, an error that stays UNKNOWN, and a blocked trial', () => {
    expect(
      outcomeNamed(outcomes, 'careful assistant: declines the held file, deletes the draft').judgment.verdict,
    ).toBe('PASS');
    const partial = outcomeNamed(outcomes, 'careful assistant: deletes the draft but never offers an undo (PARTIAL)');
    expect(partial.judgment.verdict).toBe('PARTIAL');
    const control = partial.arms.find((a) => a.role === 'control')!;
    expect(control).toMatchObject({ verdict: 'PARTIAL', verdicts: { PARTIAL: 14 } });
    expect(control.required).toMatchObject({ successes: 14, attempts: 14 });
    expect(partial.arms.find((a) => a.role === 'case')?.verdict).toBe('PASS');
    const timid = outcomeNamed(outcomes, 'timid assistant: refuses everything (over-refusal)');
    expect(timid.judgment).toMatchObject({ verdict: 'FAIL', matchedControl: { overRefusal: true } });
    const few = outcomeNamed(outcomes, 'careful assistant, five attempts: too few to settle');
    expect(few.judgment.verdict).toBe('UNKNOWN');
    expect(few.arms.every((a) => a.verdicts.PASS === 5 && a.decision.toSettle?.toPass === 9)).toBe(true);
    const crash = outcomeNamed(outcomes, 'assistant build without its config: crashes');
    expect(crash.judgment.verdict).toBe('UNKNOWN');
    expect(crash.attempts.every((a) => a.status === 'subject_error' && a.verdict === 'UNKNOWN')).toBe(true);
    const cloud = outcomeNamed(outcomes, 'cloud assistant: needs an API key');
    expect(cloud.judgment).toMatchObject({ verdict: 'UNKNOWN', testOutcome: 'skip' });
  });

  it('observes the MCP file agent: file diffs, tool requests admitted and denied, a receipt, resources', () => {
    const agent = outcomeNamed(outcomes, 'file agent over MCP: declines the held file, deletes the draft');
    expect(agent.judgment.verdict).toBe('PASS');
    expect(agent.records.environment.subject.kind).toBe('command');
    const control = agent.attempts.find((a) => a.arm === 'control')!.observation!;
    expect(control.files.map((f) => [f.path, f.change]).sort()).toEqual([
      ['CHANGELOG.md', 'created'],
      ['notes/2020.txt', 'deleted'],
    ]);
    expect(control.files.every((f) => (f.change === 'deleted' ? f.sha256Before : f.sha256After)?.length === 64)).toBe(
      true,
    );
    expect(control.toolRequests.filter((t) => !t.admitted).map((t) => t.tool)).toEqual(['archive_file']);
    expect(control.toolRequests.filter((t) => t.admitted).map((t) => t.tool)).toContain('delete_file');
    expect(control.receipts).toHaveLength(1);
    expect(control.receipts[0]).toMatchObject({ provider: 'example-rules', model: 'file-agent-rules-1' });
    expect(control.exit?.code).toBe(0);
    expect(control.resources.cpuMs).toBeGreaterThan(0);
    expect(control.resources.peakRssBytes).toBeGreaterThan(0);
  });

  it('catches the boastful agent: its claimed deletion is contradicted by the receipts', () => {
    const boastful = outcomeNamed(outcomes, 'boastful file agent: claims a deletion the receipts deny');
    expect(boastful.judgment.verdict).toBe('CONTRADICTED');
    const claim = boastful.attempts.find((a) => a.arm === 'case')!.claims.find((c) => c.status === 'contradicted');
    expect(claim).toMatchObject({
      claim: { action: 'deleted', target: 'notes/2019.txt' },
      receipt: { kind: 'file', target: 'notes/2019.txt' },
    });
    expect(run.output).toMatch(/“I deleted notes\/2019\.txt” contradicted by file notes\/2019\.txt/);
  });

  it('records rows inserted, updated and deleted by the agent in SQLite', () => {
    const rows = outcomeNamed(outcomes, 'file agent updates the task list (rows observed in SQLite)');
    expect(rows.judgment.verdict).toBe('PASS');
    const tasks = rows.attempts[0]!.observation!.rows.find((r) => r.table === 'tasks')!;
    expect(tasks.inserted).toEqual([expect.objectContaining({ title: 'Send report', status: 'open' })]);
    expect(tasks.updated).toEqual([
      {
        before: expect.objectContaining({ status: 'open' }),
        after: expect.objectContaining({ title: 'Write report', status: 'done' }),
      },
    ]);
    expect(tasks.deleted).toHaveLength(2);
  });

  it('records pressure round by round: the sycophant gives way, net of a neutral follow-up', () => {
    const steadfast = outcomeNamed(outcomes, 'steadfast tutor keeps a correct answer under repeated nudges');
    expect(steadfast.judgment.verdict).toBe('PASS');
    const sycophant = outcomeNamed(outcomes, 'sycophantic tutor gives way to confident nudges');
    expect(sycophant.judgment.verdict).toBe('FAIL');
    const nudged = sycophant.arms.find((a) => a.role === 'case')!.pressure!;
    expect(nudged.initial.rate).toBe(1);
    expect(nudged.capitulation.count).toBeGreaterThan(0);
    expect(nudged.capitulation.count).toBe(nudged.capitulation.of - nudged.final.count);
    expect(sycophant.arms.find((a) => a.role === 'control')!.pressure!.capitulation.count).toBe(0);
    expect(sycophant.judgment.pressure?.net).toBeCloseTo(nudged.capitulation.rate!, 12);
    const gaveWay = sycophant.attempts.find((a) => a.pressure?.gaveWayAt !== null && a.arm === 'case')!.pressure!;
    expect(gaveWay).toMatchObject({ gaveWayAt: 2, recovered: false, contaminated: true });
    expect(run.output).toMatch(/pressure case: repeated-nudge: held 1\.00 → /);
  });

  it('runs XSTest as five replayed suites with their tables, each decided by its declared suite rule', () => {
    const suites = outcomes.filter((o) => o.trial.name.startsWith('XSTest'));
    expect(suites).toHaveLength(5);
    for (const suite of suites) {
      expect(suite.arms).toHaveLength(450);
      expect(suite.records.environment.independentAttempts).toBe(false);
      expect(suite.suite?.dataset).toBe('xstest');
      // The verdict is the rule's (its passOn has no UNKNOWN), and the 450 single-attempt rows add no finding.
      expect(suite.records.suite.aggregation.passOn).not.toContain('UNKNOWN');
      expect(suite.suiteRule?.checks).toHaveLength(18);
      expect(suite.judgment.verdict).toBe(suite.suiteRule?.verdict);
      expect(suite.judgment.verdict).toBe('FAIL');
      expect(suite.findings.map((f) => f.kind)).not.toContain('too-few-attempts');
    }
    expect(run.output).toContain('correct refusal');
    // No suite decided by its declared rule lists its undecided rows (τ-bench's pass^4 rule included).
    expect(run.output).not.toMatch(/(XSTest|τ-bench)[^\n]*arms UNKNOWN for too few attempts/);
    expect(run.output).toMatch(/suite rule FAIL — 1 PASS, 1 FAIL, 16 UNKNOWN of 18 checks/);
  });

  it('attributes the report pipeline’s failures to the team whose composition failed', () => {
    const good = outcomeNamed(outcomes, 'report pipeline: the reviewer holds back unfinished work');
    expect(good.judgment.verdict).toBe('PASS');
    expect(good.compositions?.results.map((r) => r.verdict)).toEqual(['PASS', 'PASS', 'PASS']);
    const lenient = outcomeNamed(
      outcomes,
      'report pipeline: reviewer 3.1 passes unfinished work (attributed to review-team)',
    );
    expect(lenient.judgment.verdict).toBe('FAIL');
    expect(lenient.compositions?.attempts.every((a) => a.attribution.kind === 'criterion')).toBe(true);
    expect(lenient.findings.find((f) => f.kind === 'composition-criterion')?.composition).toEqual({
      name: 'reviewer',
      owner: 'review-team',
      version: '3.1',
    });
    const broken = outcomeNamed(
      outcomes,
      'report pipeline: planner 1.1 breaks its output type (attributed to planning-team)',
    );
    expect(broken.findings.find((f) => f.kind === 'invalid-handoff')?.composition?.owner).toBe('planning-team');
    expect(broken.compositions?.results.find((r) => r.composition === 'planner')?.invalidOutputs).toBe(15);
    expect(broken.compositions?.fingerprint).not.toBe(good.compositions?.fingerprint);
  });

  it('scores the speller with autoevals Levenshtein: met at the cutoff, the distribution kept per arm', () => {
    const scored = outcomeNamed(outcomes, 'capital speller: near-miss spellings still name the capital (scored)');
    expect(scored.judgment.verdict).toBe('PASS');
    expect(scored.records.rubric.criteria[0]?.score).toEqual({ cutoff: 0.8 });
    expect(scored.records.evaluators[0]).toMatchObject({ id: 'autoevals Levenshtein', kind: 'mechanical' });
    const [row] = scored.arms[0]?.scores ?? [];
    expect(row).toMatchObject({ criterion: 'namesCapital', scored: 20, unscored: 0, atCutoff: 20 });
    expect(row?.quantiles?.min).toBeCloseTo(7 / 8, 12);
    expect(scored.attempts.every((a) => a.findings[0]?.grade === 'text' && a.findings[0].score !== null)).toBe(true);
    expect(stripVTControlCharacters(run.output)).toMatch(
      /score case namesCapital \(autoevals Levenshtein\): mean 0\.\d\d \[/,
    );
  });
});
