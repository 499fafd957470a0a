import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import { fixture, repoRoot, runVitest, tempDir } from './support.js';

const schemaDir = path.join(repoRoot, 'schema');
const load = (name: string) =>
  JSON.parse(readFileSync(path.join(schemaDir, `${name}.json`), 'utf8')) as Record<string, unknown>;

describe('shipped JSON Schemas', () => {
  it('exist for every record', () => {
    expect(readdirSync(schemaDir).sort()).toEqual(
      [
        'calibration',
        'case',
        'comparison',
        'composition-suite',
        'environment',
        'evaluator',
        'findings',
        'outcome',
        'rubric',
        'run',
        'trial-suite',
      ].map((n) => `${n}.json`),
    );
  });

  it('validate the artifacts of a real run, and reject a corrupted Outcome', async () => {
    const reportDir = tempDir('schemas');
    await runVitest(fixture('verdicts'), [
      '--reporter=riddle',
      `--outputFile.riddle=${reportDir}`,
      'trials/a.trial.test.ts',
    ]);
    const ajv = new Ajv2020({ allErrors: true, strict: false });
    const validateRun = ajv.compile(load('run'));
    const validateOutcome = ajv.compile(load('outcome'));
    const validateSuite = ajv.compile(load('trial-suite'));
    const validateCase = ajv.compile(load('case'));
    const validateRubric = ajv.compile(load('rubric'));
    const validateEnvironment = ajv.compile(load('environment'));
    const validateEvaluator = ajv.compile(load('evaluator'));
    const index = JSON.parse(readFileSync(path.join(reportDir, 'index.json'), 'utf8'));
    expect(validateRun(index), JSON.stringify(validateRun.errors)).toBe(true);
    const validateFindings = ajv.compile(load('findings'));
    const [runId] = readdirSync(path.join(reportDir, 'runs'));
    const findings = JSON.parse(readFileSync(path.join(reportDir, 'runs', runId as string, 'findings.json'), 'utf8'));
    expect(validateFindings(findings), JSON.stringify(validateFindings.errors?.slice(0, 3))).toBe(true);
    for (const row of index.trials as { outcome: string }[]) {
      const outcome = JSON.parse(readFileSync(path.join(reportDir, row.outcome), 'utf8'));
      expect(validateOutcome(outcome), JSON.stringify(validateOutcome.errors?.slice(0, 3))).toBe(true);
      expect(validateSuite(outcome.records.suite)).toBe(true);
      expect(validateRubric(outcome.records.rubric)).toBe(true);
      expect(validateEnvironment(outcome.records.environment)).toBe(true);
      for (const evaluator of outcome.records.evaluators) expect(validateEvaluator(evaluator)).toBe(true);
      for (const arm of outcome.records.suite.arms) expect(validateCase(arm.case)).toBe(true);
      const corrupt = { ...outcome, judgment: { ...outcome.judgment, verdict: 'MAYBE' } };
      expect(validateOutcome(corrupt)).toBe(false);
    }
  });
});
