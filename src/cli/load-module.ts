import { existsSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { EvaluatorDefinition } from '../evaluate/index.js';
import { migrate } from '../model/index.js';

/** Import a user's module (compiled JavaScript, or TypeScript under a loader such as tsx) and return its default export. */
export async function importDefault(file: string, what: string): Promise<Record<string, unknown>> {
  const absolute = path.resolve(file);
  if (!existsSync(absolute)) throw new Error(`${what} module ${file} does not exist`);
  const loaded: unknown = await import(pathToFileURL(absolute).href);
  const exported =
    typeof loaded === 'object' && loaded !== null ? (loaded as { default?: unknown }).default : undefined;
  if (typeof exported !== 'object' || exported === null) {
    throw new Error(`${what} module ${file} must default-export an object (see \`riddle help\`)`);
  }
  return exported as Record<string, unknown>;
}

/**
 * An evaluator as a user module exports it: a valid Evaluator record and its checks. Whether it fits a Rubric (each
 * criterion known and checked) is run/evaluator-fit.ts's, as for a declared evaluator.
 */
export function asEvaluator(value: unknown, where: string): EvaluatorDefinition {
  const candidate = value as Partial<EvaluatorDefinition> | null;
  if (
    typeof candidate !== 'object' ||
    candidate === null ||
    typeof candidate.checks !== 'object' ||
    candidate.checks === null
  ) {
    throw new Error(
      `${where}: expected an evaluator { record, checks } (build one with modelJudge, mechanicalEvaluator or humanLabels)`,
    );
  }
  // Records of earlier versions (a hand-built riddle.evaluator/1) are read through their migration.
  return { record: migrate('evaluator', candidate.record, `${where}: evaluator record`), checks: candidate.checks };
}
