import { EVALUATOR_SCHEMA, type Case, type Evaluator, type Observation } from '../model/index.js';
import {
  anything,
  either,
  flag,
  fn,
  having,
  listOf,
  nonEmpty,
  numberAtLeast,
  object,
  oneOf,
  optional,
  optionsChecker,
  recordOf,
  text,
} from '../model/options-check.js';
import { withCalibration, type CalibrationFloor } from './calibration.js';
import type { Calibration } from '../model/index.js';
import type { CheckContext, CheckFinding, CriterionCheck, EvaluatorDefinition } from './evaluator.js';
import { ANY_TARGET, rawObservation } from './evidence.js';

function fail(factory: string, id: string, problem: string): never {
  throw new TypeError(`${factory}("${id}"): ${problem}`);
}

function requireCriteria(factory: string, id: string, criteria: readonly string[]): string[] {
  if (criteria.length === 0) fail(factory, id, 'declare at least one criterion');
  const sorted = [...new Set(criteria)].sort();
  if (sorted.length !== criteria.length) fail(factory, id, 'a criterion is listed twice');
  return sorted;
}

export const texts = listOf(text, 'an array of strings');

/** Calibration evidence as declared: the file's name, its parsed content (checked by withCalibration), a floor. */
export const calibrationOption = optional(
  object<{ file: string; calibration: Calibration; floor?: CalibrationFloor }>({
    file: text,
    calibration: having('a Calibration record (the parsed calibration file)', []),
    floor: optional(
      either('a number, or an object of numbers by criterion', (value) =>
        typeof value === 'number' ? numberAtLeast(0) : recordOf(numberAtLeast(0), 'an object of numbers by criterion'),
      ),
    ),
  }),
);

// ── mechanical and rubric evaluators ────────────────────────────────────────

export interface MechanicalEvaluatorOptions {
  id: string;
  /** Change it whenever a check changes what it accepts. */
  revision: string;
  /** One check per criterion: pass (met), throw an assertion (unmet), or `context.unknown(reason)`. */
  checks: Readonly<Record<string, CriterionCheck>>;
  /** `rubric` for checks that grade against a written rubric rather than test receipts directly. */
  kind?: 'mechanical' | 'rubric';
  limits?: readonly string[];
}

const checkMechanical = optionsChecker<MechanicalEvaluatorOptions>(
  'mechanicalEvaluator',
  {
    id: nonEmpty,
    revision: nonEmpty,
    checks: recordOf(fn('a check function (view, context) => …'), 'an object of check functions by criterion'),
    kind: optional(oneOf(['mechanical', 'rubric'])),
    limits: optional(texts),
  },
  'id',
);

/** Deterministic checks on the retained evidence: independent of the subject, trusted without calibration. */
export function mechanicalEvaluator(options: MechanicalEvaluatorOptions): EvaluatorDefinition {
  checkMechanical(options);
  const criteria = requireCriteria('mechanicalEvaluator', options.id, Object.keys(options.checks));
  const record: Evaluator = {
    schema: EVALUATOR_SCHEMA,
    id: options.id,
    kind: options.kind ?? 'mechanical',
    revision: options.revision,
    criteria,
    model: null,
    independence: { independent: true, reason: 'deterministic checks on retained evidence; no model involved' },
    calibration: null,
    limits: [...(options.limits ?? [])],
    adjudicator: false,
  };
  return { record, checks: options.checks };
}

// ── model judges ────────────────────────────────────────────────────────────

/** A judge's reply outside its declared vocabulary: an evaluator error for that attempt, never a FAIL. */
export class JudgeReplyError extends Error {
  constructor(
    readonly judge: string,
    readonly reply: string,
    vocabulary: readonly string[],
  ) {
    const excerpt = reply.length > 200 ? `${reply.slice(0, 200)}…` : reply;
    super(`judge ${judge} answered outside its vocabulary [${vocabulary.join(', ')}]: ${JSON.stringify(excerpt)}`);
    this.name = 'JudgeReplyError';
  }
}

const stripDecoration = (s: string) =>
  s
    .trim()
    .replace(/^[*_`"'“\s[(]+/, '')
    .replace(/[*_`"'”\s.!)\]]+$/, '')
    .toLowerCase();

/**
 * The default reading of a judge's reply: the whole reply is one label (case, quotes, markdown emphasis and a final
 * full stop aside), or its last line is, alone or as `Label: X` / `Verdict: X` / `Answer: X`. Anything else (a
 * refusal, an explanation without a verdict line) is no label: null.
 */
export function parseJudgeLabel(reply: string, vocabulary: readonly string[]): string | null {
  const byKey = new Map(vocabulary.map((label) => [label.toLowerCase(), label]));
  const whole = byKey.get(stripDecoration(reply));
  if (whole !== undefined) return whole;
  const last =
    reply
      .split(/\r?\n/)
      .map((line) => line.trim())
      .filter(Boolean)
      .at(-1) ?? '';
  const keyed = /^[*_\s]*(?:final\s+)?(?:label|verdict|answer|grade)[*_\s]*[:=][*_\s]*(.+)$/i.exec(last);
  return byKey.get(stripDecoration(keyed?.[1] ?? last)) ?? null;
}

export interface JudgeModel {
  /** Model id as the provider names it. */
  id: string;
  /** Model family (e.g. `gpt-4o`, `claude-3`): a judge of the subject's family is not independent of it. */
  family: string;
  /** Revision of the judge's prompt: change it whenever the prompt changes. */
  promptRevision: string;
}

export interface ModelJudgeOptions {
  id: string;
  model: JudgeModel;
  criteria: readonly string[];
  /** Every label the judge may answer with; any other reply is an evaluator error. */
  vocabulary: readonly string[];
  /** Labels meaning a binary criterion is met (the others mean unmet). Multi-class criteria use the Rubric's labels. */
  met: readonly string[];
  /** Labels by which the judge declines to decide ("cannot tell"): the criterion stays UNKNOWN. */
  abstain?: readonly string[];
  /** The prompt for one criterion of one attempt, from the retained Observation only. */
  prompt: (observation: Observation, context: { criterion: string; case: Case }) => string;
  /** The user's model call (riddle ships no network client): the prompt in, the raw reply text out. */
  call: (prompt: string) => Promise<string>;
  /** Read a label from the raw reply (default `parseJudgeLabel`); null when the reply holds none. */
  parse?: (reply: string, vocabulary: readonly string[]) => string | null;
  /**
   * The subject's model family, to decide independence: the same family is not independent; `null` declares a
   * subject that uses no model. Left out, independence is not established and the judge counts as dependent.
   */
  subjectFamily?: string | null;
  /** Calibration evidence (`riddle calibrate`): without it the judge is untrusted and cannot decide a criterion. */
  calibration?: { file: string; calibration: Calibration; floor?: CalibrationFloor };
  limits?: readonly string[];
}

/** A judge's independence from the subject, by model family (shared by model judges and model-based scorers). */
export function independenceOf(model: JudgeModel, subjectFamily: string | null | undefined): Evaluator['independence'] {
  if (subjectFamily === undefined) {
    return {
      independent: false,
      reason: "the subject's model family was not declared (subjectFamily), so independence is not established",
    };
  }
  if (subjectFamily === null) return { independent: true, reason: 'the subject uses no model' };
  if (subjectFamily.toLowerCase() === model.family.toLowerCase()) {
    return { independent: false, reason: `judge ${model.id} is of the subject's model family (${model.family})` };
  }
  return { independent: true, reason: `judge family ${model.family} differs from the subject's (${subjectFamily})` };
}

/** A judge's model as declared: which it is, its family (for independence) and its prompt's revision. */
export const judgeModelOption = object<JudgeModel>({ id: nonEmpty, family: nonEmpty, promptRevision: nonEmpty });
/** The subject's model family, or null when it has none. */
export const subjectFamilyOption = optional(either('a string, or null', (value) => (value === null ? anything : text)));

const checkModelJudge = optionsChecker<ModelJudgeOptions>(
  'modelJudge',
  {
    id: nonEmpty,
    model: judgeModelOption,
    criteria: texts,
    vocabulary: texts,
    met: texts,
    abstain: optional(texts),
    prompt: fn('a function (observation, { criterion, case }) => prompt text'),
    call: fn('a function (prompt) => Promise of the reply text'),
    parse: optional(fn('a function (reply, vocabulary) => label or null')),
    subjectFamily: subjectFamilyOption,
    calibration: calibrationOption,
    limits: optional(texts),
  },
  'id',
);

/**
 * A model judge as a declared Evaluator, never an oracle: its record carries the model, prompt revision,
 * independence from the subject, declared limits and calibration. Each judgment keeps the prompt and the raw reply
 * on the finding; a reply outside the vocabulary is an evaluator error, never a FAIL.
 */
export function modelJudge(options: ModelJudgeOptions): EvaluatorDefinition {
  checkModelJudge(options);
  const { id, model, vocabulary } = options;
  const criteria = requireCriteria('modelJudge', id, options.criteria);
  const abstain = options.abstain ?? [];
  if (vocabulary.length < 2) fail('modelJudge', id, 'declare a vocabulary of at least two labels');
  for (const label of [...options.met, ...abstain]) {
    if (!vocabulary.includes(label))
      fail(
        'modelJudge',
        id,
        `label "${label}" (in met or abstain) is not in the vocabulary [${vocabulary.join(', ')}]`,
      );
  }
  if (options.met.length === 0) fail('modelJudge', id, 'name the labels that mean met');
  const parse = options.parse ?? parseJudgeLabel;
  const check: CriterionCheck = async (view, context: CheckContext): Promise<CheckFinding> => {
    // The prompt is retained whole on the finding, so what the judge read is on record without tracking it here.
    const prompt = options.prompt(rawObservation(view) ?? view.observation, {
      criterion: context.criterion,
      case: context.case,
    });
    const reply = await options.call(prompt);
    context.retain({ model: model.id, prompt, reply });
    const label = parse(reply, vocabulary);
    if (label === null || !vocabulary.includes(label)) throw new JudgeReplyError(id, reply, vocabulary);
    context.record({ kind: 'judge', target: ANY_TARGET, grade: 'judgment', detail: `${model.id} answered ${label}` });
    if (abstain.includes(label)) return { result: 'unknown', label, note: `${id} abstained: ${label}` };
    return {
      result: options.met.includes(label) ? 'met' : 'unmet',
      label,
      note: `${id} (${model.id}) answered ${label}`,
    };
  };
  const vocabularyLimit = `answers only in [${vocabulary.join(', ')}] (met: ${options.met.join(', ')}${abstain.length ? `; abstains: ${abstain.join(', ')}` : ''}); any other reply is an evaluator error`;
  const record: Evaluator = {
    schema: EVALUATOR_SCHEMA,
    id,
    kind: 'model-judge',
    revision: `${model.id}@${model.promptRevision}`,
    criteria,
    model: { id: model.id, family: model.family, promptRevision: model.promptRevision },
    independence: independenceOf(model, options.subjectFamily),
    calibration: null,
    limits: [vocabularyLimit, ...(options.limits ?? [])],
    adjudicator: false,
  };
  const judge: EvaluatorDefinition = { record, checks: Object.fromEntries(criteria.map((name) => [name, check])) };
  return options.calibration ? withCalibration(judge, options.calibration) : judge;
}

// ── human labels ────────────────────────────────────────────────────────────

export interface HumanLabelsOptions {
  id: string;
  /** Change it whenever the labels change. */
  revision: string;
  /** Who gave the labels (a person, a team, a labelling round). */
  labeller: string;
  criteria: readonly string[];
  /** Attempt key → criterion → `met` / `unmet`, or a label of a multi-class criterion. */
  labels: ReadonlyMap<string, Readonly<Record<string, string>>>;
  /** The key of an attempt (default `arm#attempt`, e.g. `case#3`). */
  key?: (context: { case: Case; arm: string; attempt: number }) => string;
  calibration?: { file: string; calibration: Calibration; floor?: CalibrationFloor };
  limits?: readonly string[];
  /** These labels settle disagreement among the other evaluators (e.g. the adjudicated final label). */
  adjudicator?: boolean;
}

const checkHumanLabels = optionsChecker<HumanLabelsOptions>(
  'humanLabels',
  {
    id: nonEmpty,
    revision: nonEmpty,
    labeller: nonEmpty,
    criteria: texts,
    labels: having('a Map of attempt key → { criterion: label }', ['get']),
    key: optional(fn('a function ({ case, arm, attempt }) => attempt key')),
    calibration: calibrationOption,
    limits: optional(texts),
    adjudicator: optional(flag),
  },
  'id',
);

/** Labels people gave to retained attempts; an attempt without a label stays UNKNOWN. */
export function humanLabels(options: HumanLabelsOptions): EvaluatorDefinition {
  checkHumanLabels(options);
  const criteria = requireCriteria('humanLabels', options.id, options.criteria);
  const keyOf = options.key ?? ((c: { arm: string; attempt: number }) => `${c.arm}#${c.attempt}`);
  const check: CriterionCheck = (_view, context) => {
    const key = keyOf({ case: context.case, arm: context.arm, attempt: context.attempt });
    const label = options.labels.get(key)?.[context.criterion];
    if (label === undefined)
      return context.unknown(`${options.labeller} gave no label for ${context.criterion} on ${key}`);
    context.record({
      kind: 'judge',
      target: ANY_TARGET,
      grade: 'judgment',
      detail: `${options.labeller} labelled ${key} ${label}`,
    });
    const note = `${options.labeller} labelled ${label}`;
    if (label === 'met' || label === 'unmet') return { result: label, label: null, note };
    return label;
  };
  const record: Evaluator = {
    schema: EVALUATOR_SCHEMA,
    id: options.id,
    kind: 'human',
    revision: options.revision,
    criteria,
    model: null,
    independence: { independent: true, reason: `labelled by ${options.labeller}, apart from the subject` },
    calibration: null,
    limits: [...(options.limits ?? [])],
    adjudicator: options.adjudicator ?? false,
  };
  const evaluator: EvaluatorDefinition = { record, checks: Object.fromEntries(criteria.map((name) => [name, check])) };
  return options.calibration ? withCalibration(evaluator, options.calibration) : evaluator;
}
