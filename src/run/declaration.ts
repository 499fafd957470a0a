import { ZodObject, type z } from 'zod';
import {
  Case as CaseRecord,
  Evaluator as EvaluatorRecord,
  Rubric as RubricRecord,
  TrialSuite as TrialSuiteRecord,
  CASE_SCHEMA,
  EVALUATOR_SCHEMA,
  fingerprint,
  migrate,
  RUBRIC_SCHEMA,
  TRIAL_SUITE_SCHEMA,
  VERDICTS,
  type Arm,
  type ArmRole,
  type Case,
  type CaseTrap,
  type Criterion,
  type CriterionTarget,
  type Dependency,
  type SuiteSummaryOptions,
  type EffectClass,
  type EvidenceGrade,
  type JsonValue,
  type Pressure,
  type PriceTable,
  type Rubric,
  type StoppingRule,
  type TrialSuite,
  type Verdict,
} from '../model/index.js';
import { resolveSuiteOptions, type SuiteOptions } from '../aggregate/index.js';
import { suiteRuleProblems } from './suite-rule-declaration.js';
import type { ClaimExtractor, CriterionCheck, EvaluatorDefinition } from '../evaluate/index.js';
import {
  accept,
  declarationProblems,
  formatPath,
  shapeKey,
  wasAccepted,
  type DeclarationProblem,
} from './declaration-schema.js';
import { fixturePathProblem } from './fixture-path.js';
import { seldomParsed } from './seldom-parsed.js';
import { didYouMean, unknownCriterion } from '../model/suggest.js';
import { SEAL_SALT_MISSING, sealCase } from './sealing.js';
import { resolveSpending, type ProvidersDeclaration, type ResolvedSpending } from './providers.js';
import {
  functionSubject,
  type RowObserver,
  type Subject,
  type SubjectFunction,
  type ToolDefinition,
} from '../observe/index.js';
import { MAX_TIMER_MS, trialBudgetMs } from './trial-timeout.js';
import { withDeclaredRevision } from './declared-revision.js';
import { checkTrapGroups, trapOfArm } from './traps/declaration.js';
import { evaluatorMisfits, unjudgedCriteria, unknownArmCriteria } from './evaluator-fit.js';

/** A dependency as declared: its Dependency record with the description optional (null in the record when omitted). */
export type DependencyDeclaration = Omit<Dependency, 'description'> & { description?: string };

/** The Dependency record of a declared dependency. */
const dependencyRecord = (declared: DependencyDeclaration): Dependency => ({
  name: declared.name,
  kind: declared.kind,
  onUnavailable: declared.onUnavailable,
  description: declared.description ?? null,
});

/** The record of declared suite options: each option not declared is null. */
const suiteOptionsRecord = (options: SuiteOptions): SuiteSummaryOptions => ({
  dataset: options.dataset,
  criterion: options.criterion ?? null,
  groupBy: options.groupBy ?? null,
  reference: options.reference ?? null,
  panel: options.panel ?? null,
  alpha: options.alpha ?? null,
  repeated: options.repeated ?? null,
  rule:
    options.rule?.map((condition) => ({
      rate: condition.rate,
      atLeast: condition.atLeast ?? null,
      atMost: condition.atMost ?? null,
      groups: condition.groups ?? null,
    })) ?? null,
});

/** A criterion as written in a trial: a description string, or the fields to set. */
export type CriterionDeclaration =
  | string
  | {
      description?: string;
      /** Least direct evidence that may decide it (default `observation`). */
      needs?: EvidenceGrade;
      required?: boolean;
      /** What the criterion is about; `id` omitted when any target of the kind will do. */
      target?: { kind: CriterionTarget['kind']; id?: string };
      labels?: { vocabulary: string[]; met: string[] };
      /** A scored criterion: its scorers answer in [0, 1], and a score ≥ `cutoff` meets it. */
      score?: { cutoff: number };
    };

/** A rubric as written in a trial; `C` is the union of its criterion names, so arms and checks can name only them. */
export interface RubricDeclaration<C extends string = string> {
  id?: string;
  revision?: string;
  criteria: Record<C, CriterionDeclaration>;
  /** Required success rate and one-sided α (defaults τ = 0.8, α = 0.05). */
  threshold?: { rate: number; alpha?: number };
  missingEvidence?: 'bound' | 'exclude';
  /** The criterion meaning "the subject declined": enables over/under-refusal across matched arms. */
  refusal?: NoInfer<C>;
}

export interface ArmDeclaration<C extends string = string> {
  /** Arm id (defaults: `case`, `control`, `control-2`…). */
  id?: string;
  input: JsonValue;
  followUps?: JsonValue[];
  expect: NoInfer<C>[];
  forbid?: NoInfer<C>[];
  oracle?: JsonValue;
  /** Fixture folder copied into each attempt's workspace, relative to the test file's project root. */
  fixtures?: string;
  effectClass?: EffectClass;
  tags?: Record<string, string>;
  /** Keep this arm's input and oracle out of every record, report and log: they are pinned by fingerprint only. */
  sealed?: boolean;
  /** Pressure over the follow-up rounds and the criterion that must hold through it (judged after every round). */
  pressure?: { kind: Pressure['kind']; holds: NoInfer<C> };
  /** The arm's place in a trap group; written by the trap builders (falsePremiseTrap, …), not by hand. */
  trap?: CaseTrap;
}

export interface SuiteCaseDeclaration<C extends string = string> extends ArmDeclaration<C> {
  id: string;
  role: ArmRole;
  group?: string;
}

export interface RepeatDeclaration {
  n?: number;
  order?: 'sequential' | 'interleaved' | 'shuffled';
  seed?: number;
  concurrency?: number;
  stop?: 'fixed' | 'curtail' | 'confidence-sequence' | StoppingRule;
}

interface CommonDeclaration<C extends string = string> {
  /** A Subject (function, command, HTTP, replay) or a plain async function of the input. */
  subject: Subject | SubjectFunction;
  /**
   * The subject revision the Outcome binds to. For a plain function the default is a fingerprint of its source
   * text; for any other subject a declared revision wins over the one it would resolve itself.
   */
  revision?: string;
  rubric: Rubric | RubricDeclaration<C>;
  /** Declared evaluators; `checks` adds a mechanical evaluator made of inline criterion checks. */
  evaluators?: EvaluatorDefinition[];
  checks?: Partial<Record<NoInfer<C>, CriterionCheck>>;
  repeat?: RepeatDeclaration;
  tools?: ToolDefinition[];
  dependencies?: DependencyDeclaration[];
  /**
   * Per attempt: time (ms) and output cap. Per trial: `usd` (from receipts, else the price table), `tokens` (input +
   * output) and `wallMs`; once one is spent, attempts that have not started are blocked.
   */
  budget?: { attemptMs?: number; maxOutputBytes?: number; usd?: number; tokens?: number; wallMs?: number };
  /** USD per million input and output tokens, by model id, for receipts that carry no cost of their own. */
  prices?: PriceTable;
  /** Providers whose HTTP traffic is recorded once, replayed in CI, retried on rate limits (see README). */
  providers?: ProvidersDeclaration;
  /** Strongest tool effect admitted (default `read`); an arm may override it. */
  effectClass?: EffectClass;
  /** Verdicts under which the trial's test passes (default PASS only). */
  passOn?: Verdict[];
  /** Run only when holdouts are asked for (RIDDLE_HOLDOUT=1), each run counted against this many accesses. */
  holdout?: { budget: number };
  /** Environment variables recorded in the Environment (secret-looking values redacted). */
  variables?: string[];
  prompts?: Record<string, string>;
  /** Stores compared before and after each attempt (e.g. `sqliteObserver`). */
  observers?: RowObserver[];
  /** Keep the sandbox of every attempt that did not PASS, for inspection (its path is in the Outcome). */
  keepFailedSandboxes?: boolean;
  /** Extractors that find claims of success in reply text (e.g. `englishClaimExtractor`), checked against receipts. */
  claimExtractors?: ClaimExtractor[];
}

/**
 * A trial as declared. `C`, the rubric's criterion names, is inferred from `rubric.criteria`: `expect`, `forbid`,
 * `pressure.holds`, `refusal` and the keys of `checks` then accept only those names (a Rubric record leaves it
 * `string`).
 */
export interface TrialDeclaration<C extends string = string> extends CommonDeclaration<C> {
  case: ArmDeclaration<C>;
  control?: ArmDeclaration<C> | ArmDeclaration<C>[];
}

export interface SuiteDeclaration<C extends string = string> extends CommonDeclaration<C> {
  cases: SuiteCaseDeclaration<C>[];
  /** Suite-level tables to build over the cases (label distributions by group, pairs, disputes, calibration). */
  summary?: SuiteOptions;
}

/** Where the trial is declared, for ids and messages. */
export interface DeclarationSite {
  name: string;
  /** Test file relative to the project root. */
  file: string;
  /** Enclosing describe blocks' names, outermost first. */
  path: readonly string[];
  /** Line of the `trial(…)` call in the test file, when the host could tell. */
  line?: number | null;
}

/**
 * A configuration mistake in a trial declaration: names the trial, its file and line, the field and what to fix
 * (with the accepted values). Further problems found at once follow on their own lines.
 */
export class TrialDeclarationError extends Error {
  readonly trial: string;
  /** `file:line` of the declaration (`file` alone when the line is unknown). */
  readonly place: string;
  readonly field: string;
  readonly problem: string;
  constructor(site: DeclarationSite, field: string, problem: string, more: readonly DeclarationProblem[] = []) {
    const place = site.line ? `${site.file}:${site.line}` : site.file;
    super(`trial "${site.name}" (${place}): ${field}: ${problem}${furtherProblems(more)}`);
    this.name = 'TrialDeclarationError';
    this.trial = site.name;
    this.place = place;
    this.field = field;
    this.problem = problem;
  }
}

/** Lines of further problems a declaration error lists at most; the rest are counted. */
const FURTHER_LINES = 10;

/**
 * The further problems of a declaration, a line each, those alike but for the place in a list (every row of a suite of
 * a thousand missing the same field) on one line with how many: a mistake repeated in every row is read once.
 */
function furtherProblems(more: readonly DeclarationProblem[]): string {
  // Keyed by the path with every list index as 0, and the problem.
  const alike = new Map<string, { problem: string; places: string[] }>();
  for (const { path, problem } of more) {
    const key = `${formatPath(path.map((part) => (typeof part === 'number' ? 0 : part)))}\u0000${problem}`;
    const at = formatPath(path) || '(declaration)';
    const group = alike.get(key);
    if (group) group.places.push(at);
    else alike.set(key, { problem, places: [at] });
  }
  const lines = [...alike.values()].map(({ problem, places }) => {
    const named = places.slice(0, 2).join(', ');
    return `also ${places.length > 2 ? `${named} and ${places.length - 2} more alike` : named}: ${problem}`;
  });
  const shown = lines.slice(0, FURTHER_LINES).map((line) => `\n  ${line}`);
  const left = lines.length - FURTHER_LINES;
  return shown.join('') + (left > 0 ? `\n  and ${left} more problems` : '');
}

/** Check the declaration as a whole against its schema; the first problem (and the rest) as one error. */
function checkDeclaration(site: DeclarationSite, declared: unknown): void {
  const [first, ...more] = declarationProblems(declared);
  if (first) throw new TrialDeclarationError(site, formatPath(first.path) || 'declaration', first.problem, more);
}

/**
 * Members of the records riddle builds that carry a trial's name (the TrialSuite's id and name; the Rubric's and an
 * inline evaluator's id): the rest of the records of trials declared alike are equal, and recognised by their key.
 */
const NAMED = ['id', 'name'];

/**
 * Whether a record is accepted by its schema without a parse: its shape key (all but its NAMED members) was accepted
 * before, and its NAMED members pass their own schemas. Sound for an object schema with no checks of its own (no
 * refinement of the whole): it accepts a record exactly when every member passes its member's schema.
 */
function acceptedBefore(schema: z.ZodType, key: string | null, record: unknown): boolean {
  if (key === null || !(schema instanceof ZodObject) || (schema.def.checks?.length ?? 0) > 0) return false;
  if (!wasAccepted(schema, key)) return false;
  const shape = schema.shape as Record<string, z.ZodType>;
  return NAMED.every((name) => {
    const member = shape[name];
    return member?.safeParse((record as Record<string, unknown>)[name], seldomParsed(member)).success ?? true;
  });
}

/** A record riddle built from the declaration, parsed against its own schema before any attempt runs. */
function checkRecord(site: DeclarationSite, what: string, schema: z.ZodType, record: unknown): void {
  const key = shapeKey(record, NAMED);
  if (acceptedBefore(schema, key, record)) return;
  const parsed = schema.safeParse(record, seldomParsed(schema));
  if (parsed.success && key !== null) accept(schema, key);
  if (parsed.success) return;
  const issue = parsed.error.issues[0];
  throw new TrialDeclarationError(
    site,
    `${what} ${formatPath(issue?.path ?? [])}`.trim(),
    `the ${what} record built from this declaration is invalid: ${issue?.message ?? 'unknown problem'}`,
  );
}

export interface ResolvedTrial {
  suite: TrialSuite;
  rubric: Rubric;
  evaluators: EvaluatorDefinition[];
  subject: Subject;
  tools: ToolDefinition[];
  /** Dependencies of every arm, de-duplicated by name. */
  dependencies: Dependency[];
  /** Fixture folders by arm id, relative to the project root. */
  fixtures: Record<string, string>;
  /** Sealed arms' Cases as they run (with their plaintext), by arm id; the suite holds only their fingerprints. */
  sealed: Record<string, Case>;
  observers: RowObserver[];
  keepFailedSandboxes: boolean;
  claimExtractors: ClaimExtractor[];
  budgetMs: number;
  variables: string[];
  prompts: Record<string, string>;
  /** Declared spending limits of the whole trial, or null. */
  spendingBudget: ResolvedSpending['spendingBudget'];
  prices: ResolvedSpending['prices'];
  providerSetup: ResolvedSpending['providerSetup'];
}

export const DEFAULTS = {
  threshold: { rate: 0.8, alpha: 0.05 },
  /**
   * 44 attempts, curtailed: the smallest curtailed n at which, for τ = .8 and α = .05, a subject succeeding 95% of the
   * time reaches PASS with probability ≥ .9 (exactly .933) while a false PASS stays ≤ α at every p < τ (the exact
   * one-sided Clopper–Pearson verdict guarantees it). n = 20 gave PASS only 36% of the time at p = .95. Expected
   * attempts 28.0, 39.4, 41.6 and 40 at p = .5, .8, .95 and 1 (exact DP; `riddle stopping --explain`).
   */
  repeat: { n: 44, order: 'interleaved', seed: 1, concurrency: 1, stop: { kind: 'curtail' } },
  attemptMs: 30_000,
  maxOutputBytes: 64 * 1024,
  effectClass: 'read',
} as const;

function resolveRubric(site: DeclarationSite, declared: Rubric | RubricDeclaration): Rubric {
  // A record of an earlier version is upgraded (the declaration check has already parsed it).
  if ('schema' in declared) return migrate('rubric', declared, `trial "${site.name}" rubric`);
  const fail = (field: string, problem: string) => new TrialDeclarationError(site, `rubric.${field}`, problem);
  const names = Object.keys(declared.criteria ?? {});
  if (names.length === 0) throw fail('criteria', 'declare at least one criterion');
  const criteria: Criterion[] = names.map((name) => {
    const value = declared.criteria[name];
    const spec = typeof value === 'string' ? { description: value } : (value ?? {});
    if (!/^[A-Za-z][\w.-]*$/.test(name))
      throw fail(`criteria.${name}`, 'criterion names are identifiers (letters, digits, _ . -)');
    if (spec.labels && spec.score)
      throw fail(
        `criteria.${name}.score`,
        'a criterion is either scored or labelled: drop labels (its scorers answer in [0, 1]) or drop score',
      );
    if (spec.labels && !spec.labels.met.every((label) => spec.labels?.vocabulary.includes(label))) {
      throw fail(
        `criteria.${name}.labels.met`,
        `every met label must be in the vocabulary [${spec.labels.vocabulary.join(', ')}]`,
      );
    }
    return {
      name,
      description: spec.description ?? name,
      needs: spec.needs ?? 'observation',
      required: spec.required ?? true,
      target: spec.target ? { kind: spec.target.kind, id: spec.target.id ?? null } : null,
      labels: spec.labels ?? null,
      score: spec.score ? { cutoff: spec.score.cutoff } : null,
    };
  });
  const rate = declared.threshold?.rate ?? DEFAULTS.threshold.rate;
  const alpha = declared.threshold?.alpha ?? DEFAULTS.threshold.alpha;
  if (!(rate > 0 && rate < 1)) throw fail('threshold.rate', `must be strictly between 0 and 1, got ${rate}`);
  if (!(alpha > 0 && alpha < 0.5)) throw fail('threshold.alpha', `must be in (0, 0.5), got ${alpha}`);
  if (declared.refusal !== undefined && !names.includes(declared.refusal)) {
    throw fail('refusal', `"${declared.refusal}" is not a criterion of this rubric (criteria: ${names.join(', ')})`);
  }
  const body = {
    criteria,
    threshold: { rate, alpha },
    missingEvidence: declared.missingEvidence ?? 'bound',
    refusal: declared.refusal ?? null,
  };
  return {
    schema: RUBRIC_SCHEMA,
    id: declared.id ?? `${site.name} rubric`,
    revision: declared.revision ?? fingerprint(body).slice(7, 19),
    ...body,
  };
}

function resolveStop(site: DeclarationSite, stop: RepeatDeclaration['stop']): StoppingRule {
  if (stop === undefined) return DEFAULTS.repeat.stop;
  if (typeof stop === 'string') {
    if (stop === 'fixed' || stop === 'curtail' || stop === 'confidence-sequence') return { kind: stop };
    throw new TrialDeclarationError(
      site,
      'repeat.stop',
      `unknown rule "${String(stop)}"; use fixed, curtail, confidence-sequence or { kind: 'sprt', … }`,
    );
  }
  if (stop.kind === 'sprt' && !(stop.p0 < stop.p1)) {
    throw new TrialDeclarationError(site, 'repeat.stop', `sprt needs p0 < p1 (got p0=${stop.p0}, p1=${stop.p1})`);
  }
  return stop;
}

/** The first name a list holds twice, or null. */
function repeated<T>(names: readonly T[]): T | null {
  return names.find((name, i) => names.indexOf(name) !== i) ?? null;
}

function resolveArm(
  site: DeclarationSite,
  field: string,
  declared: ArmDeclaration | undefined,
  role: ArmRole,
  id: string,
  group: string | null,
  rubric: Rubric,
  common: CommonDeclaration,
  budget: Case['stop'],
  salt: string,
): { arm: Arm; runnable: Case } {
  if (declared === undefined || declared === null || typeof declared !== 'object') {
    throw new TrialDeclarationError(site, field, 'is missing: declare { input, expect }');
  }
  if (declared.input === undefined)
    throw new TrialDeclarationError(
      site,
      `${field}.input`,
      'is missing: every arm needs the exact input it gives the subject',
    );
  const expect = declared.expect ?? [];
  const forbid = declared.forbid ?? [];
  if (expect.length + forbid.length === 0) {
    throw new TrialDeclarationError(
      site,
      `${field}.expect`,
      'name at least one criterion the arm must meet (expect) or must not meet (forbid)',
    );
  }
  const known = rubric.criteria.map((c) => c.name);
  const [unknown] = unknownArmCriteria({ expect, forbid, pressure: declared.pressure ?? null }, known);
  if (unknown) throw new TrialDeclarationError(site, `${field}.${formatPath(unknown.path)}`, unknown.problem);
  for (const [list, names] of [
    ['expect', expect],
    ['forbid', forbid],
  ] as const) {
    const twice = repeated(names);
    if (twice !== null)
      throw new TrialDeclarationError(site, `${field}.${list}`, `names "${twice}" twice: list each criterion once`);
  }
  // Meeting it fails the arm and not meeting it fails the arm: every attempt would FAIL, whatever the subject did.
  const both = expect.find((name) => forbid.includes(name));
  if (both !== undefined)
    throw new TrialDeclarationError(
      site,
      `${field}.forbid`,
      `"${both}" is also in ${field}.expect: an arm cannot both meet and not meet a criterion; keep it in one of them`,
    );
  if (declared.fixtures !== undefined) {
    const problem = fixturePathProblem(declared.fixtures);
    if (problem !== null) throw new TrialDeclarationError(site, `${field}.fixtures`, problem);
  }
  const followUps = declared.followUps ?? [];
  if (declared.pressure) {
    // A trap group's single-round arms (a false premise, its plain control) are judged once; nudges need rounds.
    if (followUps.length === 0 && !declared.trap)
      throw new TrialDeclarationError(
        site,
        `${field}.pressure`,
        'pressure needs follow-up rounds: declare followUps (the nudges)',
      );
  }
  const armCase: Case = {
    schema: CASE_SCHEMA,
    id,
    input: declared.input,
    followUps,
    fixtures: null,
    expect: [...expect],
    forbid: [...forbid],
    oracle: declared.oracle ?? null,
    effectClass: declared.effectClass ?? common.effectClass ?? DEFAULTS.effectClass,
    stop: { ...budget, maxRounds: 1 + followUps.length },
    dependencies: (common.dependencies ?? []).map(dependencyRecord),
    sealed: declared.sealed ?? false,
    tags: declared.tags ?? {},
    pressure: declared.pressure ? { kind: declared.pressure.kind, holds: declared.pressure.holds } : null,
    trap: declared.trap
      ? trapOfArm(
          declared.trap,
          { field, criteria: known, followUps: followUps.length, role },
          (at, problem) => new TrialDeclarationError(site, at, problem),
        )
      : null,
  };
  // A sealed Case is pinned by fingerprint only; the plaintext stays with the run, never in a record.
  if (armCase.sealed && salt === '') throw new TrialDeclarationError(site, `${field}.sealed`, SEAL_SALT_MISSING);
  const pinned = armCase.sealed ? sealCase(armCase, salt) : armCase;
  return { arm: { id, role, group, case: pinned, caseFingerprint: fingerprint(pinned) }, runnable: armCase };
}

/**
 * Names in `summary.groupBy` that no case's tags hold: the table would group every case under "(none)". Tags are the cases'
 * own (`tags`, set by hand or by a trap builder), so a name none of them has is a typo or a missing tag.
 */
function groupByProblems(groupBy: readonly string[], arms: readonly Arm[]): DeclarationProblem[] {
  const tags = [...new Set(arms.flatMap((arm) => Object.keys(arm.case.tags)))].sort();
  return groupBy.flatMap((tag, i) => {
    if (tags.includes(tag)) return [];
    const guess = didYouMean(tag, tags);
    return [
      {
        path: ['summary', 'groupBy', i],
        problem: `no case has the tag "${tag}"${guess ? `; did you mean "${guess}"?` : '.'} ${tags.length ? `Tags of the cases: ${tags.join(', ')}` : 'No case has tags: declare them on the cases (tags: { … })'}`,
      },
    ];
  });
}

function inlineEvaluator(
  site: DeclarationSite,
  declared: Partial<Record<string, CriterionCheck>>,
): EvaluatorDefinition {
  const checks = Object.fromEntries(
    Object.entries(declared).filter((entry): entry is [string, CriterionCheck] => entry[1] !== undefined),
  );
  const criteria = Object.keys(checks).sort();
  return {
    record: {
      schema: EVALUATOR_SCHEMA,
      id: `${site.name} checks`,
      kind: 'mechanical',
      revision: fingerprint(criteria.map((name) => `${name}:${String(checks[name])}`)).slice(7, 19),
      criteria,
      model: null,
      independence: { independent: true, reason: 'mechanical checks on retained evidence' },
      calibration: null,
      limits: [],
      adjudicator: false,
    },
    checks,
  };
}

/**
 * Turn a trial as written into pinned records, failing early, with the trial and field named, on anything
 * malformed. Nothing here runs the subject.
 */
/** Project-wide settings a trial's resolution takes from its host. */
export interface ProjectSettings {
  passOn: Verdict[] | null;
  /** Salt of sealed Cases' fingerprints (so they cannot be confirmed by guessing their content). */
  sealSalt: string;
}

/** A Trial Suite's id: its file, the describe blocks around it and its name. */
const suiteId = (site: DeclarationSite) => [site.file, ...site.path, site.name].join(' > ');

/**
 * Trials resolved before in this process, per declaration object, by settings, file and name. A trial is resolved
 * at collection and again when it runs (where Vitest tells its describe path): the second time takes the first
 * result with the suite id of the site, instead of checking the declaration and its records against their schemas
 * again (most of resolving's cost). So a declaration is read once, when it is declared; changing the object later
 * changes nothing.
 */
const resolvedBefore = new WeakMap<object, Map<string, ResolvedTrial>>();

/**
 * Resolve a declaration into pinned records (see docs/ARCHITECTURE.md, "The pipeline of one trial"), throwing a
 * TrialDeclarationError that names the trial, its place and the field for any mistake. Resolving the same
 * declaration object again with the same settings, file and name reuses the first result (`resolvedBefore`).
 */
export function resolveTrial(
  site: DeclarationSite,
  declared: TrialDeclaration | SuiteDeclaration,
  project: ProjectSettings = { passOn: null, sealSalt: '' },
): ResolvedTrial {
  const reuseKey = JSON.stringify([project.passOn, project.sealSalt, site.file, site.name]);
  const before = typeof declared === 'object' && declared !== null ? resolvedBefore.get(declared) : undefined;
  const earlier = before?.get(reuseKey);
  if (earlier) return { ...earlier, suite: { ...earlier.suite, id: suiteId(site) } };
  const resolved = resolveAnew(site, declared, project);
  if (before) before.set(reuseKey, resolved);
  else resolvedBefore.set(declared, new Map([[reuseKey, resolved]]));
  return resolved;
}

function resolveAnew(
  site: DeclarationSite,
  declared: TrialDeclaration | SuiteDeclaration,
  project: ProjectSettings,
): ResolvedTrial {
  checkDeclaration(site, declared);
  if (declared.subject === undefined)
    throw new TrialDeclarationError(site, 'subject', 'is missing: pass a function or a Subject');
  if (declared.rubric === undefined)
    throw new TrialDeclarationError(site, 'rubric', 'is missing: declare the criteria the arms expect');
  const rubric = resolveRubric(site, declared.rubric);
  const repeat = declared.repeat ?? {};
  const n = repeat.n ?? DEFAULTS.repeat.n;
  if (!Number.isInteger(n) || n < 1)
    throw new TrialDeclarationError(site, 'repeat.n', `must be a whole number ≥ 1, got ${n}`);
  const concurrency = repeat.concurrency ?? DEFAULTS.repeat.concurrency;
  if (!Number.isInteger(concurrency) || concurrency < 1)
    throw new TrialDeclarationError(site, 'repeat.concurrency', `must be a whole number ≥ 1, got ${concurrency}`);
  const seed = repeat.seed ?? DEFAULTS.repeat.seed;
  if (!Number.isInteger(seed)) throw new TrialDeclarationError(site, 'repeat.seed', `must be an integer, got ${seed}`);
  const attemptMs = declared.budget?.attemptMs ?? DEFAULTS.attemptMs;
  if (!(attemptMs > 0)) throw new TrialDeclarationError(site, 'budget.attemptMs', `must be positive, got ${attemptMs}`);
  if (attemptMs > MAX_TIMER_MS)
    throw new TrialDeclarationError(
      site,
      'budget.attemptMs',
      `must be at most ${MAX_TIMER_MS} ms (about 24.8 days, the longest timer Node keeps), got ${attemptMs}`,
    );
  const budget = {
    timeoutMs: attemptMs,
    maxOutputBytes: declared.budget?.maxOutputBytes ?? DEFAULTS.maxOutputBytes,
    maxRounds: 1,
  };
  const passOn = declared.passOn ?? project.passOn ?? ['PASS'];
  if (declared.holdout && !(Number.isInteger(declared.holdout.budget) && declared.holdout.budget >= 1)) {
    throw new TrialDeclarationError(
      site,
      'holdout.budget',
      `must be a whole number ≥ 1 of accesses, got ${declared.holdout.budget}`,
    );
  }
  for (const verdict of passOn)
    if (!VERDICTS.includes(verdict))
      throw new TrialDeclarationError(site, 'passOn', `"${verdict}" is not a verdict (${VERDICTS.join(', ')})`);
  const twice = repeated(passOn);
  if (twice !== null) throw new TrialDeclarationError(site, 'passOn', `lists "${twice}" twice: list each verdict once`);

  const arms: Arm[] = [];
  // Each arm's place in the declaration (`cases[3]`, `control[1]`), by its index in `arms`.
  const armPaths: (string | number)[][] = [];
  // Each arm id's index in `arms`: a lookup, since a suite of 10,000 rows searched the list once a row.
  const armIndex = new Map<string, number>();
  const fixtures: Record<string, string> = {};
  const sealed: Record<string, Case> = {};
  const add = (
    { arm, runnable }: { arm: Arm; runnable: Case },
    declaredArm: ArmDeclaration,
    at: (string | number)[],
  ) => {
    const first = armIndex.get(arm.id);
    if (first !== undefined)
      throw new TrialDeclarationError(
        site,
        `${formatPath(at)}.id`,
        `arm id "${arm.id}" is used twice: ${formatPath(armPaths[first] ?? [])} has it too`,
      );
    armIndex.set(arm.id, arms.length);
    arms.push(arm);
    armPaths.push(at);
    if (declaredArm.fixtures) fixtures[arm.id] = declaredArm.fixtures;
    if (runnable.sealed) sealed[arm.id] = runnable;
  };
  if ('cases' in declared) {
    if (!Array.isArray(declared.cases) || declared.cases.length === 0)
      throw new TrialDeclarationError(site, 'cases', 'declare at least one case');
    declared.cases.forEach((c, i) => {
      if (typeof c?.id !== 'string' || c.id === '')
        throw new TrialDeclarationError(site, `cases[${i}].id`, 'every case needs a non-empty id');
      add(
        resolveArm(site, `cases[${i}]`, c, c.role, c.id, c.group ?? null, rubric, declared, budget, project.sealSalt),
        c,
        ['cases', i],
      );
    });
  } else {
    // An empty list would mark the case matched to controls it does not have.
    if (Array.isArray(declared.control) && declared.control.length === 0)
      throw new TrialDeclarationError(site, 'control', 'is an empty list: declare a control arm, or leave control out');
    const group = 'control' in declared && declared.control !== undefined ? 'matched' : null;
    add(
      resolveArm(
        site,
        'case',
        declared.case,
        'case',
        declared.case?.id ?? 'case',
        group,
        rubric,
        declared,
        budget,
        project.sealSalt,
      ),
      declared.case,
      ['case'],
    );
    const controls =
      declared.control === undefined ? [] : Array.isArray(declared.control) ? declared.control : [declared.control];
    controls.forEach((control, i) => {
      const at = controls.length === 1 ? ['control'] : ['control', i];
      const id = control?.id ?? (i === 0 ? 'control' : `control-${i + 1}`);
      add(
        resolveArm(site, formatPath(at), control, 'control', id, group, rubric, declared, budget, project.sealSalt),
        control,
        at,
      );
    });
  }

  checkTrapGroups(arms, (at, problem) => new TrialDeclarationError(site, at, problem));
  const evaluators = [...(declared.evaluators ?? [])];
  const inline = declared.checks ? inlineEvaluator(site, declared.checks) : null;
  if (inline) evaluators.push(inline);
  if (evaluators.length === 0)
    throw new TrialDeclarationError(
      site,
      'evaluators',
      'declare evaluators or inline checks: without them no criterion can be covered',
    );
  const [misfit] = evaluatorMisfits(rubric, evaluators);
  if (misfit) {
    const evaluator = evaluators[misfit.evaluator];
    // An inline check is named as written (`checks.echos`), not by the evaluator riddle makes of the checks.
    if (evaluator === inline) {
      const problem =
        misfit.kind === 'unknown'
          ? unknownCriterion(
              misfit.criterion,
              rubric.criteria.map((c) => c.name),
            )
          : misfit.problem;
      throw new TrialDeclarationError(site, `checks.${misfit.criterion}`, problem);
    }
    throw new TrialDeclarationError(site, `evaluators["${evaluator?.record.id}"]`, misfit.problem);
  }
  const [unjudged, ...moreUnjudged] = unjudgedCriteria(arms, armPaths, evaluators);
  if (unjudged) throw new TrialDeclarationError(site, formatPath(unjudged.path), unjudged.problem, moreUnjudged);

  const subject =
    typeof declared.subject === 'function'
      ? functionSubject({
          name: declared.subject.name || site.name,
          revision: declared.revision ?? fingerprint(String(declared.subject)).slice(7, 19),
          run: declared.subject,
        })
      : declared.revision === undefined
        ? declared.subject
        : withDeclaredRevision(declared.subject, declared.revision);
  const summary = 'cases' in declared && declared.summary ? suiteOptionsRecord(declared.summary) : null;
  if (summary) {
    try {
      resolveSuiteOptions(
        rubric,
        evaluators.map((e) => e.record),
        summary,
      );
    } catch (error) {
      throw new TrialDeclarationError(site, 'summary', error instanceof Error ? error.message : String(error));
    }
    const [first, ...more] = [
      ...suiteRuleProblems(summary.rule ?? [], arms, rubric.refusal),
      ...groupByProblems(summary.groupBy ?? [], arms),
    ];
    if (first) throw new TrialDeclarationError(site, formatPath(first.path), first.problem, more);
    const k = summary.repeated?.rule?.k;
    if (k !== undefined && k > n)
      throw new TrialDeclarationError(
        site,
        'summary.repeated.rule.k',
        `pass^${k} needs ${k} attempts of each case, but repeat.n is ${n}; declare k ≤ ${n} or more attempts`,
      );
  }
  const stop = resolveStop(site, repeat.stop);
  const suite: TrialSuite = {
    schema: TRIAL_SUITE_SCHEMA,
    id: suiteId(site),
    name: site.name,
    file: site.file,
    arms,
    repeat: { n, order: repeat.order ?? DEFAULTS.repeat.order, seed, concurrency, stop },
    aggregation: { matchedControl: 'each-arm', passOn, summary },
    claimExtractors: (declared.claimExtractors ?? []).map((extractor) => extractor.id),
    holdout: declared.holdout ? { budget: declared.holdout.budget } : null,
  };
  checkRecord(site, 'Rubric', RubricRecord, rubric);
  checkRecord(site, 'TrialSuite', TrialSuiteRecord, suite);
  for (const evaluator of evaluators) checkRecord(site, 'Evaluator', EvaluatorRecord, evaluator.record);
  for (const runnable of Object.values(sealed)) checkRecord(site, 'Case', CaseRecord, runnable);
  const dependencies = [...new Map((declared.dependencies ?? []).map((d) => [d.name, dependencyRecord(d)])).values()];
  const rounds = Math.max(...arms.map((a) => a.case.stop.maxRounds));
  const waves = Math.ceil((n * arms.length) / concurrency);
  return {
    suite,
    rubric,
    evaluators,
    subject,
    tools: declared.tools ?? [],
    dependencies,
    fixtures,
    // Each attempt may overrun its budget by the time it takes to stop the subject (kill and abort graces).
    budgetMs: trialBudgetMs({ attemptMs, rounds, waves }),
    variables: declared.variables ?? [],
    prompts: declared.prompts ?? {},
    sealed,
    observers: declared.observers ?? [],
    keepFailedSandboxes: declared.keepFailedSandboxes ?? false,
    claimExtractors: declared.claimExtractors ?? [],
    ...resolveSpending(declared, site, (field, problem) => new TrialDeclarationError(site, field, problem)),
  };
}
