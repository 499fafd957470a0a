import { z } from 'zod';
import { Calibration, CALIBRATION_SCHEMA } from './calibration.js';
import { Case, CASE_SCHEMA } from './case.js';
import { Comparison, COMPARISON_SCHEMA } from './comparison.js';
import { Environment, ENVIRONMENT_SCHEMA } from './environment.js';
import { Evaluator, EVALUATOR_SCHEMA } from './evaluator.js';
import { FindingsFile, FINDINGS_SCHEMA } from './findings-file.js';
import { CompositionSuite, COMPOSITION_SUITE_SCHEMA } from './composition.js';
import { Outcome, OUTCOME_SCHEMA } from './outcome.js';
import { Rubric, RUBRIC_SCHEMA } from './rubric.js';
import { RunIndex, RUN_SCHEMA } from './run-index.js';
import { TrialSuite, TRIAL_SUITE_SCHEMA } from './trial-suite.js';

/** Every versioned record riddle writes, by the file name its JSON Schema ships under. */
export const RECORD_SCHEMAS = {
  case: { id: CASE_SCHEMA, schema: Case },
  'trial-suite': { id: TRIAL_SUITE_SCHEMA, schema: TrialSuite },
  rubric: { id: RUBRIC_SCHEMA, schema: Rubric },
  evaluator: { id: EVALUATOR_SCHEMA, schema: Evaluator },
  environment: { id: ENVIRONMENT_SCHEMA, schema: Environment },
  outcome: { id: OUTCOME_SCHEMA, schema: Outcome },
  run: { id: RUN_SCHEMA, schema: RunIndex },
  calibration: { id: CALIBRATION_SCHEMA, schema: Calibration },
  comparison: { id: COMPARISON_SCHEMA, schema: Comparison },
  findings: { id: FINDINGS_SCHEMA, schema: FindingsFile },
  'composition-suite': { id: COMPOSITION_SUITE_SCHEMA, schema: CompositionSuite },
} as const satisfies Record<string, { id: string; schema: z.ZodType }>;

export type RecordName = keyof typeof RECORD_SCHEMAS;

/** JSON Schema (draft 2020-12) of a record, generated from its zod schema. */
export function recordJsonSchema(name: RecordName): Record<string, unknown> {
  const { id, schema } = RECORD_SCHEMAS[name];
  const generated = z.toJSONSchema(schema, { target: 'draft-2020-12', io: 'output', unrepresentable: 'any' });
  return { ...generated, $id: `https://riddle.dev/schema/${name}.json`, title: id };
}
