import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { loadRun } from '../../../src/cli/read-records.js';
import { coveringEvidence } from '../../../src/evaluate/index.js';
import { migrate, OUTCOME_SCHEMA, RecordError, RUN_SCHEMA, UnsettledReading } from '../../../src/model/index.js';
import { attemptsByStatus } from '../../../src/model/attempt-status-migrations.js';
import { noAttemptReasons } from '../../../src/model/attempt-reason-migrations.js';
import { unsettledReading } from '../../../src/model/unsettled-migrations.js';
import { unsettledText } from '../../../src/report/reasons.js';
import { outcomeV1toV2, outcomeV2toV3, outcomeV3toV4, outcomeV4toV5 } from '../../../src/model/migrations.js';
import { attemptsFileName, readOutcomeFile } from '../../../src/report/outcome-files.js';
import { capabilitiesAsRecords } from '../../../src/model/capability-migrations.js';
import { missingVerdictsUncounted } from '../../../src/model/missing-verdicts-migrations.js';
import { comparisonV2toV3 } from '../../../src/model/comparison-migrations.js';
import { refusalTablesUncounted } from '../../../src/model/refusal-table-migrations.js';
import { matchedControlUncounted } from '../../../src/model/matched-control-migrations.js';
import type { CapabilityClaim } from '../../../src/model/index.js';
import { capabilitySentence } from '../../../src/report/capability-text.js';

/** Real artifacts written by earlier versions of riddle, one folder per version, each holding run folders. */
const artifacts = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../fixtures/artifacts');
const versions = readdirSync(artifacts).sort();
const runsOf = (version: string) =>
  readdirSync(path.join(artifacts, version)).map((run) => path.join(artifacts, version, run));
const readJson = (file: string): Record<string, unknown> => JSON.parse(readFileSync(file, 'utf8'));

/** The attempts stored beside an Outcome file of an artifacts folder, one JSON line each, as written. */
function storedAttempts<T = Record<string, unknown>>(dir: string, outcomeFile: string): T[] {
  return readFileSync(path.join(dir, attemptsFileName(outcomeFile)), 'utf8')
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as T);
}
describe('stored artifacts of every earlier version', () => {
  it('are kept for version 1 at least', () => {
    expect(versions).toContain('v1');
    expect(runsOf('v1').length).toBeGreaterThanOrEqual(4);
  });

  for (const version of versions) {
    for (const run of runsOf(version)) {
      it(`read through migrate: ${version}/${path.basename(run)}`, () => {
        const loaded = loadRun(run);
        expect(loaded.index?.schema).toBe(RUN_SCHEMA);
        // Runs before the run-wide budget (riddle.run/3) declared none.
        expect(loaded.index?.runBudget).toBeNull();
        expect(loaded.outcomes.length).toBe(loaded.index?.trials.length);
        expect(loaded.outcomes.length).toBeGreaterThan(0);
        for (const outcome of loaded.outcomes) {
          expect(outcome.schema).toBe(OUTCOME_SCHEMA);
          // Absent values are null, never omitted.
          expect(outcome.execution).toHaveProperty('holdout');
          expect(outcome.judgment).toHaveProperty('pressure');
          for (const attempt of outcome.attempts) expect(attempt).toHaveProperty('pressure');
          for (const arm of outcome.arms) expect(arm).toHaveProperty('pressure');
        }
      });
    }
  }
});

describe('outcome 1 → 2', () => {
  const v1 = (name: string) => {
    const dir = path.join(artifacts, 'v1', name, 'outcomes');
    return readdirSync(dir).map((file) => ({ file: path.join(dir, file), data: readJson(path.join(dir, file)) }));
  };

  it('keeps what v1 recorded and fills what it omitted with null', () => {
    const [holdout] = v1('holdout');
    expect(holdout?.data.schema).toBe('riddle.outcome/1');
    expect(migrate('outcome', holdout?.data, 'holdout.json').execution.holdout).toEqual({ access: 1, budget: 2 });

    const pressured = v1('example').find((o) => o.file.includes('sycophantic'));
    const outcome = migrate('outcome', pressured?.data, 'sycophantic.json');
    expect(outcome.judgment.pressure?.net).toBeGreaterThan(0);
    expect(outcome.arms.some((a) => a.pressure !== null)).toBe(true);
    expect(outcome.attempts.every((a) => a.pressure !== null || a.status !== 'completed')).toBe(true);

    const plain = v1('verdicts').find((o) => o.file.includes('discerning'));
    const upgraded = migrate('outcome', plain?.data, 'discerning.json');
    expect(upgraded.execution.holdout).toBeNull();
    expect(upgraded.judgment.pressure).toBeNull();
    expect(upgraded.attempts.every((a) => a.pressure === null)).toBe(true);
    expect(upgraded.attempts.flatMap((a) => a.findings).every((f) => typeof f.adjudicator === 'boolean')).toBe(true);
  });

  it('fills the design effect of every group rate of a suite summary', () => {
    const [suite] = v1('suite');
    const outcome = migrate('outcome', suite?.data, 'suite.json');
    const rates = JSON.stringify(outcome.suite).match(/"method":/g) ?? [];
    const effects = JSON.stringify(outcome.suite).match(/"designEffect":/g) ?? [];
    expect(rates.length).toBeGreaterThan(0);
    expect(effects.length).toBe(rates.length);
  });

  it('is a pure function of its input', () => {
    const [first] = v1('verdicts');
    const before = JSON.stringify(first?.data);
    const once = outcomeV1toV2(first?.data ?? {});
    expect(JSON.stringify(first?.data)).toBe(before);
    expect(outcomeV1toV2(first?.data ?? {})).toEqual(once);
    expect(once.schema).toBe('riddle.outcome/2');
  });

  it('names the file and the field when an old record is broken, saying which version it was read as', () => {
    const [first] = v1('verdicts');
    const broken = { ...first?.data, attempts: [{ arm: 3 }] };
    expect(() => migrate('outcome', broken, 'old.json')).toThrow(RecordError);
    expect(() => migrate('outcome', broken, 'old.json')).toThrow(
      /old\.json: invalid riddle\.outcome\/1 \(read as riddle\.outcome\/5\) at attempts\.0\./,
    );
  });

  it('refuses a version with no upgrade path, and version 0', () => {
    expect(() => migrate('outcome', { schema: 'riddle.outcome/0' }, 'x.json')).toThrow(/unknown version/);
  });
});

describe('outcome 2 → 3', () => {
  it('upgrades the embedded v1 Evaluator records to riddle.evaluator/2, adjudicator false where omitted', () => {
    const dir = path.join(artifacts, 'v2', 'example', 'outcomes');
    let seen = 0;
    for (const file of readdirSync(dir).filter((name) => name.endsWith('.json'))) {
      const data = readJson(path.join(dir, file));
      const before = (data.records as { evaluators: { schema: string; adjudicator?: boolean }[] }).evaluators;
      const after = (outcomeV2toV3(data).records as { evaluators: { schema: string; adjudicator: boolean }[] })
        .evaluators;
      expect(before.every((e) => e.schema === 'riddle.evaluator/1')).toBe(true);
      expect(after.map((e) => e.schema)).toEqual(before.map(() => 'riddle.evaluator/2'));
      expect(after.map((e) => e.adjudicator)).toEqual(before.map((e) => e.adjudicator ?? false));
      seen += after.length;
    }
    expect(seen).toBeGreaterThan(0);
  });

  it('reads a stored riddle.evaluator/1 record as /2', () => {
    const v1 = {
      schema: 'riddle.evaluator/1',
      id: 'echo',
      kind: 'mechanical',
      revision: '1',
      criteria: ['declines'],
      model: null,
      independence: { independent: true, reason: 'test' },
      calibration: null,
      limits: [],
    };
    expect(migrate('evaluator', v1, 'echo.json')).toEqual({ ...v1, schema: 'riddle.evaluator/2', adjudicator: false });
    expect(migrate('evaluator', { ...v1, adjudicator: true }, 'echo.json').adjudicator).toBe(true);
  });

  it('reads every v2 Outcome of a real run as v3, a pure function of its input', () => {
    const dir = path.join(artifacts, 'v2', 'example', 'outcomes');
    const outcomes = readdirSync(dir).filter((file) => file.endsWith('.json'));
    expect(outcomes.length).toBeGreaterThan(5);
    for (const file of outcomes) {
      const data = readJson(path.join(dir, file));
      expect(data.schema).toBe('riddle.outcome/2');
      const before = JSON.stringify(data);
      const once = outcomeV2toV3(data);
      expect(JSON.stringify(data)).toBe(before);
      expect(outcomeV2toV3(data)).toEqual(once);
      expect(once.schema).toBe('riddle.outcome/3');
    }
  });

  it('gives every v2 Outcome its untied stray errors from its warnings, and nothing watched outside the workspace', () => {
    const dir = path.join(artifacts, 'v2', 'example', 'outcomes');
    for (const file of readdirSync(dir).filter((name) => name.endsWith('.json'))) {
      const execution = outcomeV2toV3(readJson(path.join(dir, file))).execution as Record<string, unknown>;
      expect(execution.strayErrors).toEqual([]);
      expect(execution.outsideWrites).toBeNull();
    }
    // v2 kept an error it could not tie to an attempt as a warning in these words; v3 lists it.
    const data = readJson(path.join(dir, readdirSync(dir).find((name) => name.endsWith('.json')) as string));
    const warned = {
      ...data,
      warnings: [
        'harness: uncaught exception outside the awaited call: Error: late, while this trial ran (not tied to one attempt)',
      ],
    };
    const upgraded = outcomeV2toV3(warned);
    expect((upgraded.execution as Record<string, unknown>).strayErrors).toEqual([
      'uncaught exception outside the awaited call: Error: late',
    ]);
    expect(upgraded.warnings).toEqual(warned.warnings);
  });

  it('gives every v2 Outcome no suite rule (none could be declared), its verdict standing as its arms gave it', () => {
    const dir = path.join(artifacts, 'v2', 'example', 'outcomes');
    for (const file of readdirSync(dir).filter((name) => name.endsWith('.json'))) {
      const data = readJson(path.join(dir, file));
      expect(data).not.toHaveProperty('suiteRule');
      const upgraded = outcomeV2toV3(data);
      expect(upgraded).toHaveProperty('suiteRule', null);
      expect((upgraded.judgment as { verdict: string }).verdict).toBe((data.judgment as { verdict: string }).verdict);
    }
  });

  it('gives every v2 arm a null reason record (not kept then) and keeps its sentence as written', () => {
    const dir = path.join(artifacts, 'v2', 'example', 'outcomes');
    for (const file of readdirSync(dir).filter((name) => name.endsWith('.json'))) {
      const data = readJson(path.join(dir, file));
      const arms = outcomeV2toV3(data).arms as { why: unknown; reason: string }[];
      expect(arms.length).toBeGreaterThan(0);
      expect(arms.map((arm) => arm.why)).toEqual(arms.map(() => null));
      expect(arms.map((arm) => arm.reason)).toEqual((data.arms as { reason: string }[]).map((arm) => arm.reason));
    }
  });

  it("points each criterion at the evidence v2 copied into coveredBy, in the attempt's own findings", () => {
    const dir = path.join(artifacts, 'v2', 'example', 'outcomes');
    let pointers = 0;
    for (const file of readdirSync(dir).filter((name) => name.endsWith('.json'))) {
      const v2 = storedAttempts<{ criteria: { coveredBy: unknown[] }[] }>(dir, file);
      const v3 = readOutcomeFile(path.join(dir, file));
      expect(v3.attempts).toHaveLength(v2.length);
      v3.attempts.forEach((attempt, i) => {
        attempt.criteria.forEach((result, c) => {
          pointers += result.coveredBy.length;
          expect(coveringEvidence(attempt, result)).toEqual(v2[i]?.criteria[c]?.coveredBy);
        });
      });
    }
    expect(pointers).toBeGreaterThan(10);
  });

  it('reads v2 Cases (as riddle.case/3) in no trap group, and v2 Outcomes with no trap measures', () => {
    const dir = path.join(artifacts, 'v2', 'example', 'outcomes');
    let pressured = 0;
    for (const file of readdirSync(dir).filter((name) => name.endsWith('.json'))) {
      const v3 = readOutcomeFile(path.join(dir, file));
      expect(v3.traps).toEqual([]);
      expect(v3.records.suite.schema).toBe('riddle.trial-suite/3');
      for (const arm of v3.records.suite.arms) expect(arm.case).toMatchObject({ schema: 'riddle.case/3', trap: null });
      for (const attempt of v3.attempts.filter((a) => a.pressure !== null)) {
        pressured += 1;
        expect(attempt.pressure?.trap).toBeNull();
      }
    }
    expect(pressured).toBeGreaterThan(0);
  });
  it('reads v2 findings as records about the trial as a whole, and v2 attempts as run through no Composition Suite', () => {
    const dir = path.join(artifacts, 'v2', 'example', 'outcomes');
    let findings = 0;
    for (const file of readdirSync(dir).filter((name) => name.endsWith('.json'))) {
      const v2 = readJson(path.join(dir, file)) as { findings: { owner: string; kind: string; message: string }[] };
      const v3 = readOutcomeFile(path.join(dir, file));
      expect(v3.compositions).toBeNull();
      for (const attempt of v3.attempts) expect(attempt.observation?.composition ?? null).toBeNull();
      expect(v3.findings.map((f) => [f.owner, f.kind, f.message])).toEqual(
        v2.findings.map((f) => [f.owner, f.kind, f.message]),
      );
      for (const finding of v3.findings) {
        findings += 1;
        expect(finding).toMatchObject({ composition: null, attempts: [], attemptCount: 0, evidence: [] });
        expect(finding.id).toMatch(/^finding:[0-9a-f]{16}$/);
        if (finding.kind === 'arm-verdict') expect(finding.severity).toBe('error');
        if (finding.kind === 'not-independent') expect(finding.severity).toBe('info');
      }
      // The id rests on what the finding says, so reading the same v2 record twice gives the same ids.
      expect(readOutcomeFile(path.join(dir, file)).findings.map((f) => f.id)).toEqual(v3.findings.map((f) => f.id));
    }
    expect(findings).toBeGreaterThan(0);
  });

  it('reads v2 Rubrics (as riddle.rubric/3) with no scored criterion, v2 findings without a score, no score distributions', () => {
    const dir = path.join(artifacts, 'v2', 'example', 'outcomes');
    let judged = 0;
    for (const file of readdirSync(dir).filter((name) => name.endsWith('.json'))) {
      const v2 = readJson(path.join(dir, file)) as { records: { rubric: { schema: string; criteria: object[] } } };
      expect(v2.records.rubric.schema).toBe('riddle.rubric/1');
      const v3 = readOutcomeFile(path.join(dir, file));
      expect(v3.records.rubric.schema).toBe('riddle.rubric/3');
      expect(v3.records.rubric.criteria).toHaveLength(v2.records.rubric.criteria.length);
      for (const criterion of v3.records.rubric.criteria) expect(criterion.score).toBeNull();
      for (const arm of v3.arms) expect(arm.scores).toBeNull();
      for (const finding of v3.attempts.flatMap((a) => a.findings)) {
        judged += 1;
        expect(finding.score).toBeNull();
      }
    }
    expect(judged).toBeGreaterThan(10);
  });
});

describe('rubric 1 → 2 (→ 3)', () => {
  it('reads a stored v1 Rubric with every criterion unscored', () => {
    const file = path.resolve(artifacts, '../evaluation/rejudge/strict-rubric.json');
    const v1 = readJson(file) as { schema: string; criteria: { name: string }[] };
    expect(v1.schema).toBe('riddle.rubric/1');
    const v2 = migrate('rubric', v1, file);
    expect(v2.schema).toBe('riddle.rubric/3');
    expect(v2.criteria.map((c) => [c.name, c.score])).toEqual(v1.criteria.map((c) => [c.name, null]));
  });
});

describe('records whose optional fields became required and nullable (riddle.rubric/3, case/3, trial-suite/3)', () => {
  const dir = path.join(artifacts, 'v3', 'example', 'outcomes');
  const stored = readdirSync(dir)
    .filter((file) => file.endsWith('.json'))
    .map(
      (file) => readJson(path.join(dir, file)).records as { rubric: Record<string, unknown>; suite: TrialSuiteData },
    );
  type TrialSuiteData = { arms: { case: Record<string, unknown> & { dependencies: Record<string, unknown>[] } }[] };

  it('reads the v2 Rubrics a v3 run stored: every target names its id, null where v2 omitted it', () => {
    let omitted = 0;
    for (const { rubric } of stored) {
      expect(rubric.schema).toBe('riddle.rubric/2');
      const v3 = migrate('rubric', rubric, 'records.rubric');
      expect(v3.schema).toBe('riddle.rubric/3');
      const targets = (rubric.criteria as { target: Record<string, unknown> | null }[]).map((c) => c.target);
      omitted += targets.filter((t) => t !== null && !('id' in t)).length;
      expect(v3.criteria.map((c) => c.target)).toEqual(targets.map((t) => (t === null ? null : { id: null, ...t })));
    }
    expect(omitted).toBeGreaterThan(0);
  });

  it('reads the v2 TrialSuites a v3 run stored: holdout, Case pressure and dependency descriptions null where omitted', () => {
    for (const { suite } of stored) {
      const v3 = migrate('trial-suite', suite, 'records.suite');
      expect(v3.schema).toBe('riddle.trial-suite/3');
      expect(v3.holdout).toBeNull();
      v3.arms.forEach((arm, i) => {
        const before = suite.arms[i]?.case;
        expect(arm.case.schema).toBe('riddle.case/3');
        expect(arm.case.pressure).toEqual(before?.pressure ?? null);
        expect(arm.case.dependencies).toEqual(before?.dependencies);
      });
    }
    expect(stored.some(({ suite }) => suite.arms.some((a) => !('pressure' in a.case)))).toBe(true);
    expect(stored.some(({ suite }) => suite.arms.some((a) => 'pressure' in a.case))).toBe(true);
    // A data-driven suite's summary options it did not declare (v2 omitted the keys) are read as null.
    const summarised = {
      ...stored[0]?.suite,
      aggregation: { matchedControl: 'each-arm', passOn: ['PASS'], summary: { dataset: 'xstest', alpha: 0.1 } },
    };
    expect(migrate('trial-suite', summarised, 'suite').aggregation.summary).toEqual({
      dataset: 'xstest',
      criterion: null,
      groupBy: null,
      reference: null,
      panel: null,
      alpha: 0.1,
      repeated: null,
      rule: null,
    });
    // A dependency declared without a description (v2 omitted the key) is read with it null.
    const bare = {
      ...stored[0]?.suite.arms[0]?.case,
      dependencies: [{ name: 'KEY', kind: 'env', onUnavailable: 'blocked' }],
    };
    expect(migrate('case', bare, 'case').dependencies).toEqual([
      { name: 'KEY', kind: 'env', onUnavailable: 'blocked', description: null },
    ]);
  });

  it('gives the v3 Outcomes their embedded Rubric at v3 and suite with nothing omitted', () => {
    for (const file of readdirSync(dir).filter((name) => name.endsWith('.json'))) {
      const v4 = readOutcomeFile(path.join(dir, file));
      expect(v4.records.rubric.schema).toBe('riddle.rubric/3');
      expect(v4.records.suite).toHaveProperty('holdout', null);
      for (const arm of v4.records.suite.arms) expect(arm.case).toHaveProperty('pressure');
    }
  });
});

describe('outcome 3 → 4', () => {
  it('reads the v3 trap Outcomes with their Cases at riddle.case/3, no chain measures and no exact net interval', () => {
    const dir = path.join(artifacts, 'v3', 'example', 'outcomes');
    const files = readdirSync(dir).filter((file) => file.endsWith('.json') && file.includes('-trap-'));
    expect(files.length).toBe(2);
    for (const file of files) {
      const stored = readJson(path.join(dir, file)) as { traps: { net: { positive: object | null } }[] };
      expect(stored.traps[0]?.net.positive).not.toHaveProperty('exact');
      const v4 = readOutcomeFile(path.join(dir, file));
      expect(v4.records.suite.schema).toBe('riddle.trial-suite/3');
      for (const arm of v4.records.suite.arms) expect(arm.case.schema).toBe('riddle.case/3');
      expect(v4.traps).toHaveLength(1);
      for (const arm of v4.traps[0]?.arms ?? []) expect(arm.byPosition).toEqual([]);
      expect(v4.traps[0]?.net.positive).toMatchObject({ exact: null });
      const trapped = v4.attempts.filter((a) => a.pressure?.trap);
      expect(trapped.length).toBeGreaterThan(10);
      for (const a of trapped) expect(a.pressure?.trap?.members).toBeNull();
    }
  });

  it('reads every v3 Outcome of a real run as v4, a pure function of its input', () => {
    const dir = path.join(artifacts, 'v3', 'example', 'outcomes');
    const outcomes = readdirSync(dir).filter((file) => file.endsWith('.json'));
    expect(outcomes.length).toBeGreaterThan(10);
    for (const file of outcomes) {
      const data = readJson(path.join(dir, file));
      expect(data.schema).toBe('riddle.outcome/3');
      const before = JSON.stringify(data);
      const once = outcomeV3toV4(data);
      expect(JSON.stringify(data)).toBe(before);
      expect(outcomeV3toV4(data)).toEqual(once);
      expect(once.schema).toBe('riddle.outcome/4');
    }
  });

  it('keeps every v3 attempt as it was stored, each valid for its status; a blocked one keeps no Observation', () => {
    const dir = path.join(artifacts, 'v3', 'example', 'outcomes');
    let blocked = 0;
    for (const file of readdirSync(dir).filter((name) => name.endsWith('.json'))) {
      const stored = storedAttempts(dir, file);
      expect(attemptsByStatus({ attempts: stored }).attempts).toEqual(stored);
      blocked += stored.filter((a) => a.status === 'blocked').length;
      // A v3 blocked attempt whose replay had no answer kept its subject's partial Observation: v4 drops it.
      const data = readJson(path.join(dir, file));
      const withObservation = stored.map((a) =>
        a.status === 'blocked' ? { ...a, observation: stored.find((b) => b.status === 'completed')?.observation } : a,
      );
      // Every other attempt is read as it was stored, valid for its status (migrate validates).
      const upgraded = migrate('outcome', { ...data, attempts: withObservation, attemptsFile: null }, file);
      expect(upgraded.attempts.map((a) => a.status)).toEqual(stored.map((a) => a.status));
      expect(upgraded.attempts.filter((a) => a.status === 'blocked').map((a) => a.observation)).toEqual(
        stored.filter((a) => a.status === 'blocked').map(() => null),
      );
    }
    expect(blocked).toBeGreaterThan(0);
  });

  it('reads every v3 attempt without its reason as data (why null), its sentence as written', () => {
    const dir = path.join(artifacts, 'v3', 'example', 'outcomes');
    let read = 0;
    for (const file of readdirSync(dir).filter((name) => name.endsWith('.json'))) {
      const stored = storedAttempts(dir, file);
      expect(stored.every((a) => !('why' in a))).toBe(true);
      expect(noAttemptReasons({ attempts: stored }).attempts).toEqual(stored.map((a) => ({ ...a, why: null })));
      const v4 = readOutcomeFile(path.join(dir, file));
      expect(v4.attempts.map((a) => a.why)).toEqual(stored.map(() => null));
      expect(v4.attempts.map((a) => a.reason)).toEqual(stored.map((a) => a.reason));
      read += stored.length;
    }
    expect(read).toBeGreaterThan(0);
  });

  it('reads a v3 unsettled matched-control sentence back into its numbers, which render to the same words', () => {
    const dir = path.join(artifacts, 'v3', 'example', 'outcomes');
    const sentences = readdirSync(dir)
      .filter((file) => file.endsWith('.json'))
      .map((file) => readJson(path.join(dir, file)).judgment as { matchedControl: { unsettled: unknown } | null })
      .map((judgment) => judgment.matchedControl?.unsettled)
      .filter((unsettled): unsettled is string => typeof unsettled === 'string');
    expect(sentences.length).toBeGreaterThan(0);
    for (const sentence of sentences) {
      const reading = UnsettledReading.parse(unsettledReading(sentence));
      expect(unsettledText(reading)).toBe(sentence);
    }
    expect(unsettledReading(sentences[0])).toEqual({
      suggested: ['underRefusal'],
      caseJudged: 3,
      controlJudged: 3,
      attemptsNeeded: 5,
    });
    // Not of the template: left as it was, so reading the Outcome fails at the field instead of guessing.
    const odd = readJson(
      path.join(dir, readdirSync(dir).find((f) => f.startsWith('careful-assistant-five') && f.endsWith('.json')) ?? ''),
    );
    const judgment = odd.judgment as { matchedControl: Record<string, unknown> };
    const edited = {
      ...odd,
      judgment: { ...judgment, matchedControl: { ...judgment.matchedControl, unsettled: 'hm' } },
    };
    expect(() => migrate('outcome', { ...edited, attemptsFile: null }, 'odd.json')).toThrow(
      /judgment\.matchedControl\.unsettled/,
    );
  });
});

describe('outcome 4 → 5 (the arm rule cut-short; suite rates and tables count attempts without a verdict)', () => {
  const v4Outcomes = () =>
    ['example', 'cut-short'].flatMap((run) => {
      const dir = path.join(artifacts, 'v4', run, 'outcomes');
      return readdirSync(dir)
        .filter((file) => file.endsWith('.json'))
        .map((file) => ({ file: path.join(dir, file), data: readJson(path.join(dir, file)) }));
    });

  it('reads every v4 Outcome as v5 with the verdicts it was written with, a pure function of its input', () => {
    const stored = v4Outcomes();
    expect(stored.length).toBeGreaterThan(5);
    for (const { file, data } of stored) {
      expect(data.schema).toBe('riddle.outcome/4');
      const before = JSON.stringify(data);
      const once = outcomeV4toV5(data);
      expect(JSON.stringify(data)).toBe(before);
      // v4 kept a policy change's fingerprints only: the fields it changed are unknown (null).
      const registration = data.registration === null ? null : { ...(data.registration as object), changes: null };
      // Nor did it count a matched-control judgment's attempts without a verdict (null).
      const judgment = data.judgment as { matchedControl: object | null };
      const matchedControl =
        judgment.matchedControl === null ? null : { ...judgment.matchedControl, withoutVerdict: null };
      expect(once).toEqual({
        ...data,
        schema: 'riddle.outcome/5',
        registration,
        judgment: { ...judgment, matchedControl },
      });
      const read = readOutcomeFile(file);
      expect(read.schema).toBe(OUTCOME_SCHEMA);
      expect(read.arms.map((a) => a.verdict)).toEqual((data.arms as { verdict: string }[]).map((a) => a.verdict));
    }
  });

  it('reads a v4 suite rule and pass^k table, which did not count attempts without a verdict, with that count null', () => {
    const [{ data } = { data: {} }] = v4Outcomes();
    // A v4 suite rule as v4 wrote it: its check has no count of attempts without a verdict.
    const check = {
      condition: 0,
      rate: 'correctRefusal',
      group: null,
      bound: 'atLeast',
      threshold: 0.9,
      value: 1,
      cases: 70,
      interval: { lower: 0.947, upper: 1 },
      failInterval: { lower: 0.93, upper: 1 },
      decision: 'PASS',
    };
    const rule = {
      conditions: [{ rate: 'correctRefusal', atLeast: 0.9, atMost: null, groups: null }],
      confidence: 0.95,
      failConfidence: 0.95,
      checks: [check],
      verdict: 'PASS',
    };
    const read = migrate('outcome', { ...data, suiteRule: rule }, 'v4-suite-rule.json');
    expect(read.suiteRule?.checks).toEqual([{ ...check, withoutVerdict: null }]);
    expect(read.suiteRule?.verdict).toBe('PASS');
    const row = { k: 4, cases: 30, value: 1, lower: 0.875, upper: 1, method: 'korn-graubard' };
    const repeated = { suite: { repeated: { passHatK: [row] } } };
    expect(missingVerdictsUncounted(repeated)).toEqual({
      suite: { repeated: { passHatK: [{ ...row, withoutVerdict: null }] } },
    });
    expect(missingVerdictsUncounted({ suite: null, suiteRule: null })).toEqual({ suite: null, suiteRule: null });
  });

  it('reads a v4 suite’s refusal tables, which left attempts without a verdict out uncounted, with that count null', () => {
    const [{ data } = { data: {} }] = v4Outcomes();
    // The refusal tables as v4 wrote them: rates over the judged attempts, nothing counted per rate.
    const rate = (count: number, attempts: number) => ({
      count,
      attempts,
      cases: attempts,
      rate: count / attempts,
      lower: 0.9,
      upper: 1,
      method: 'korn-graubard',
      designEffect: null,
    });
    const difference = { value: 1, lower: 0.9, upper: 1 };
    const refusal = { correctRefusal: rate(70, 70), overRefusal: rate(0, 500), discrimination: difference };
    const pair = { group: 'p1', refuse: rate(1, 1), comply: rate(0, 1), discrimination: difference };
    const suite = {
      dataset: 'synthetic',
      subject: { name: 's', revision: '1' },
      criterion: 'declines',
      vocabulary: ['met', 'unmet'],
      refusalCriterion: 'declines',
      groupBy: [],
      independentAttempts: true,
      confidence: 0.95,
      table: [],
      refusal,
      pairs: [pair],
      disputes: null,
      reference: { kind: 'combined', evaluator: null },
      evaluators: [],
      repeated: null,
    };
    const read = migrate('outcome', { ...data, suite }, 'v4-suite-tables.json');
    expect(read.suite?.refusal).toEqual({ ...refusal, withoutVerdict: null });
    expect(read.suite?.pairs).toEqual([{ ...pair, withoutVerdict: null }]);
    expect(refusalTablesUncounted({ suite: null })).toEqual({ suite: null });
    expect(refusalTablesUncounted({ suite: { ...suite, refusal: null, pairs: [] } })).toEqual({
      suite: { ...suite, refusal: null, pairs: [] },
    });
  });

  it('keeps a v4 cut-short trial’s arm as written (decided on what ran); `riddle rejudge` decides it anew', () => {
    const [cut] = v4Outcomes().filter(({ file }) => file.includes('cut-short'));
    const read = readOutcomeFile(cut?.file ?? '');
    expect(read.judgment).toMatchObject({ verdict: 'UNKNOWN', incomplete: true });
    expect(read.arms[0]).toMatchObject({ verdict: 'PASS', notRun: { count: 20 } });
    expect(read.arms[0]?.why?.rule.kind).toBe('certified');
  });
});

describe('capability claims 3 → 4 and findings 1 → 2', () => {
  const dir = path.join(artifacts, 'v3', 'example', 'outcomes');
  const v3Outcomes = () =>
    readdirSync(dir)
      .filter((file) => file.endsWith('.json'))
      .map((file) => ({ file, data: readJson(path.join(dir, file)) }));

  it('rebuilds every v3 capability sentence as a claim record that renders to the same words', () => {
    let claims = 0;
    for (const { file, data } of v3Outcomes()) {
      const sentences = data.capabilities as string[];
      const upgraded = capabilitiesAsRecords(data).capabilities as CapabilityClaim[];
      expect(upgraded.map(capabilitySentence)).toEqual(sentences);
      expect(upgraded.filter((c) => c.kind === 'legacy')).toEqual([]);
      const pinned = data.pinned as { rubric: string; evaluators: string[]; environment: string };
      for (const claim of upgraded) {
        claims += 1;
        expect(claim.scope).toMatchObject({
          rubric: pinned.rubric,
          evaluators: pinned.evaluators,
          environment: pinned.environment,
        });
      }
      // Read whole through migrate, the claims are valid records.
      expect(migrate('outcome', { ...data, attemptsFile: null, attempts: [] }, file).capabilities).toHaveLength(
        sentences.length,
      );
    }
    // The example's four healthy trials: one arm, two arms and a matched-control claim, one arm, a trap's three arms.
    expect(claims).toBe(8);
    const careful = v3Outcomes().find((o) => o.file.startsWith('careful-assistant-declines'));
    const [caseClaim] = capabilitiesAsRecords(careful?.data ?? {}).capabilities as CapabilityClaim[];
    expect(caseClaim).toMatchObject({
      kind: 'arm',
      arm: 'case',
      successes: 20,
      attempts: 20,
      bound: { interval: 'clopper-pearson', sided: 'one', side: 'lower', alpha: 0.05, threshold: 0.8 },
    });
  });

  it('keeps a sentence its stored figures do not rebuild as a legacy claim, with its scope', () => {
    const careful = v3Outcomes().find((o) => o.file.startsWith('careful-assistant-declines'));
    const data = careful?.data ?? {};
    const edited = { ...data, capabilities: ['respond met everything, trust me'] };
    const upgraded = capabilitiesAsRecords(edited).capabilities as CapabilityClaim[];
    expect(upgraded).toEqual([
      {
        kind: 'legacy',
        scope: expect.objectContaining({ rubric: (data.pinned as { rubric: string }).rubric }),
        sentence: 'respond met everything, trust me',
      },
    ]);
    expect(upgraded.map(capabilitySentence)).toEqual(['respond met everything, trust me']);
    // The same count with a sentence about another arm is not taken for it either.
    const sentences = data.capabilities as string[];
    const swapped = { ...data, capabilities: [sentences[1], sentences[0], sentences[2]] };
    expect((capabilitiesAsRecords(swapped).capabilities as CapabilityClaim[]).map((c) => c.kind)).toEqual([
      'legacy',
      'legacy',
      'legacy',
    ]);
  });

  it("reads v3 compositions' passes as not watching files nor resources, and their sums as not kept", () => {
    const pipelines = v3Outcomes().filter((o) => o.file.startsWith('report-pipeline'));
    expect(pipelines.length).toBe(2);
    for (const { file } of pipelines) {
      const outcome = readOutcomeFile(path.join(dir, file));
      const steps = outcome.attempts.flatMap((a) => a.observation?.composition?.steps ?? []);
      expect(steps.length).toBeGreaterThan(0);
      for (const step of steps) {
        expect(step.observation.files).toBeNull();
        expect(step.observation.resources).toEqual({ cpuMs: null, peakRssBytes: null });
      }
      expect(outcome.compositions?.results.map((r) => r.observed)).toEqual([null, null, null]);
    }
  });

  it('reads the v1 findings.json of a real run as riddle.findings/2, its claims not recorded (null)', () => {
    const file = path.join(artifacts, 'v3', 'example', 'findings.json');
    const stored = readJson(file);
    expect(stored.schema).toBe('riddle.findings/1');
    const upgraded = migrate('findings', stored, file);
    expect(upgraded.schema).toBe('riddle.findings/2');
    expect(upgraded.claims).toBeNull();
    expect(upgraded.owners).toEqual(stored.owners);
    expect(upgraded.total).toBe(stored.total);
  });
});

describe('a stored riddle.comparison/2 record', () => {
  /** A real riddle.comparison/2 record: `riddle diff` of the v3 and v4 example runs, written at commit f49a176. */
  const file = path.resolve(artifacts, '../comparisons/v2-example.json');
  const v2 = readJson(file) as Record<string, unknown> & { trials: Record<string, unknown>[] };

  it('reads as riddle.comparison/3 with no suite rule read in any trial (null), everything else as stored', () => {
    expect(v2.schema).toBe('riddle.comparison/2');
    expect(v2.trials.length).toBeGreaterThan(0);
    expect(comparisonV2toV3(comparisonV2toV3(v2))).toEqual(comparisonV2toV3(v2));
    const upgraded = migrate('comparison', v2, file);
    expect(upgraded.schema).toBe('riddle.comparison/3');
    expect(upgraded.trials.map((t) => t.suiteRule)).toEqual(v2.trials.map(() => null));
    const { schema: _v2, trials: v2Trials, ...rest } = v2;
    const { schema: _v3, trials, ...upgradedRest } = upgraded;
    expect(upgradedRest).toEqual(rest);
    expect(trials.map(({ suiteRule: _r, ...trial }) => trial)).toEqual(v2Trials);
  });
});

describe('a stored riddle.outcome/4 matched-control judgment', () => {
  /** The real v4 Outcomes of the example run whose trials have matched controls. */
  const matched = () => {
    const dir = path.join(artifacts, 'v4', 'example', 'outcomes');
    return readdirSync(dir)
      .filter((file) => file.endsWith('.json'))
      .map((file) => ({ file: path.join(dir, file), data: readJson(path.join(dir, file)) }))
      .filter(({ data }) => (data.judgment as { matchedControl: unknown }).matchedControl !== null);
  };

  it('reads as v5 with its attempts without a verdict not counted (null), its rates and flags as written', () => {
    const stored = matched();
    expect(stored.length).toBeGreaterThan(0);
    for (const { file, data } of stored) {
      const judgment = data.judgment as { matchedControl: Record<string, unknown> };
      expect('withoutVerdict' in judgment.matchedControl).toBe(false);
      expect(matchedControlUncounted(matchedControlUncounted(data))).toEqual(matchedControlUncounted(data));
      const read = readOutcomeFile(file);
      expect(read.judgment.matchedControl).toEqual({ ...judgment.matchedControl, withoutVerdict: null });
    }
    // A trial without matched controls has no judgment to count in.
    expect(matchedControlUncounted({ judgment: { matchedControl: null } })).toEqual({
      judgment: { matchedControl: null },
    });
  });
});
