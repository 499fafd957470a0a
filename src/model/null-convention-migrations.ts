/**
 * Upgrade steps for the records whose optional fields became required and nullable, this round's convention (an
 * absent value is null, never an omitted key; see migrations.ts): Rubric 2 → 3 (a criterion target's `id`), the
 * Case and TrialSuite steps of their v3 (a dependency's `description`, a Case's `pressure`, a suite's `holdout`,
 * summary options and its rule's conditions' bounds and groups), and the Outcome v4 step that applies them to the records it embeds. Each fills null where the
 * older record omitted the key, which is what the omission meant; present values are kept as they were.
 */
import { eachOf, type StoredRecord, within } from './stored-record.js';

/** `keys` of `data` set to null where omitted. */
const nullWhereOmitted = (data: StoredRecord, keys: readonly string[]): StoredRecord => ({
  ...data,
  ...Object.fromEntries(keys.filter((key) => data[key] === undefined).map((key) => [key, null])),
});

/** Rubric `riddle.rubric/2` → `riddle.rubric/3`: a criterion's target `id` null where omitted (any target will do). */
export function rubricV2toV3(data: StoredRecord): StoredRecord {
  return {
    ...data,
    schema: 'riddle.rubric/3',
    criteria: eachOf(data.criteria, (criterion) => ({
      ...criterion,
      target: within(criterion.target, (target) => nullWhereOmitted(target, ['id'])),
    })),
  };
}

/** A Case's `pressure` (none declared) and each dependency's `description` null where omitted. */
export function caseAbsentAsNull(data: StoredRecord): StoredRecord {
  return {
    ...nullWhereOmitted(data, ['pressure']),
    dependencies: eachOf(data.dependencies, (dependency) => nullWhereOmitted(dependency, ['description'])),
  };
}

/** Summary options a data-driven suite may leave undeclared. */
const SUMMARY_OPTIONS = ['criterion', 'groupBy', 'reference', 'panel', 'alpha', 'repeated', 'rule'] as const;

/** A suite rule's refusal-rate condition with what it did not set null (a pass^k condition has no such fields). */
const conditionAbsentAsNull = (condition: StoredRecord): StoredRecord =>
  typeof condition.rate === 'string' && condition.rate.startsWith('pass^')
    ? condition
    : nullWhereOmitted(condition, ['atLeast', 'atMost', 'groups']);

/** A TrialSuite's `holdout` (not a holdout trial), its summary options and its Cases' fields null where omitted. */
export function trialSuiteAbsentAsNull(data: StoredRecord): StoredRecord {
  return {
    ...nullWhereOmitted(data, ['holdout']),
    arms: eachOf(data.arms, (arm) => ({ ...arm, case: within(arm.case, caseAbsentAsNull) })),
    aggregation: within(data.aggregation, (aggregation) => ({
      ...aggregation,
      summary: within(aggregation.summary, (summary) => ({
        ...nullWhereOmitted(summary, SUMMARY_OPTIONS),
        rule: eachOf(summary.rule ?? null, conditionAbsentAsNull),
      })),
    })),
  };
}

/**
 * Outcome v4 change: the Rubric and TrialSuite it embeds with their absent values null (Rubric at v3), and the suite
 * rule's decision with its conditions as the suite declares them.
 */
export function embeddedRecordsAbsentAsNull(outcome: StoredRecord): StoredRecord {
  return {
    ...outcome,
    suiteRule: within(outcome.suiteRule, (decision) => ({
      ...decision,
      conditions: eachOf(decision.conditions, conditionAbsentAsNull),
    })),
    records: within(outcome.records, (records) => ({
      ...records,
      suite: within(records.suite, trialSuiteAbsentAsNull),
      rubric: within(records.rubric, (rubric) => (rubric.schema === 'riddle.rubric/2' ? rubricV2toV3(rubric) : rubric)),
    })),
  };
}
