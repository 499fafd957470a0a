import { EVALUATOR_SCHEMA, type Calibration, type Evaluator } from '../model/index.js';
import { flag, fn, nonEmpty, optional, optionsChecker, text } from '../model/options-check.js';
import { withCalibration, type CalibrationFloor } from './calibration.js';
import type { CheckContext, EvaluatorDefinition } from './evaluator.js';
import { ANY_TARGET, type ObservationView } from './evidence.js';
import {
  calibrationOption,
  independenceOf,
  judgeModelOption,
  subjectFamilyOption,
  texts,
  type JudgeModel,
} from './judges.js';
import { replyText } from './reply.js';
import { scorer, type ScoreResult } from './scores.js';

/**
 * What an `autoevals` scorer answers (its `Score`). riddle does not import autoevals: any function of this shape is
 * accepted, so the package stays the user's choice and version.
 */
export interface AutoevalsScore {
  name: string;
  /** In [0, 1]; null when the scorer declines to score (nothing to compare). */
  score: number | null;
  metadata?: Record<string, unknown>;
  /** Deprecated in autoevals, still set by some scorers on failure. */
  error?: unknown;
}

/**
 * An autoevals scorer: `Levenshtein`, `ExactMatch`, `NumericDiff`, `Factuality`, `ClosedQA`, an LLM classifier… Its
 * arguments are typed by each scorer (`args: never` accepts them all); `args` below supplies them.
 */
export type AutoevalsScorerFunction = ((args: never) => AutoevalsScore | Promise<AutoevalsScore>) & {
  readonly name: string;
};

type CallableScorer = (args: Record<string, unknown>) => AutoevalsScore | Promise<AutoevalsScore>;

/** autoevals scorers that run no model: pure functions of their arguments, whose findings are text evidence. */
const DETERMINISTIC = new Set([
  'Levenshtein',
  'LevenshteinScorer',
  'ExactMatch',
  'NumericDiff',
  'JSONDiff',
  'ValidJSON',
]);

/** autoevals scorers that call a model (a chat model, an embedding model, a moderation endpoint): model judges. */
const MODEL_BASED = new Set([
  'Battle',
  'ClosedQA',
  'Humor',
  'Factuality',
  'Possible',
  'Security',
  'Sql',
  'Summary',
  'Translation',
  'Moderation',
  'EmbeddingSimilarity',
  'AnswerCorrectness',
  'AnswerRelevancy',
  'AnswerSimilarity',
  'ContextEntityRecall',
  'ContextPrecision',
  'ContextRecall',
  'ContextRelevancy',
  'Faithfulness',
]);

export interface AutoevalsScorerOptions {
  /** The autoevals scorer (its `name` tells riddle whether it calls a model). */
  scorer: AutoevalsScorerFunction;
  /** The scored criteria it scores (each declares `score: { cutoff }` in the Rubric). */
  criteria: readonly string[];
  /** Evaluator id (default `autoevals <scorer name>`). */
  id?: string;
  /** Change it whenever the scorer or its arguments change, e.g. `autoevals@0.3.0`. */
  revision: string;
  /**
   * The scorer's arguments for one criterion of one attempt, from the retained Observation. Default: `output` the
   * last reply's text, `expected` the Case's oracle, `input` the Case's input. A model-based scorer's `client`, `model`
   * and the like go here too. What the function reads through the view sets the finding's grade.
   */
  args?: (observation: ObservationView, context: CheckContext) => Record<string, unknown> & { output: unknown };
  /**
   * For a model-based scorer: the model it calls and the revision of its prompt. It is then a model judge: untrusted
   * (it cannot decide a criterion) until calibrated against labelled controls with `riddle calibrate`.
   */
  model?: JudgeModel;
  /** The subject's model family, to decide a model-based scorer's independence (as for `modelJudge`). */
  subjectFamily?: string | null;
  calibration?: { file: string; calibration: Calibration; floor?: CalibrationFloor };
  /** For a scorer autoevals does not ship (or one riddle does not know): declare that it calls no model. */
  deterministic?: boolean;
  limits?: readonly string[];
}

const checkOptions = optionsChecker<AutoevalsScorerOptions>(
  'autoevalsScorer',
  {
    scorer: fn('an autoevals scorer function (Levenshtein, Factuality…)'),
    criteria: texts,
    id: optional(nonEmpty),
    // An empty revision is left to the factory's own message, which says what to declare.
    revision: text,
    args: optional(fn("a function (observation, context) => the scorer's arguments { output, … }")),
    model: optional(judgeModelOption),
    subjectFamily: subjectFamilyOption,
    calibration: calibrationOption,
    deterministic: optional(flag),
    limits: optional(texts),
  },
  'id',
);

function fail(id: string, problem: string): never {
  throw new TypeError(`autoevalsScorer("${id}"): ${problem}`);
}

/** The arguments as retained on a judge's finding: JSON values only (a `client` or other object is named, not kept). */
function retainedArgs(args: Record<string, unknown>): string {
  const kept: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(args)) {
    if (typeof value === 'function') continue;
    if (typeof value === 'object' && value !== null && Object.getPrototypeOf(value) !== Object.prototype) {
      if (!Array.isArray(value)) {
        kept[key] = `[${value.constructor?.name ?? 'object'}]`;
        continue;
      }
    }
    kept[key] = value;
  }
  return JSON.stringify(kept, null, 2) ?? '{}';
}

const excerpt = (text: string) => (text.length > 300 ? `${text.slice(0, 300)}…` : text);

/**
 * An autoevals scorer as a riddle evaluator of the grade it deserves. A deterministic scorer (Levenshtein,
 * ExactMatch, NumericDiff, JSONDiff, ValidJSON, or one declared `deterministic`) is a mechanical evaluator: trusted,
 * and its findings take the grade of what its arguments read (the reply's text by default). A model-based scorer
 * (Factuality, ClosedQA, LLM classifiers, embeddings…) needs `model`: it is a model judge whose findings are
 * judgment-grade and untrusted until calibrated, like any other judge. Its score meets a criterion at the
 * Rubric's cutoff; a null score leaves the criterion UNKNOWN; a thrown error or a score outside [0, 1] is an
 * evaluator error.
 */
export function autoevalsScorer(options: AutoevalsScorerOptions): EvaluatorDefinition {
  checkOptions(options);
  const { scorer: score, model } = options;
  const name = score.name || 'scorer';
  const id = options.id ?? `autoevals ${name}`;
  if (typeof options.revision !== 'string' || options.revision === '')
    fail(id, 'declare a revision (e.g. the autoevals version): change it whenever the scorer changes');
  const criteria = [...new Set(options.criteria)].sort();
  if (criteria.length === 0) fail(id, 'declare at least one scored criterion');
  if (criteria.length !== options.criteria.length) fail(id, 'a criterion is listed twice');
  if (model && (DETERMINISTIC.has(name) || options.deterministic))
    fail(id, `${name} calls no model: drop model (it is a deterministic, text-grade scorer)`);
  if (!model) {
    if (MODEL_BASED.has(name))
      fail(
        id,
        `${name} calls a model: declare model { id, family, promptRevision } (it is then a model judge, untrusted until calibrated)`,
      );
    if (!DETERMINISTIC.has(name) && options.deterministic !== true)
      fail(
        id,
        `riddle cannot tell whether ${name} calls a model: declare model { id, family, promptRevision } for a model-based scorer, or deterministic: true`,
      );
  }
  const argsOf =
    options.args ??
    ((view: ObservationView, context: CheckContext) => ({
      output: replyText(view.reply),
      expected: context.case.oracle ?? undefined,
      input: context.case.input,
    }));

  const check = scorer(async (view, context): Promise<ScoreResult> => {
    const args = argsOf(view, context);
    const answer = await (score as unknown as CallableScorer)(args);
    if (model) {
      context.retain({ model: model.id, prompt: retainedArgs(args), reply: JSON.stringify(answer ?? null) });
      context.record({
        kind: 'judge',
        target: ANY_TARGET,
        grade: 'judgment',
        detail: `${model.id} (${name}) scored ${String(answer?.score)}`,
      });
    }
    if (typeof answer !== 'object' || answer === null) {
      throw new Error(`${name} answered ${JSON.stringify(answer) ?? String(answer)}, not an autoevals Score`);
    }
    if (answer.error !== undefined && answer.error !== null)
      throw new Error(`${name} failed: ${answer.error instanceof Error ? answer.error.message : String(answer.error)}`);
    if (answer.score === null) return context.unknown(`${name} gave no score (null: nothing to score)`);
    const rationale = answer.metadata?.rationale;
    const note = typeof rationale === 'string' ? `${name}: ${excerpt(rationale)}` : name;
    return { score: answer.score, note };
  });

  const limits = [
    `${name} answers a score in [0, 1]; the Rubric's cutoff decides met; a null score leaves the criterion UNKNOWN`,
    ...(options.limits ?? []),
  ];
  const record: Evaluator = model
    ? {
        schema: EVALUATOR_SCHEMA,
        id,
        kind: 'model-judge',
        revision: `${options.revision}:${model.id}@${model.promptRevision}`,
        criteria,
        model: { id: model.id, family: model.family, promptRevision: model.promptRevision },
        independence: independenceOf(model, options.subjectFamily),
        calibration: null,
        limits,
        adjudicator: false,
      }
    : {
        schema: EVALUATOR_SCHEMA,
        id,
        kind: 'mechanical',
        revision: options.revision,
        criteria,
        model: null,
        independence: { independent: true, reason: `${name} is a deterministic function of the retained evidence` },
        calibration: null,
        limits,
        adjudicator: false,
      };
  const evaluator: EvaluatorDefinition = {
    record,
    checks: Object.fromEntries(criteria.map((criterion) => [criterion, check])),
  };
  return options.calibration ? withCalibration(evaluator, options.calibration) : evaluator;
}
