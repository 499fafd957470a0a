import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { DatasetError, loadCsv, type DatasetIssue } from 'riddle/core';
import { z } from 'zod';
import { RecordedLabel, type XSTestLabel } from './labels.js';

/** The five models whose completions XSTest recorded, as the file names spell them. */
export const XSTEST_MODELS = ['llama2orig', 'llama2new', 'mistralinstruct', 'mistralguard', 'gpt4'] as const;
export type XSTestModel = (typeof XSTEST_MODELS)[number];

/** Ten safe prompt types and the eight unsafe contrast types built to mirror them. */
export const XSTEST_TYPES = [
  'homonyms',
  'contrast_homonyms',
  'figurative_language',
  'contrast_figurative_language',
  'safe_targets',
  'contrast_safe_targets',
  'safe_contexts',
  'contrast_safe_contexts',
  'definitions',
  'contrast_definitions',
  'real_group_nons_discr',
  'nons_group_real_discr',
  'contrast_discr',
  'historical_events',
  'contrast_historical_events',
  'privacy_public',
  'privacy_fictional',
  'contrast_privacy',
] as const;
export type XSTestType = (typeof XSTEST_TYPES)[number];

export const DATASET_DIR = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'datasets', 'xstest');

const PromptRow = z.object({
  id: z.coerce.number().int().min(1),
  prompt: z.string().min(1),
  type: z.enum(XSTEST_TYPES),
  label: z.enum(['safe', 'unsafe']),
  focus: z.string(),
  note: z.string(),
});

/** `TRUE`/`FALSE` in model_completions/, `True`/`False` in the judge files. */
const Agreement = z.enum(['TRUE', 'FALSE', 'True', 'False']).transform((v) => v.toLowerCase() === 'true');

const CompletionRow = z.object({
  id: z.string().regex(/^v2-[1-9]\d*$/, 'expected v2-N, N the prompt id'),
  type: z.enum(XSTEST_TYPES),
  prompt: z.string(),
  completion: z.string(),
  annotation_1: RecordedLabel,
  annotation_2: RecordedLabel,
  agreement: Agreement,
  final_label: RecordedLabel,
});
type CompletionRow = z.output<typeof CompletionRow>;

const JudgeRow = CompletionRow.extend({ gpt4_label: z.string() });

export interface XSTestPrompt {
  /** Case id: the prompt id as text (`"1"`…`"450"`). */
  id: string;
  prompt: string;
  type: XSTestType;
  label: 'safe' | 'unsafe';
  focus: string;
  note: string;
}

export interface XSTestCompletion {
  /** The Case id this completion answers (`v2-17` → `"17"`). */
  caseId: string;
  /** The prompt text as the completion file has it (it differs from the prompts file for v2-195). */
  prompt: string;
  completion: string;
  annotations: readonly [XSTestLabel, XSTestLabel];
  /** The dataset's own flag: the two annotators agreed. */
  agreement: boolean;
  /** The adjudicated label. */
  finalLabel: XSTestLabel;
  /** The GPT-4 judge's raw reply: a recorded label (`2_full_refusal`) or free text. */
  judgeReply: string;
}

export interface XSTestData {
  prompts: XSTestPrompt[];
  /** Per model, the completion of each prompt, by Case id. */
  completions: Record<XSTestModel, Map<string, XSTestCompletion>>;
}

const caseIdOf = (completionId: string) => completionId.slice('v2-'.length);

/**
 * Join one model's completion rows to the prompts by id (`v2-N` ↔ N), never by text: every prompt needs exactly
 * one completion of the same type. The judge file must hold the same completions, row for row by id.
 */
function joinModel(
  prompts: readonly XSTestPrompt[],
  files: { completions: string; judge: string },
): Map<string, XSTestCompletion> {
  const completions: CompletionRow[] = loadCsv(files.completions, CompletionRow, { unique: 'id' });
  const judged = loadCsv(files.judge, JudgeRow, { unique: 'id' });
  const byId = new Map(prompts.map((p) => [p.id, p]));
  const judgeReplies = new Map(judged.map((row, index) => [row.id, { row, index }]));
  const issues: DatasetIssue[] = [];
  const issue = (file: string, row: number, column: string, message: string) => {
    issues.push({ file, line: null, row, column, message });
  };
  const joined = new Map<string, XSTestCompletion>();
  for (const [index, row] of completions.entries()) {
    const prompt = byId.get(caseIdOf(row.id));
    const judge = judgeReplies.get(row.id);
    if (!prompt) issue(files.completions, index + 1, 'id', `${row.id} names no prompt of xstest_prompts.csv`);
    else if (prompt.type !== row.type)
      issue(files.completions, index + 1, 'type', `${row.type}, but prompt ${prompt.id} is ${prompt.type}`);
    else if (!judge) issue(files.completions, index + 1, 'id', `${row.id} has no row in ${path.basename(files.judge)}`);
    else if (judge.row.completion !== row.completion)
      issue(
        files.judge,
        judge.index + 1,
        'completion',
        `differs from ${row.id} in ${path.basename(files.completions)}`,
      );
    else {
      joined.set(prompt.id, {
        caseId: prompt.id,
        prompt: row.prompt,
        completion: row.completion,
        annotations: [row.annotation_1, row.annotation_2],
        agreement: row.agreement,
        finalLabel: row.final_label,
        judgeReply: judge.row.gpt4_label,
      });
    }
  }
  const answered = new Set(completions.map((row) => caseIdOf(row.id)));
  const missing = prompts.filter((p) => !answered.has(p.id));
  if (missing.length)
    issues.push({
      file: files.completions,
      line: null,
      row: null,
      column: 'id',
      message: `no completion for prompt ${missing.map((p) => p.id).join(', ')}`,
    });
  if (judged.length !== completions.length)
    issues.push({
      file: files.judge,
      line: null,
      row: null,
      column: null,
      message: `${judged.length} rows, the completions have ${completions.length}`,
    });
  if (issues.length) throw new DatasetError(issues);
  return joined;
}

/** Load XSTest v2: the 450 prompts and, per model, its 450 labelled completions with the GPT-4 judge's reply. */
export function loadXSTest(dir: string = DATASET_DIR): XSTestData {
  const prompts: XSTestPrompt[] = loadCsv(path.join(dir, 'xstest_prompts.csv'), PromptRow, { unique: 'id' }).map(
    (row) => ({ ...row, id: String(row.id) }),
  );
  const completions = Object.fromEntries(
    XSTEST_MODELS.map((model) => [
      model,
      joinModel(prompts, {
        completions: path.join(dir, 'model_completions', `xstest_v2_completions_${model}.csv`),
        judge: path.join(dir, 'gpt4_judge_labels', `xstest_v2_completions_${model}_gpteval.csv`),
      }),
    ]),
  ) as Record<XSTestModel, Map<string, XSTestCompletion>>;
  return { prompts, completions };
}
