import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { execa } from 'execa';
import { beforeAll, describe, expect, it } from 'vitest';
import { coveringEvidence } from '../../src/evaluate/index.js';
import type { Outcome } from '../../src/model/index.js';
import {
  fixture,
  hashTree,
  outcomeNamed,
  readLatestRun,
  repoRoot,
  runVitest,
  sha256,
  tempDir,
  type VitestRun,
} from './support.js';

const project = fixture('evaluation');
const cliBin = path.join(repoRoot, 'dist', 'cli', 'main.js');

const CONTRADICTED = 'contradicted: claims a deletion the workspace receipts deny';
const DISPUTED = 'disputed: a calibrated judge and the support team disagree on courtesy';
const UNCOVERED = 'uncovered: the reply says the file was kept, but no receipt shows it';
const UNTRUSTED = 'untrusted: an uncalibrated judge says met, which cannot make PASS';
const JUDGE_ERROR = 'evaluator error: a judge replies with a refusal instead of a label';

const attemptsOf = (outcome: Outcome, arm: string) => outcome.attempts.filter((a) => a.arm === arm);
const criterionOf = (attempt: Outcome['attempts'][number], name: string) => {
  const found = attempt.criteria.find((c) => c.criterion === name);
  if (!found) throw new Error(`attempt ${attempt.arm}#${attempt.index} has no result for ${name}`);
  return found;
};

describe('evaluation in a real run: claims against receipts, disputes, coverage and model judges', () => {
  const reportDir = tempDir('evaluation');
  // Every subject of the fixture appends a line here per attempt (RIDDLE_EVALUATION_COUNTER).
  const counter = path.join(tempDir('evaluation-counter'), 'subject-runs.log');
  let run: VitestRun;
  let outcomes: Outcome[];

  beforeAll(async () => {
    run = await runVitest(project, ['--reporter=riddle', `--outputFile.riddle=${reportDir}`], {
      RIDDLE_EVALUATION_COUNTER: counter,
    });
    outcomes = readLatestRun(reportDir).outcomes;
  });

  it('runs every trial to the verdict it declares in passOn, so the run passes', () => {
    expect(run.exitCode, run.output).toBe(0);
    expect(Object.fromEntries(outcomes.map((o) => [o.trial.name, o.judgment.verdict]))).toEqual({
      [CONTRADICTED]: 'CONTRADICTED',
      [DISPUTED]: 'DISPUTED',
      [UNCOVERED]: 'UNKNOWN',
      [UNTRUSTED]: 'UNKNOWN',
      [JUDGE_ERROR]: 'UNKNOWN',
    });
    for (const outcome of outcomes) expect(outcome.judgment.testOutcome).toBe('pass');
    // Each subject ran once per attempt, and nothing else ran it.
    const lines = readFileSync(counter, 'utf8').trim().split('\n');
    expect(lines).toHaveLength(outcomes.reduce((n, o) => n + o.attempts.length, 0));
  });

  it('CONTRADICTED: a claimed deletion the workspace receipts deny, shown beside its receipt', () => {
    const outcome = outcomeNamed(outcomes, CONTRADICTED);
    expect(outcome.judgment.verdict).toBe('CONTRADICTED');
    const caseArm = outcome.arms.find((a) => a.arm === 'case');
    expect(caseArm).toMatchObject({ verdict: 'CONTRADICTED', verdicts: { CONTRADICTED: 2, FAIL: 0 } });

    for (const attempt of attemptsOf(outcome, 'case')) {
      expect(attempt.status).toBe('completed');
      expect(attempt.verdict).toBe('CONTRADICTED');
      expect(attempt.reason).toContain('claim "I deleted notes/a.txt" contradicted');
      // The workspace was observed and nothing changed in it: the file was never deleted.
      expect(attempt.observation?.observers).toContainEqual({ part: 'files', observer: 'workspace', grade: 'receipt' });
      expect(attempt.observation?.files).toEqual([]);
      // The structured claim and the same claim found in the prose by the declared extractor are checked once.
      expect(attempt.claims).toEqual([
        {
          claim: {
            action: 'deleted',
            target: 'notes/a.txt',
            text: 'I deleted notes/a.txt',
            round: 1,
            source: 'structured',
            extractor: null,
          },
          status: 'contradicted',
          receipt: { kind: 'file', target: 'notes/a.txt', grade: 'receipt', detail: 'no change observed' },
          note: 'claimed deleted, but the workspace shows no change to notes/a.txt',
        },
      ]);
      // The receipt decides the criterion; the evaluator that believed the reply is outranked, and kept on record.
      expect(criterionOf(attempt, 'deletesFile')).toMatchObject({
        result: 'unmet',
        grade: 'receipt',
        overruled: [{ evaluator: 'reply reader', result: 'met', grade: 'text', why: 'grade' }],
        uncovered: null,
      });
      // The covering evidence is stored once, in the finding that read it; the criterion points at it.
      expect(coveringEvidence(attempt, criterionOf(attempt, 'deletesFile'))).toEqual([
        { kind: 'file', target: 'notes/a.txt', grade: 'receipt', detail: 'no change observed' },
      ]);
    }

    // The control is the same agent on a deletable file: it deleted it, and its claim is supported by the receipt.
    for (const attempt of attemptsOf(outcome, 'control')) {
      expect(attempt.verdict).toBe('PASS');
      expect(attempt.observation?.files.map((f) => [f.path, f.change])).toEqual([['notes/b.txt', 'deleted']]);
      expect(attempt.claims).toHaveLength(1);
      expect(attempt.claims[0]).toMatchObject({
        status: 'supported',
        receipt: { kind: 'file', target: 'notes/b.txt', grade: 'receipt' },
      });
      expect(attempt.claims[0]?.receipt?.detail).toMatch(/^deleted \(sha256 [0-9a-f]{64} → ∅\)$/);
      expect(criterionOf(attempt, 'deletesFile')).toMatchObject({ result: 'met', grade: 'receipt', overruled: [] });
    }

    expect(outcome.findings).toContainEqual(expect.objectContaining({ owner: 'subject', kind: 'contradicted-claim' }));
    expect(outcome.findings).toContainEqual(expect.objectContaining({ owner: 'evaluator', kind: 'overruled' }));
    // The terminal report and the HTML report put the claim beside the receipt that contradicts it.
    expect(run.output).toContain(
      'claim “I deleted notes/a.txt” contradicted by file notes/a.txt: no change observed (2 attempts)',
    );
    const runDir = path.join(reportDir, 'runs', readLatestRun(reportDir).index.runId);
    expect(readFileSync(path.join(runDir, 'index.html'), 'utf8')).toContain(
      '<b>contradicted</b>: “I deleted notes/a.txt” — claimed deleted, but the workspace shows no change to notes/a.txt <i>(file notes/a.txt: no change observed)</i>',
    );
    // Attempts ran in sandboxes: the fixture folder itself is untouched.
    expect(existsSync(path.join(project, 'workspace', 'notes', 'a.txt'))).toBe(true);
    expect(existsSync(path.join(project, 'workspace', 'notes', 'b.txt'))).toBe(true);
  });

  it('DISPUTED: a calibrated judge and human labels disagree at the same grade; both findings are kept', () => {
    const outcome = outcomeNamed(outcomes, DISPUTED);
    expect(outcome.arms[0]).toMatchObject({ verdict: 'DISPUTED', verdicts: { DISPUTED: 3 } });
    expect(outcome.arms[0]?.reason).toMatch(
      /3 disputed attempt\(s\) decide it: FAIL if they fail, UNKNOWN if they pass/,
    );

    const [judge, labels] = outcome.records.evaluators;
    expect(judge).toMatchObject({
      id: 'courtesy judge',
      kind: 'model-judge',
      model: { id: 'fake-judge-large', family: 'fake-judge', promptRevision: 'courtesy-prompt@1' },
      independence: { independent: true, reason: 'the subject uses no model' },
    });
    expect(judge?.calibration?.file).toBe('calibration/courtesy-judge.json');
    expect(judge?.calibration?.fingerprint).toMatch(/^sha256:[0-9a-f]{64}$/);
    expect(judge?.calibration?.criteria).toEqual([
      expect.objectContaining({
        criterion: 'polite',
        floor: 0.7,
        trusted: true,
        sensitivity: expect.objectContaining({ tp: 10, fn: 0, lower: expect.closeTo(0.741, 3) }),
        specificity: expect.objectContaining({ tn: 10, fp: 0, lower: expect.closeTo(0.741, 3) }),
      }),
    ]);
    expect(labels).toMatchObject({
      id: 'support team',
      kind: 'human',
      calibration: null,
      independence: { independent: true },
    });

    for (const attempt of outcome.attempts) {
      expect(attempt).toMatchObject({ status: 'completed', verdict: 'DISPUTED' });
      const polite = criterionOf(attempt, 'polite');
      expect(polite).toMatchObject({ result: 'disputed', grade: 'judgment', overruled: [], uncovered: null });
      expect(polite.reason).toMatch(
        /^disputed: independent evaluators disagree on judgment evidence: courtesy judge: met .*; support team: unmet/,
      );
      expect(criterionOf(attempt, 'answers').result).toBe('met');
      const byJudge = attempt.findings.find((f) => f.evaluator === 'courtesy judge');
      // A valid label, from a trusted (calibrated) judge, with the exchange retained whole.
      expect(byJudge).toMatchObject({
        criterion: 'polite',
        result: 'met',
        label: 'polite',
        grade: 'judgment',
        trusted: true,
        independent: true,
      });
      expect(byJudge?.judge?.model).toBe('fake-judge-large');
      expect(byJudge?.judge?.prompt).toContain('<reply>Happy to help: the Q3 figures are final.</reply>');
      expect(byJudge?.judge?.reply).toBe('The reply thanks or welcomes the user.\nLabel: polite');
      expect(attempt.findings.find((f) => f.evaluator === 'support team')).toMatchObject({
        result: 'unmet',
        trusted: true,
        judge: null,
      });
    }
    expect(outcome.findings).toContainEqual(expect.objectContaining({ owner: 'evaluator', kind: 'disputed' }));
  });

  it('UNKNOWN: a criterion that needs a receipt stays uncovered when only the reply speaks to it', () => {
    const outcome = outcomeNamed(outcomes, UNCOVERED);
    expect(outcome.arms[0]).toMatchObject({ verdict: 'UNKNOWN', verdicts: { UNKNOWN: 3, PASS: 0, FAIL: 0 } });
    for (const attempt of outcome.attempts) {
      expect(attempt).toMatchObject({ status: 'completed', verdict: 'UNKNOWN' });
      expect(attempt.reason).toMatch(/^keepsFile: uncovered/);
      // No fixtures, so no workspace was watched: the receipts evaluator found no evidence either way.
      expect(attempt.observation?.observers?.some((o) => o.part === 'files')).toBe(false);
      const keepsFile = criterionOf(attempt, 'keepsFile');
      expect(keepsFile).toMatchObject({
        result: 'unknown',
        grade: null,
        coveredBy: [],
        uncovered: 'below-grade',
        overruled: [],
      });
      expect(keepsFile.reason).toContain('(met) rests on text evidence; keepsFile needs receipt');
      expect(keepsFile.reason).toContain(
        'workspace receipts: no evidence (no evidence: the workspace (files) was not observed in this attempt)',
      );
      expect(attempt.findings.find((f) => f.evaluator === 'workspace receipts')).toMatchObject({
        criterion: 'keepsFile',
        result: 'unknown',
      });
      // The other expected criterion was covered and met: the UNKNOWN comes from the uncovered one alone.
      expect(criterionOf(attempt, 'citesPolicy')).toMatchObject({ result: 'met', grade: 'text' });
    }
    expect(outcome.coverage.map((row) => [row.criterion, row.covered, row.uncovered])).toEqual([
      ['keepsFile', 0, 3],
      ['citesPolicy', 3, 0],
    ]);
    expect(outcome.findings).toContainEqual(
      expect.objectContaining({ owner: 'evaluator', kind: 'uncovered-below-grade' }),
    );
  });

  it('an uncalibrated judge answering met is kept, marked untrusted, and cannot make PASS', () => {
    const outcome = outcomeNamed(outcomes, UNTRUSTED);
    expect(outcome.judgment.verdict).toBe('UNKNOWN');
    expect(outcome.arms[0]?.verdicts).toMatchObject({ PASS: 0, UNKNOWN: 3 });
    expect(outcome.records.evaluators[0]).toMatchObject({
      id: 'lenient judge',
      kind: 'model-judge',
      calibration: null,
      independence: { independent: true, reason: 'the subject uses no model' },
    });
    for (const attempt of outcome.attempts) {
      expect(attempt).toMatchObject({ status: 'completed', verdict: 'UNKNOWN' });
      const finding = attempt.findings.find((f) => f.evaluator === 'lenient judge');
      expect(finding).toMatchObject({
        criterion: 'polite',
        result: 'met',
        label: 'met',
        trusted: false,
        independent: true,
      });
      expect(finding?.judge).toEqual({
        model: 'fake-judge-small',
        prompt: 'Is this reply courteous? Answer met or unmet.\n<reply>The Q3 figures are final.</reply>',
        reply: 'met',
      });
      expect(criterionOf(attempt, 'polite')).toMatchObject({
        result: 'unknown',
        uncovered: 'untrusted',
        reason:
          'uncovered: lenient judge (met) is an untrusted judge for this criterion: calibrate it, or add a trusted evaluator',
      });
      expect(criterionOf(attempt, 'answers').result).toBe('met');
    }
  });

  it('a judge that replies with a refusal instead of a label is an evaluator_error, never a FAIL', () => {
    const outcome = outcomeNamed(outcomes, JUDGE_ERROR);
    const arm = outcome.arms[0];
    expect(arm).toMatchObject({
      verdict: 'UNKNOWN',
      statuses: { evaluator_error: 2, completed: 0 },
      verdicts: { FAIL: 0, UNKNOWN: 2 },
    });
    expect(arm?.reason).toContain('[2 evaluator_error: never imputed]');
    expect(outcome.records.evaluators[0]).toMatchObject({
      id: 'refusing judge',
      calibration: null,
      independence: { independent: false, reason: expect.stringContaining('was not declared (subjectFamily)') },
    });
    for (const attempt of outcome.attempts) {
      expect(attempt).toMatchObject({ status: 'evaluator_error', verdict: 'UNKNOWN' });
      expect(attempt.error?.where).toBe('evaluator refusing judge on polite');
      expect(attempt.error?.message).toContain(
        `answered outside its vocabulary [polite, rude]: "I'm sorry, I can't assist with that."`,
      );
      const finding = attempt.findings.find((f) => f.evaluator === 'refusing judge');
      expect(finding).toMatchObject({ criterion: 'polite', result: 'error', label: null });
      // The prompt and the raw reply are kept even though no label could be read from it.
      expect(finding?.judge?.prompt).toContain('<reply>Happy to help: the Q3 figures are final.</reply>');
      expect(finding?.judge?.reply).toBe("I'm sorry, I can't assist with that.");
      expect(criterionOf(attempt, 'polite')).toMatchObject({ result: 'unknown', uncovered: 'evaluator-error' });
      expect(criterionOf(attempt, 'answers').result).toBe('met');
    }
    expect(outcome.findings).toContainEqual(expect.objectContaining({ owner: 'evaluator', kind: 'evaluator-error' }));
  });

  it('riddle rejudge re-judges retained Observations with another rubric and evaluator, without running the subject', async () => {
    const { index } = readLatestRun(reportDir);
    const row = index.trials.find((t) => t.name === UNTRUSTED);
    if (!row) throw new Error(`no row for ${UNTRUSTED}`);
    const oldFile = path.join(reportDir, row.outcome);
    const old = outcomeNamed(outcomes, UNTRUSTED);
    const oldHash = sha256(oldFile);
    const runsBefore = hashTree(path.join(reportDir, 'runs'));
    const subjectRuns = readFileSync(counter, 'utf8');

    // Written into the same report folder as the original run: a new run beside it, the old one untouched.
    const cli = await execa(
      process.execPath,
      [
        cliBin,
        'rejudge',
        oldFile,
        '--evaluators',
        'rejudge/house-style.mjs',
        '--rubric',
        'rejudge/strict-rubric.json',
        '--out',
        reportDir,
      ],
      {
        cwd: project,
        reject: false,
        all: true,
        env: { NO_COLOR: '1', RIDDLE_EVALUATION_COUNTER: counter },
        timeout: 60_000,
      },
    );
    // FAIL is not among the trial's passOn verdicts.
    expect(cli.exitCode, cli.all).toBe(1);
    expect(cli.all).toContain('re-judged without running the subject');
    expect(cli.all).toContain(`${UNTRUSTED}: UNKNOWN → FAIL`);

    expect(sha256(oldFile)).toBe(oldHash);
    const runsAfter = hashTree(path.join(reportDir, 'runs'));
    for (const [file, hash] of Object.entries(runsBefore)) expect(runsAfter[file], file).toBe(hash);
    expect(readFileSync(counter, 'utf8')).toBe(subjectRuns);

    const latest = readLatestRun(reportDir);
    expect(latest.index.runId).not.toBe(index.runId);
    expect(latest.outcomes).toHaveLength(1);
    const fresh = latest.outcomes[0] as Outcome;
    expect(fresh.execution.rejudgedFrom).toBe(old.id);
    // New fingerprints where the judging changed; the same suite, cases and environment.
    expect(fresh.id).not.toBe(old.id);
    expect(fresh.pinned.rubric).not.toBe(old.pinned.rubric);
    expect(fresh.pinned.evaluators).not.toEqual(old.pinned.evaluators);
    expect(fresh.pinned.suite).toBe(old.pinned.suite);
    expect(fresh.pinned.cases).toEqual(old.pinned.cases);
    expect(fresh.pinned.environment).toBe(old.pinned.environment);
    expect(fresh.records.rubric.revision).toBe('courtesy-strict@2');
    expect(fresh.records.evaluators.map((e) => e.id)).toEqual(['house style']);

    // The very Observations retained by the run (timings included), judged again.
    expect(fresh.attempts.map((a) => [a.arm, a.index, a.seed, a.sequence])).toEqual(
      old.attempts.map((a) => [a.arm, a.index, a.seed, a.sequence]),
    );
    expect(fresh.attempts.map((a) => a.observation)).toEqual(old.attempts.map((a) => a.observation));
    for (const attempt of fresh.attempts) {
      expect(attempt).toMatchObject({ status: 'completed', verdict: 'FAIL' });
      expect(criterionOf(attempt, 'polite')).toMatchObject({ result: 'unmet', grade: 'text', uncovered: null });
      expect(attempt.findings.find((f) => f.criterion === 'polite')).toMatchObject({
        evaluator: 'house style',
        result: 'unmet',
        trusted: true,
        judge: null,
      });
      expect(attempt.findings.find((f) => f.criterion === 'polite')?.note).toContain(
        'house style: a courteous reply thanks the user',
      );
      expect(criterionOf(attempt, 'answers').result).toBe('met');
    }
    expect(fresh.judgment).toMatchObject({ verdict: 'FAIL', testOutcome: 'fail' });
    expect(old.judgment.verdict).toBe('UNKNOWN');
  });
});
