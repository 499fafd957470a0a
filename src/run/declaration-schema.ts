import { z } from 'zod';
import {
  ArmRole,
  CaseTrap,
  Dependency,
  EffectClass,
  Evaluator,
  EvidenceGrade,
  CriterionTarget,
  Pressure,
  RepetitionPolicy,
  migrate,
  Rubric,
  RUBRIC_SCHEMA,
  SuiteRuleRate,
  SuiteSummaryOptions,
  VERDICTS,
} from '../model/index.js';
import { seldomParsed } from './seldom-parsed.js';
import { describeValue, didYouMean } from '../model/suggest.js';

/**
 * The whole `trial()` / `trial.suite()` declaration as a strict schema, checked before anything else happens: an
 * unknown option is an error with a did-you-mean (a misspelt `repet` is never silently ignored), enumerations and
 * ranges are checked, and a value of the wrong type is named as it was given ("expected a number, got the string
 * '20'"). This only validates; `resolveTrial` then builds the records from the declaration as written, and checks
 * what needs the records (criterion names against the Rubric, evaluators against the criteria).
 *
 * A new declaration option is added here as well as to the TypeScript interface in declaration.ts; a type test
 * (test/unit/run/declaration-types.test.ts) fails when the two disagree.
 */

/** One problem with a declaration: where (a field path) and what is wrong. */
export interface DeclarationProblem {
  path: readonly PropertyKey[];
  problem: string;
}

/** The fields of zod's issues this module reads. */
interface Issue {
  code: string;
  path: readonly PropertyKey[];
  message: string;
  input?: unknown;
  expected?: string;
  values?: readonly unknown[];
  keys?: readonly string[];
  errors?: readonly (readonly Issue[])[];
  minimum?: number | bigint;
  maximum?: number | bigint;
  inclusive?: boolean;
  origin?: string;
}

const TYPE_NAMES: Record<string, string> = {
  number: 'a number',
  int: 'a whole number',
  string: 'a string',
  boolean: 'true or false',
  object: 'an object',
  array: 'an array',
  function: 'a function',
  record: 'an object',
};

const list = (values: readonly unknown[]) => values.map((v) => (typeof v === 'string' ? v : String(v))).join(', ');

/** The problem an issue describes, in words that say what to fix, and the path it is about. */
export function renderIssue(issue: Issue): DeclarationProblem {
  const got = `got ${describeValue(issue.input)}`;
  switch (issue.code) {
    case 'custom':
      return { path: issue.path, problem: issue.message };
    case 'unrecognized_keys': {
      // The message was written by `strict` below, which knows the accepted keys.
      const keys = issue.keys ?? [];
      return { path: keys.length === 1 ? [...issue.path, keys[0] ?? ''] : issue.path, problem: issue.message };
    }
    case 'invalid_type': {
      if (issue.message.startsWith('must')) return { path: issue.path, problem: `${issue.message}, ${got}` };
      const expected = TYPE_NAMES[issue.expected ?? ''] ?? issue.expected ?? 'another value';
      if (issue.input === undefined) return { path: issue.path, problem: `is missing: expected ${expected}` };
      // NaN and ±Infinity are numbers to JavaScript: "expected a number, got Infinity" read as a contradiction.
      const nonFinite = typeof issue.input === 'number' && issue.expected === 'number';
      return { path: issue.path, problem: `expected ${nonFinite ? 'a finite number' : expected}, ${got}` };
    }
    case 'invalid_value': {
      const values = issue.values ?? [];
      const guess =
        typeof issue.input === 'string'
          ? didYouMean(
              issue.input,
              values.filter((v): v is string => typeof v === 'string'),
            )
          : null;
      const hint = guess ? `; did you mean '${guess}'?` : '.';
      if (issue.input === undefined) return { path: issue.path, problem: `is missing: one of ${list(values)}` };
      return { path: issue.path, problem: `${got}${hint} Accepted: ${list(values)}` };
    }
    case 'too_small':
    case 'too_big': {
      if (issue.message.startsWith('must')) return { path: issue.path, problem: `${issue.message}, ${got}` };
      const bound = issue.code === 'too_small' ? issue.minimum : issue.maximum;
      const side = issue.code === 'too_small' ? (issue.inclusive ? '≥' : '>') : issue.inclusive ? '≤' : '<';
      if (issue.origin === 'array')
        return {
          path: issue.path,
          problem: `needs ${issue.code === 'too_small' ? 'at least' : 'at most'} ${bound} item(s)`,
        };
      if (issue.origin === 'string') return { path: issue.path, problem: `must not be empty` };
      return { path: issue.path, problem: `must be ${side} ${bound}, ${got}` };
    }
    case 'invalid_union': {
      // The branch that got furthest: skip those that failed on the value's type at their root.
      const branches = (issue.errors ?? []).filter(
        (errors) => !errors.every((e) => e.code === 'invalid_type' && e.path.length === 0),
      );
      const best = [...branches].sort((a, b) => a.length - b.length)[0];
      if (best?.[0]) {
        const inner = renderIssue(best[0]);
        return { path: [...issue.path, ...inner.path], problem: inner.problem };
      }
      const expected = (issue.errors ?? [])
        .flatMap((errors) => errors.map((e) => TYPE_NAMES[e.expected ?? ''] ?? e.expected ?? ''))
        .filter(Boolean);
      return { path: issue.path, problem: `expected ${[...new Set(expected)].join(' or ')}, ${got}` };
    }
    default:
      return { path: issue.path, problem: issue.message };
  }
}

/** A field path as written in the declaration: `cases[2].expect`, `rubric.criteria.answers.needs`. */
export function formatPath(path: readonly PropertyKey[]): string {
  return path
    .map((part, i) => (typeof part === 'number' ? `[${part}]` : i === 0 ? String(part) : `.${String(part)}`))
    .join('');
}

/** An object that accepts only the given keys; an unknown key is named with the nearest accepted one. */
function strict<Shape extends z.ZodRawShape>(shape: Shape) {
  const accepted = Object.keys(shape);
  return z.strictObject(shape, {
    error: (issue) => {
      if (issue.code !== 'unrecognized_keys') return undefined;
      const described = issue.keys.map((key) => {
        const guess = didYouMean(key, accepted);
        return `"${key}"${guess ? ` (did you mean "${guess}"?)` : ''}`;
      });
      if (issue.keys.length === 1) {
        const guess = didYouMean(issue.keys[0] ?? '', accepted);
        return `is not an option${guess ? `; did you mean "${guess}"?` : '.'} Accepted: ${accepted.join(', ')}`;
      }
      return `unknown options ${described.join(', ')}. Accepted: ${accepted.join(', ')}`;
    },
  });
}

/**
 * A field whose schema depends on the value given (a Rubric record or a rubric declaration; a rule name or a rule
 * object): `pick` returns the schema to check it against, or null when the value is of no accepted kind.
 */
function choose(expected: string, pick: (value: unknown) => z.ZodType | null) {
  return z.unknown().superRefine((value, ctx) => {
    const schema = pick(value);
    if (schema === null) {
      const problem =
        value === undefined ? `is missing: expected ${expected}` : `expected ${expected}, got ${describeValue(value)}`;
      ctx.addIssue({ code: 'custom', message: problem, input: value });
      return;
    }
    const result = schema.safeParse(value, { reportInput: true, ...seldomParsed(schema) });
    if (result.success) return;
    for (const issue of typosFirst(result.error.issues as Issue[])) {
      const { path, problem } = renderIssue(issue as Issue);
      ctx.addIssue({
        code: 'custom',
        message: problem,
        path: path.map((p) => (typeof p === 'symbol' ? String(p) : p)),
      });
    }
  });
}

/** Unknown keys first: a misspelt option also leaves the option it meant missing, and the typo is the cause. */
const typosFirst = (issues: readonly Issue[]) =>
  [...issues].sort((a, b) => Number(b.code === 'unrecognized_keys') - Number(a.code === 'unrecognized_keys'));

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** A value given by code (a function, a Subject, an observer…): checked for the members riddle calls. */
const having = (what: string, members: readonly string[]) =>
  z.custom<unknown>((value) => isObject(value) && members.every((m) => typeof value[m] === 'function'), {
    error: (issue) => `expected ${what}, got ${describeValue(issue.input)}`,
  });

const fn = (what: string) =>
  z.custom<unknown>((value) => typeof value === 'function', {
    error: (issue) => `expected ${what}, got ${describeValue(issue.input)}`,
  });

const wholeAtLeast = (min: number) =>
  z
    .number()
    .int({ error: `must be a whole number ≥ ${min}` })
    .min(min, { error: `must be a whole number ≥ ${min}` });

const criterionNames = z.array(z.string());

/** A value JSON cannot hold, as a user would recognise it: "undefined", "NaN", "the bigint 10n", "a Date". */
function describeNonJson(value: unknown): string {
  if (typeof value === 'bigint') return `the bigint ${value}n`;
  if (typeof value === 'symbol') return 'a symbol';
  if (typeof value === 'number' || value === undefined) return String(value);
  if (typeof value === 'object' && value !== null) return `a ${value.constructor?.name || 'object of a class'}`;
  return describeValue(value);
}

/**
 * The first place in `value` that is not JSON (as the Case record's JsonValue takes it and `fingerprint` writes it),
 * its path from the value and what it is; null when all of it is JSON. A value holding itself is named where it
 * first recurs.
 */
function nonJson(value: unknown, ancestors: unknown[] = []): { path: (string | number)[]; got: string } | null {
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return null;
  if (typeof value === 'number') return Number.isFinite(value) ? null : { path: [], got: String(value) };
  if (typeof value !== 'object') return { path: [], got: describeNonJson(value) };
  if (ancestors.includes(value)) return { path: [], got: 'a value that contains itself' };
  const prototype = Object.getPrototypeOf(value);
  const isArray = Array.isArray(value);
  if (isArray ? prototype !== Array.prototype : prototype !== Object.prototype && prototype !== null)
    return { path: [], got: describeNonJson(value) };
  const within = [...ancestors, value];
  // Every index of an array, so a hole is named (it would be written as null, or dropped by the record's schema).
  const keys: (string | number)[] = isArray ? Array.from({ length: value.length }, (_, i) => i) : Object.keys(value);
  for (const key of keys) {
    const found = nonJson((value as Record<string | number, unknown>)[key], within);
    if (found) return { path: [key, ...found.path], got: found.got };
  }
  return null;
}

/**
 * A value the subject is given or judged against (an input, a follow-up, an oracle): JSON only, since the Case record
 * holds it and its fingerprint pins it. A non-JSON part is named by its path, before anything fingerprints it.
 */
const JsonField = z.unknown().superRefine((value, ctx) => {
  const found = nonJson(value);
  if (found)
    ctx.addIssue({
      code: 'custom',
      message: `expected a JSON value (string, finite number, boolean, null, array or plain object), got ${found.got}`,
      path: found.path,
    });
});

/*
 * Each schema a `choose` picks is built once, here, not per value: building a zod object schema and compiling its
 * parser on first use cost most of a declaration's check when every declaration built its own.
 */
const CriterionString = z.string();
const AnyValue = z.unknown();
const SubjectObject = having('a Subject', ['identify', 'respond']);

const CriterionObjectSchema = strict({
  description: z.string().optional(),
  needs: EvidenceGrade.optional(),
  required: z.boolean().optional(),
  target: strict({ kind: CriterionTarget.shape.kind, id: z.string().optional() }).optional(),
  labels: strict({ vocabulary: z.array(z.string()).min(2), met: z.array(z.string()).min(1) }).optional(),
  score: strict({
    cutoff: z
      .number()
      .min(0, { error: 'must be in [0, 1] (a score at or above it meets the criterion)' })
      .max(1, { error: 'must be in [0, 1] (a score at or above it meets the criterion)' }),
  }).optional(),
});

const CriterionDeclarationSchema = choose(
  'a description string or { description, needs, required, score, … }',
  (value) => (typeof value === 'string' ? CriterionString : isObject(value) ? CriterionObjectSchema : null),
);

const RubricDeclarationSchema = strict({
  id: z.string().min(1).optional(),
  revision: z.string().min(1).optional(),
  criteria: z.record(z.string(), CriterionDeclarationSchema),
  threshold: strict({
    rate: z.number().gt(0, { error: 'must be strictly between 0 and 1' }).lt(1, {
      error: 'must be strictly between 0 and 1',
    }),
    alpha: z.number().gt(0, { error: 'must be in (0, 0.5)' }).lt(0.5, { error: 'must be in (0, 0.5)' }).optional(),
  }).optional(),
  missingEvidence: z.enum(['bound', 'exclude']).optional(),
  refusal: z.string().optional(),
});

/** A Rubric record of an earlier version (riddle.rubric/1) is upgraded first, as `riddle read` would. */
const RubricRecordSchema = z.preprocess((value) => {
  if (!isObject(value) || value.schema === RUBRIC_SCHEMA) return value;
  try {
    return migrate('rubric', value, 'rubric');
  } catch {
    return value;
  }
}, Rubric);

const RubricField = choose('a rubric { criteria, threshold, … } or a Rubric record', (value) =>
  isObject(value) ? ('schema' in value ? RubricRecordSchema : RubricDeclarationSchema) : null,
);

const STOP_NAMES = ['fixed', 'curtail', 'confidence-sequence'] as const;

const StopName = z.enum(STOP_NAMES);
const SprtStop = strict({
  kind: z.literal('sprt'),
  p0: z.number().gt(0).lt(1),
  p1: z.number().gt(0).lt(1),
  alpha: z.number().gt(0).lt(0.5),
  beta: z.number().gt(0).lt(0.5),
});
const OtherStop = strict({ kind: z.enum([...STOP_NAMES, 'sprt']) });

const StopField = choose(`one of ${STOP_NAMES.join(', ')}, or { kind: 'sprt', p0, p1, alpha, beta }`, (value) => {
  if (typeof value === 'string') return StopName;
  if (!isObject(value)) return null;
  return value.kind === 'sprt' ? SprtStop : OtherStop;
});

const RepeatSchema = strict({
  n: wholeAtLeast(1).optional(),
  order: RepetitionPolicy.shape.order.optional(),
  seed: z.number().int({ error: 'must be an integer' }).optional(),
  concurrency: wholeAtLeast(1).optional(),
  stop: StopField.optional(),
});

const ArmShape = {
  id: z.string().min(1).optional(),
  input: choose('the exact input (any JSON value)', (value) => (value === undefined ? null : JsonField)),
  followUps: z.array(JsonField).optional(),
  expect: criterionNames.optional(),
  forbid: criterionNames.optional(),
  oracle: JsonField.optional(),
  fixtures: z.string().optional(),
  effectClass: EffectClass.optional(),
  tags: z.record(z.string(), z.string()).optional(),
  sealed: z.boolean().optional(),
  pressure: strict({ kind: Pressure.shape.kind, holds: z.string() }).optional(),
  /** Built by a trap builder (run/traps): the arm's place in its trap group. */
  trap: CaseTrap.optional(),
};

const ArmObject = strict(ArmShape);
const ArmSchema = choose('an arm { input, expect, … }', (value) => (isObject(value) ? ArmObject : null));

const SuiteCaseObject = strict({ ...ArmShape, id: z.string().min(1), role: ArmRole, group: z.string().optional() });
const SuiteCaseSchema = choose('a case { id, role, input, expect, … }', (value) =>
  isObject(value) ? SuiteCaseObject : null,
);

const ArmList = z.array(ArmSchema);

const EvaluatorObject = z.object({ record: Evaluator, checks: z.record(z.string(), fn('a check function')) });
const EvaluatorField = choose('an evaluator (mechanicalEvaluator, modelJudge, humanLabels…)', (value) =>
  isObject(value) && 'record' in value ? EvaluatorObject : null,
);

/** Options every declaration takes, trial or suite. */
export const CommonDeclarationShape = {
  subject: choose('a function of the input, or a Subject (functionSubject, commandSubject, httpSubject…)', (value) =>
    typeof value === 'function' ? AnyValue : isObject(value) ? SubjectObject : null,
  ),
  revision: z.string().min(1).optional(),
  rubric: RubricField,
  evaluators: z.array(EvaluatorField).optional(),
  checks: z.record(z.string(), fn('a check function (observation, context) => …')).optional(),
  repeat: RepeatSchema.optional(),
  tools: z.array(having('a tool { name, description, effect, inputSchema, run }', ['run'])).optional(),
  dependencies: z
    .array(
      strict({
        name: z.string().min(1),
        kind: Dependency.shape.kind,
        onUnavailable: Dependency.shape.onUnavailable,
        description: z.string().optional(),
      }),
    )
    .optional(),
  budget: strict({
    attemptMs: z.number().gt(0, { error: 'must be positive' }).optional(),
    maxOutputBytes: wholeAtLeast(1).optional(),
    usd: z.number().gt(0, { error: 'must be positive' }).optional(),
    tokens: wholeAtLeast(1).optional(),
    wallMs: z.number().gt(0, { error: 'must be positive' }).optional(),
  }).optional(),
  prices: z
    .record(z.string(), strict({ inputPerMillionUsd: z.number().min(0), outputPerMillionUsd: z.number().min(0) }))
    .optional(),
  providers: strict({
    hosts: z
      .array(
        z.union([
          z.string().min(1),
          strict({
            baseUrl: z.string().min(1),
            concurrency: wholeAtLeast(1).optional(),
            variable: z.string().optional(),
          }),
        ]),
      )
      .min(1),
    mode: z.enum(['live', 'record', 'replay']).optional(),
    recordings: z.string().min(1).optional(),
    volatile: z.array(z.string().min(1)).optional(),
    retry: strict({
      maxRetries: z.number().int().min(0).optional(),
      baseDelayMs: z.number().min(0).optional(),
      maxDelayMs: z.number().min(0).optional(),
      statuses: z.array(z.number().int()).optional(),
      onExhausted: z.enum(['harness_error', 'blocked']).optional(),
    }).optional(),
    receipts: z.boolean().optional(),
  }).optional(),
  effectClass: EffectClass.optional(),
  passOn: z.array(z.enum(VERDICTS)).min(1).optional(),
  holdout: strict({ budget: wholeAtLeast(1) }).optional(),
  variables: z.array(z.string()).optional(),
  prompts: z.record(z.string(), z.string()).optional(),
  observers: z.array(having('a row observer (sqliteObserver…)', ['start'])).optional(),
  keepFailedSandboxes: z.boolean().optional(),
  claimExtractors: z.array(having('a claim extractor (englishClaimExtractor…)', ['extract'])).optional(),
};

export const TrialDeclarationSchema = strict({
  ...CommonDeclarationShape,
  case: ArmSchema,
  control: choose('an arm { input, expect, … } or a list of them', (value) =>
    Array.isArray(value) ? ArmList : isObject(value) ? ArmSchema : null,
  ).optional(),
});

/** A suite rule's condition: a declared rate, exactly one bound in the rate's range, and optional groups. */
const SuiteRuleConditionSchema = strict({
  rate: SuiteRuleRate,
  atLeast: z.number().optional(),
  atMost: z.number().optional(),
  groups: z.union([z.literal('each'), z.array(z.string().min(1)).min(1)]).optional(),
}).superRefine((condition, ctx) => {
  const bounds = (['atLeast', 'atMost'] as const).filter((b) => condition[b] !== undefined);
  if (bounds.length !== 1) {
    ctx.addIssue({
      code: 'custom',
      message: `declare exactly one of atLeast, atMost${bounds.length ? ' (both given)' : ''}`,
      path: [],
    });
    return;
  }
  const bound = bounds[0] ?? 'atLeast';
  const value = condition[bound] ?? 0;
  const [low, high] = condition.rate === 'discrimination' ? [-1, 1] : [0, 1];
  if (!(value > low && value < high))
    ctx.addIssue({
      code: 'custom',
      message: `must be strictly between ${low} and 1 for ${condition.rate}, got the number ${value}`,
      path: [bound],
    });
});

export const SuiteDeclarationSchema = strict({
  ...CommonDeclarationShape,
  cases: z.array(SuiteCaseSchema).min(1),
  // A declaration may omit every option but the dataset (the TrialSuite record stores null for it).
  summary: strict({
    ...SuiteSummaryOptions.partial().shape,
    dataset: SuiteSummaryOptions.shape.dataset,
    rule: z.array(SuiteRuleConditionSchema).min(1).optional(),
  }).optional(),
});

/**
 * Every problem of a declaration, in the order found; empty when it is well formed. A declaration with `cases`
 * is a suite; any other is a single trial.
 */
export function declarationProblems(declared: unknown): DeclarationProblem[] {
  if (!isObject(declared))
    return [{ path: [], problem: `expected an object { subject, rubric, case, … }, got ${describeValue(declared)}` }];
  const schema = 'cases' in declared ? SuiteDeclarationSchema : TrialDeclarationSchema;
  // Declarations written in a loop differ only by their functions (each its own closure): the first is parsed, the
  // rest are recognised by their key.
  const key = shapeKey(declared);
  if (key !== null && wasAccepted(schema, key)) return [];
  const result = schema.safeParse(declared, { reportInput: true, ...seldomParsed(schema) });
  if (result.success && key !== null) accept(schema, key);
  return result.success ? [] : typosFirst(result.error.issues as Issue[]).map(renderIssue);
}

/** Characters and levels at most in a shape key: a larger value (a long input text) is parsed every time. */
const KEY_CHARS = 1 << 16;
const KEY_DEPTH = 64;

/**
 * A text naming a value as the declaration and record schemas can tell values apart, so two values of one key are
 * accepted or refused alike: plain objects (their members in order) and arrays, strings, numbers (−0, NaN and the
 * infinities each apart), booleans, null and undefined, and any function as one token (these schemas look at a
 * function's type alone). Null for anything else, which is then parsed every time: an instance of a class, a symbol, a
 * bigint, a member named by a symbol or not enumerable, a hole or an extra member in an array, a value deeper than
 * KEY_DEPTH or a key longer than KEY_CHARS. The top-level members named in `apart` are written as one token whatever
 * they hold: their caller checks them itself.
 */
export function shapeKey(value: unknown, apart: readonly string[] = []): string | null {
  const writing = { text: '', apart };
  return writeKey(value, 0, writing) && writing.text.length <= KEY_CHARS ? writing.text : null;
}

/** A text with nothing JSON escapes: written between quotes as it is. */
const PLAIN_TEXT = /^[^"\\\u0000-\u001f]*$/;

/** `value`'s part of a shape key, appended to `writing.text`; false when it has none (see shapeKey). */
function writeKey(value: unknown, depth: number, writing: { text: string; apart: readonly string[] }): boolean {
  switch (typeof value) {
    case 'string':
      writing.text += PLAIN_TEXT.test(value) ? `"${value}"` : JSON.stringify(value);
      return true;
    case 'number':
      writing.text += Object.is(value, -0) ? '#-0' : `#${value}`;
      return true;
    case 'boolean':
      writing.text += value ? 'T' : 'F';
      return true;
    case 'undefined':
      writing.text += 'U';
      return true;
    case 'function':
      writing.text += 'λ';
      return true;
    case 'object':
      break;
    default:
      return false;
  }
  if (value === null) {
    writing.text += 'N';
    return true;
  }
  if (depth >= KEY_DEPTH || writing.text.length > KEY_CHARS) return false;
  const prototype = Object.getPrototypeOf(value);
  const names = Reflect.ownKeys(value);
  if (Array.isArray(value)) {
    // Its own names are its indexes and `length`: no hole, no other member.
    if (prototype !== Array.prototype || names.length !== value.length + 1) return false;
    writing.text += '[';
    for (let i = 0; i < value.length; i += 1) {
      // A long array of short values stops at the bound rather than being written whole.
      if (writing.text.length > KEY_CHARS || !writeKey(value[i], depth + 1, writing)) return false;
      writing.text += ',';
    }
    writing.text += ']';
    return true;
  }
  if ((prototype !== Object.prototype && prototype !== null) || Object.keys(value).length !== names.length)
    return false;
  writing.text += prototype === null ? '{0' : '{';
  for (let i = 0; i < names.length; i += 1) {
    const name = names[i];
    if (typeof name !== 'string') return false;
    writing.text += PLAIN_TEXT.test(name) ? `"${name}":` : `${JSON.stringify(name)}:`;
    if (depth === 0 && writing.apart.includes(name)) writing.text += '?';
    else if (!writeKey((value as Record<string, unknown>)[name], depth + 1, writing)) return false;
    writing.text += ',';
  }
  writing.text += '}';
  return true;
}

/** Keys of values each schema accepted in this process (a bounded number per schema). */
const ACCEPTED = new Map<z.ZodType, Set<string>>();
const ACCEPTED_PER_SCHEMA = 1024;

/** Whether `schema` accepted a value of this shape key before. */
export function wasAccepted(schema: z.ZodType, key: string): boolean {
  return ACCEPTED.get(schema)?.has(key) ?? false;
}

/** Note that `schema` accepted a value of this shape key. */
export function accept(schema: z.ZodType, key: string): void {
  let keys = ACCEPTED.get(schema);
  if (keys === undefined) ACCEPTED.set(schema, (keys = new Set()));
  if (keys.size >= ACCEPTED_PER_SCHEMA) keys.clear();
  keys.add(key);
}
