/**
 * Upgrades of stored records, one version at a time. Each step is a pure function from the JSON data of version N
 * to the data of version N + 1 (it never validates: `migrate` parses the result against the current schema). A
 * record whose shape changes gets a new version id and one step here; old artifacts then stay readable.
 *
 * Convention from version 2 on: a value that can be absent is a required field holding `null`, never an omitted
 * key. A step fills every field its version added with the value that field means for records written before it.
 */

import { eachOf, isRecord, type StoredRecord, within } from './stored-record.js';
import { findingId, findingSeverity } from './finding.js';
import { coveredByPointers } from './evidence-pointers.js';
import type { Receipt } from './observation.js';
import { caseV1toV2, noTrapGroups, trialSuiteV1toV2 } from './pressure-trap-migrations.js';
import { caseV2toV3, noTrapChains, trialSuiteV2toV3 } from './trap-chain-migrations.js';
import { costBreakdown, type CostBreakdown } from './spending.js';
import { runIndexV1toV2, runIndexV2toV3 } from './run-index.js';
import { noScores, rubricV1toV2 } from './score-migrations.js';
import { noArmReasons } from './reason-migrations.js';
import { evaluatorsAsV2, evaluatorV1toV2 } from './evaluator-migrations.js';
import { outsideWritesNotWatched, strayErrorsFromWarnings } from './execution-migrations.js';
import { attemptsByStatus } from './attempt-status-migrations.js';
import { noAttemptReasons } from './attempt-reason-migrations.js';
import { unsettledAsData } from './unsettled-migrations.js';
import { repeatedVerdictAsData } from './repeated-verdict-migrations.js';
import { missingVerdictsUncounted } from './missing-verdicts-migrations.js';
import { refusalTablesUncounted } from './refusal-table-migrations.js';
import { matchedControlUncounted } from './matched-control-migrations.js';
import { policyChangesUnrecorded } from './registration-migrations.js';
import { comparisonV2toV3 } from './comparison-migrations.js';
import {
  caseAbsentAsNull,
  embeddedRecordsAbsentAsNull,
  rubricV2toV3,
  trialSuiteAbsentAsNull,
} from './null-convention-migrations.js';
import { capabilitiesAsRecords } from './capability-migrations.js';
import { compositionsOwnObservation } from './composition-migrations.js';
import { findingsV1toV2 } from './findings-file.js';

export type { StoredRecord } from './stored-record.js';

/** One upgrade step: data of version N to data of version N + 1. */
export type MigrationStep = (data: StoredRecord) => StoredRecord;

/** `key` set to `fallback` when the record omits it (v1 records omitted absent values). */
const orDefault = (data: StoredRecord, key: string, fallback: unknown): unknown =>
  data[key] === undefined ? fallback : data[key];

/** Observation v1 → v2: `observers` null when not listed (every part counts as watched), `notes` [] when absent. */
export function observationV1toV2(observation: StoredRecord): StoredRecord {
  return {
    ...observation,
    exit: within(observation.exit, (exit) => ({ ...exit, stopReason: orDefault(exit, 'stopReason', null) })),
    observers: orDefault(observation, 'observers', null),
    notes: orDefault(observation, 'notes', []),
  };
}

/** Criterion finding v1 → v2: `adjudicator` false when absent. */
function findingV1toV2(finding: StoredRecord): StoredRecord {
  return { ...finding, adjudicator: orDefault(finding, 'adjudicator', false) };
}

/**
 * Suite summary v1 → v2: every group rate (recognised by its `method` and `cases` fields) gets `designEffect`
 * null when it had none, wherever it sits in the tables.
 */
function suiteSummaryV1toV2(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(suiteSummaryV1toV2);
  if (!isRecord(value)) return value;
  const upgraded = Object.fromEntries(Object.entries(value).map(([key, member]) => [key, suiteSummaryV1toV2(member)]));
  return 'method' in value && 'cases' in value && 'rate' in value
    ? { ...upgraded, designEffect: orDefault(value, 'designEffect', null) }
    : upgraded;
}

/** Attempt record v1 → v2. */
function attemptV1toV2(attempt: StoredRecord): StoredRecord {
  return {
    ...attempt,
    observation: within(attempt.observation, observationV1toV2),
    findings: eachOf(attempt.findings, findingV1toV2),
    pressure: orDefault(attempt, 'pressure', null),
  };
}

/** The per-arm and per-attempt cost v1 did not keep, rebuilt from its attempts' receipts (their own costUsd). */
function costBreakdownV1(attempts: unknown): CostBreakdown {
  const rows = Array.isArray(attempts) ? attempts.filter(isRecord) : [];
  return costBreakdown(
    rows.map((attempt) => ({
      arm: String(attempt.arm),
      index: Number(attempt.index),
      receipts: (isRecord(attempt.observation) && Array.isArray(attempt.observation.receipts)
        ? attempt.observation.receipts
        : []) as Receipt[],
    })),
  );
}

/**
 * Arm summary v1 → v2. v1 rated PASS over decided attempts; v2 rates over the decision's denominator (errors kept in
 * it), so the rate is recomputed from the decision and its Wilson interval, computed on the other denominator, is
 * dropped (null) where the two differ. The required-criteria share was not recorded: null. Under the `exclude`
 * policy the attempts without a verdict were left out of the bound: they become the exclusions.
 */
function armV1toV2(arm: StoredRecord, outcome: StoredRecord): StoredRecord {
  const decision = isRecord(arm.decision) ? arm.decision : {};
  const successes = Number(decision.successes);
  const attempts = Number(decision.attempts);
  const rate = attempts > 0 ? successes / attempts : null;
  const records = isRecord(outcome.records) ? outcome.records : {};
  const rubric = isRecord(records.rubric) ? records.rubric : {};
  const excluded =
    rubric.missingEvidence === 'exclude' && Array.isArray(outcome.attempts)
      ? outcome.attempts
          .filter(isRecord)
          .filter((a) => a.arm === arm.arm && a.verdict === 'UNKNOWN')
          .map((a) => ({ index: a.index, status: a.status, reason: a.reason }))
      : [];
  return {
    ...arm,
    rate,
    wilson: rate === arm.rate ? arm.wilson : null,
    required: null,
    exclusions: excluded,
    pressure: orDefault(arm, 'pressure', null),
  };
}

/** Coverage row v1 → v2: the evidence v1 copied per attempt stays in the attempts; the uncovered ones are listed. */
function coverageRowV1toV2(row: StoredRecord): StoredRecord {
  const { attempts, ...rest } = row;
  const uncovered = Array.isArray(attempts)
    ? attempts.filter(isRecord).filter((a) => !Array.isArray(a.evidence) || a.evidence.length === 0)
    : [];
  return { ...rest, uncoveredAttempts: uncovered.map((a) => ({ arm: a.arm, attempt: a.attempt })) };
}

/**
 * Outcome `riddle.outcome/1` → `riddle.outcome/2`: values v1 omitted when absent become null (attempt, arm and
 * trial pressure, the holdout access, a process's stop reason, the observers list), and lists v1 omitted when
 * empty become [] (observation notes).
 */
export function outcomeV1toV2(outcome: StoredRecord): StoredRecord {
  return {
    ...outcome,
    schema: 'riddle.outcome/2',
    // v1 ids fingerprinted the pinned records only: that is the setup fingerprint of v2.
    setup: outcome.id,
    registration: null,
    // Environment v1 → v2: isolation did not exist, so every subject ran unisolated.
    records: within(outcome.records, (records) => ({
      ...records,
      environment: within(records.environment, (environment) => ({
        ...environment,
        schema: 'riddle.environment/2',
        isolation: null,
      })),
    })),
    execution: within(outcome.execution, (execution) => ({
      ...execution,
      holdout: orDefault(execution, 'holdout', null),
      incomplete: null,
      budget: orDefault(execution, 'budget', null),
      providers: orDefault(execution, 'providers', null),
    })),
    cost: within(outcome.cost, (cost) => ({ ...cost, ...costBreakdownV1(outcome.attempts) })),
    attempts: eachOf(outcome.attempts, attemptV1toV2),
    attemptsFile: null,
    coverage: eachOf(outcome.coverage, coverageRowV1toV2),
    arms: eachOf(outcome.arms, (arm) => armV1toV2(arm, outcome)),
    judgment: within(outcome.judgment, (judgment) => ({
      ...judgment,
      // v1 flagged on point rates and kept no interval: no interval, nothing told apart by one, nothing noted.
      matchedControl: within(judgment.matchedControl, (matched) => ({
        ...matched,
        discriminationInterval: null,
        toldApart: false,
        unsettled: null,
      })),
      pressure: orDefault(judgment, 'pressure', null),
    })),
    // v1 had no repeated-attempt tables (pass^k): null.
    suite: within(suiteSummaryV1toV2(outcome.suite), (suite) => ({
      ...suite,
      repeated: orDefault(suite, 'repeated', null),
    })),
  };
}

/** Composition Suites did not exist before v3: no attempt ran through one, and no Outcome summarises one. */
export function noCompositions(outcome: StoredRecord): StoredRecord {
  return {
    ...outcome,
    attempts: eachOf(outcome.attempts, (attempt) => ({
      ...attempt,
      observation: within(attempt.observation, (observation) => ({ ...observation, composition: null })),
    })),
    compositions: null,
  };
}

/**
 * Findings were free strings before v3: each becomes a record about the trial as a whole (no composition), resting
 * on no referenced attempt or evidence (v2 kept none), with its kind's severity and an id from its owner, kind and
 * message (the only content it has).
 */
export function findingsAsRecords(outcome: StoredRecord): StoredRecord {
  return {
    ...outcome,
    findings: eachOf(outcome.findings, (finding) => ({
      id: findingId(String(finding.owner), null, String(finding.kind), String(finding.message)),
      owner: finding.owner,
      composition: null,
      kind: finding.kind,
      severity: findingSeverity(String(finding.kind)),
      message: finding.message,
      attempts: [],
      attemptCount: 0,
      evidence: [],
    })),
  };
}

/** Suite rules did not exist before v3: every v2 suite was decided by its rows, so no Outcome holds a rule's decision. */
export function noSuiteRule(outcome: StoredRecord): StoredRecord {
  return { ...outcome, suiteRule: null };
}

/**
 * The changes `riddle.outcome/3` makes, each a pure step over the v2 data, applied in order. Each change of this
 * version adds its own step here (beside the field it adds), so the upgrade reads as the list of what changed.
 */
const OUTCOME_V3_CHANGES: readonly MigrationStep[] = [
  noCompositions,
  findingsAsRecords,
  noSuiteRule,
  noTrapGroups,
  noScores,
  coveredByPointers,
  noArmReasons,
  evaluatorsAsV2,
  strayErrorsFromWarnings,
  outsideWritesNotWatched,
];

/** Outcome `riddle.outcome/2` → `riddle.outcome/3`: the changes listed in `OUTCOME_V3_CHANGES`. */
export function outcomeV2toV3(outcome: StoredRecord): StoredRecord {
  return OUTCOME_V3_CHANGES.reduce<StoredRecord>((upgraded, change) => change(upgraded), {
    ...outcome,
    schema: 'riddle.outcome/3',
  });
}

/**
 * The changes `riddle.outcome/4` makes, each a pure step over the v3 data, applied in order (one step per change,
 * beside the field it adds).
 */
const OUTCOME_V4_CHANGES: readonly MigrationStep[] = [
  capabilitiesAsRecords,
  compositionsOwnObservation,
  noTrapChains,
  attemptsByStatus,
  unsettledAsData,
  embeddedRecordsAbsentAsNull,
  repeatedVerdictAsData,
  noAttemptReasons,
];

/** Outcome `riddle.outcome/3` → `riddle.outcome/4`: the changes listed in `OUTCOME_V4_CHANGES`. */
export function outcomeV3toV4(outcome: StoredRecord): StoredRecord {
  return OUTCOME_V4_CHANGES.reduce<StoredRecord>((upgraded, change) => change(upgraded), {
    ...outcome,
    schema: 'riddle.outcome/4',
  });
}

/**
 * The changes `riddle.outcome/5` makes, each a pure step over the v4 data, applied in order (one step per change,
 * beside the field it adds). v5 also adds the arm rule `cut-short` (an arm the run cut short is UNKNOWN), which needs
 * no step: a v4 record holds none and its arms keep the verdicts they were written with, decided on the attempts that
 * ran; `riddle rejudge` decides them anew under the v5 rule.
 */
const OUTCOME_V5_CHANGES: readonly MigrationStep[] = [
  missingVerdictsUncounted,
  policyChangesUnrecorded,
  refusalTablesUncounted,
  matchedControlUncounted,
];

/** Outcome `riddle.outcome/4` → `riddle.outcome/5`: the changes listed in `OUTCOME_V5_CHANGES`. */
export function outcomeV4toV5(outcome: StoredRecord): StoredRecord {
  return OUTCOME_V5_CHANGES.reduce<StoredRecord>((upgraded, change) => change(upgraded), {
    ...outcome,
    schema: 'riddle.outcome/5',
  });
}

/** Comparison `riddle.comparison/1` → `/2`: Composition Suites did not exist, so no trial compares compositions. */
export function comparisonV1toV2(comparison: StoredRecord): StoredRecord {
  return {
    ...comparison,
    schema: 'riddle.comparison/2',
    trials: eachOf(comparison.trials, (trial) => ({ ...trial, compositions: [] })),
  };
}

/**
 * Every step by record and by the version it upgrades from. A record absent here has only ever had one version.
 */
export const MIGRATIONS: Readonly<Record<string, Readonly<Record<number, MigrationStep>>>> = {
  outcome: { 1: outcomeV1toV2, 2: outcomeV2toV3, 3: outcomeV3toV4, 4: outcomeV4toV5 },
  comparison: { 1: comparisonV1toV2, 2: comparisonV2toV3 },
  findings: { 1: findingsV1toV2 },
  run: { 1: runIndexV1toV2, 2: runIndexV2toV3 },
  rubric: { 1: rubricV1toV2, 2: rubricV2toV3 },
  case: { 1: caseV1toV2, 2: (data) => caseAbsentAsNull(caseV2toV3(data)) },
  'trial-suite': { 1: trialSuiteV1toV2, 2: (data) => trialSuiteAbsentAsNull(trialSuiteV2toV3(data)) },
  evaluator: { 1: evaluatorV1toV2 },
};
