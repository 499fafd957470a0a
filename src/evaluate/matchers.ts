import {
  effectRank,
  type EffectClass,
  type EvidenceGrade,
  type EvidenceRef,
  type FileChange,
  type JsonValue,
  type Observation,
  type ToolRequest,
} from '../model/index.js';
import { checkClaims, type ClaimCheckOptions } from './claims.js';
import {
  ANY_TARGET,
  describeToolRequest,
  rawObservation,
  recorderOf,
  samePath,
  unwatched,
  watchedGrade,
  type EvidenceRecorder,
  type ObservationView,
} from './evidence.js';
import { keywordRefusalClassifier, replyText, type ReplyClass, type ReplyClassifier } from './reply.js';

/**
 * What a riddle matcher found: whether it passed, the evidence it rests on (already recorded into the view's
 * recorder when it received a view) and the grade that evidence gives. `missing` is set when the Observation holds
 * no evidence either way (the criterion must stay UNKNOWN, whatever `pass` says).
 */
export interface MatcherOutcome {
  pass: boolean;
  /** What was expected, to follow "expected … " (or "expected … not …"). */
  expectation: string;
  /** What the evidence shows. */
  actual: string;
  evidence: EvidenceRef[];
  grade: EvidenceGrade;
  missing: string | null;
}

/** The failure message of a matcher outcome, for `expect(…)` and `expect(…).not`. */
export function matcherMessage(
  outcome: Pick<MatcherOutcome, 'expectation' | 'actual' | 'missing'>,
  negated: boolean,
): string {
  if (outcome.missing !== null) return `no evidence: ${outcome.missing}`;
  return `expected ${negated ? 'not ' : ''}${outcome.expectation}, but ${outcome.actual}`;
}

function isObservation(value: object): value is Observation {
  const v = value as Partial<Observation>;
  return Array.isArray(v.rounds) && Array.isArray(v.files) && Array.isArray(v.toolRequests) && Array.isArray(v.rows);
}

/** A check's view (read through its recorder, so resolving it records nothing), an Observation, or a record holding one. */
function holdsObservation(value: unknown): value is object {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  return recorderOf(value) !== undefined || isObservation(value) || 'observation' in value;
}

function resolve(
  received: unknown,
  matcher: string,
): { observation: Observation | null; recorder: EvidenceRecorder | undefined } {
  if (holdsObservation(received)) {
    const recorder = recorderOf(received);
    if (recorder)
      return { observation: rawObservation(received) ?? (received as ObservationView).observation, recorder };
    if (isObservation(received)) return { observation: received, recorder };
    const inner = (received as { observation: unknown }).observation;
    if (inner === null) return { observation: null, recorder };
    if (typeof inner === 'object' && isObservation(inner)) return { observation: inner, recorder };
  }
  throw new TypeError(
    `${matcher}: expected the observation view a check receives (or an Observation, or an attempt record); got ${received === null ? 'null' : typeof received}`,
  );
}

type Missing = { missing: string; expectation: string; grade: EvidenceGrade; evidence: EvidenceRef[] };
type Judge = (observation: Observation) => Omit<MatcherOutcome, 'missing'> | Missing;

const complete = (judged: ReturnType<Judge>): MatcherOutcome =>
  'missing' in judged ? { ...judged, pass: false, actual: '' } : { ...judged, missing: null };

/** Run a matcher body on what was received, record its evidence, and fill in `missing`. */
function observe(received: unknown, matcher: string, judge: Judge): MatcherOutcome {
  const { observation, recorder } = resolve(received, matcher);
  const outcome = complete(
    observation === null
      ? { missing: 'the attempt has no Observation', expectation: matcher, grade: 'receipt', evidence: [] }
      : judge(observation),
  );
  for (const ref of outcome.evidence) recorder?.record(ref);
  return outcome;
}

const toolRef =
  (grade: EvidenceGrade) =>
  (r: ToolRequest): EvidenceRef => ({ kind: 'tool', target: r.tool, grade, detail: describeToolRequest(r) });

/** Deep partial match: every member of `expected` appears, equal, in `actual`; arrays match element by element. */
function matchesPartially(actual: JsonValue, expected: JsonValue): boolean {
  if (Array.isArray(expected)) {
    return (
      Array.isArray(actual) &&
      actual.length === expected.length &&
      expected.every((e, i) => matchesPartially(actual[i] ?? null, e))
    );
  }
  if (expected !== null && typeof expected === 'object') {
    if (actual === null || typeof actual !== 'object' || Array.isArray(actual)) return false;
    return Object.entries(expected).every(([key, e]) => key in actual && matchesPartially(actual[key] ?? null, e));
  }
  return actual === expected;
}

// ── effects ─────────────────────────────────────────────────────────────────

/**
 * An admitted tool request with an effect of this class or stronger (none < read < write < external <
 * irreversible). Admitted requests count even when the tool then failed: it may have acted before failing.
 */
export function hasEffect(received: unknown, effect: EffectClass, options: { tool?: string } = {}): MatcherOutcome {
  return observe(received, 'toHaveEffect', (o) => {
    const through = options.tool === undefined ? '' : ` through ${options.tool}`;
    const expectation = `an admitted ${effect} (or stronger) effect${through}`;
    const grade = watchedGrade(o, 'toolRequests');
    if (grade === null) return { missing: unwatched('toolRequests'), expectation, grade: 'receipt', evidence: [] };
    const matching = o.toolRequests.filter(
      (r) =>
        r.admitted &&
        effectRank(r.effect) >= effectRank(effect) &&
        (options.tool === undefined || r.tool === options.tool),
    );
    const denied = o.toolRequests.filter((r) => !r.admitted && effectRank(r.effect) >= effectRank(effect));
    return {
      pass: matching.length > 0,
      expectation,
      actual: matching.length
        ? `admitted: ${matching.map(describeToolRequest).join('; ')}`
        : `none among ${o.toolRequests.length} tool request(s)${denied.length ? ` (denied: ${denied.map(describeToolRequest).join('; ')})` : ''}`,
      evidence: matching.length
        ? matching.map(toolRef(grade))
        : [
            {
              kind: 'tool',
              target: options.tool ?? ANY_TARGET,
              grade,
              detail: `no admitted ${effect}+ effect among ${o.toolRequests.length} request(s)`,
            },
          ],
      grade,
    };
  });
}

export interface ToolRequestFilter {
  /** Only admitted (true) or only denied (false) requests; any when absent. */
  admitted?: boolean;
  /** Arguments the request must include (a deep partial match). */
  arguments?: { [key: string]: JsonValue };
}

/** A request for this tool (admitted or denied, or either), with the given arguments if any. */
export function requestedTool(received: unknown, tool: string, filter: ToolRequestFilter = {}): MatcherOutcome {
  const matcher =
    filter.admitted === undefined ? 'toHaveRequestedTool' : filter.admitted ? 'toHaveAdmittedTool' : 'toHaveDeniedTool';
  return observe(received, matcher, (o) => {
    const how =
      filter.admitted === undefined ? 'a request' : filter.admitted ? 'an admitted request' : 'a denied request';
    const args = filter.arguments === undefined ? '' : ` with arguments ${JSON.stringify(filter.arguments)}`;
    const expectation = `${how} for tool ${tool}${args}`;
    const grade = watchedGrade(o, 'toolRequests');
    if (grade === null) return { missing: unwatched('toolRequests'), expectation, grade: 'receipt', evidence: [] };
    const ofTool = o.toolRequests.filter((r) => r.tool === tool);
    const matching = ofTool.filter(
      (r) =>
        (filter.admitted === undefined || r.admitted === filter.admitted) &&
        (filter.arguments === undefined || matchesPartially(r.arguments, filter.arguments)),
    );
    return {
      pass: matching.length > 0,
      expectation,
      actual: ofTool.length
        ? `found ${ofTool.map(describeToolRequest).join('; ')}`
        : `there was no request for ${tool} among ${o.toolRequests.length} request(s)`,
      evidence: ofTool.length
        ? ofTool.map(toolRef(grade))
        : [{ kind: 'tool', target: tool, grade, detail: `no request among ${o.toolRequests.length}` }],
      grade,
    };
  });
}

// ── files ───────────────────────────────────────────────────────────────────

export type FileExpectation = 'created' | 'modified' | 'deleted' | 'unchanged';

export interface FileContentOptions {
  /** The retained content must equal this string or match this pattern (created or modified files). */
  content?: string | RegExp;
}

/**
 * How one file ended up, from the workspace observer's record: in an observed workspace a file without a recorded
 * change is unchanged; where no workspace was observed there is no evidence either way.
 */
export function fileChanged(
  received: unknown,
  path: string,
  expected: FileExpectation,
  options: FileContentOptions = {},
): MatcherOutcome {
  const name = {
    created: 'toHaveCreated',
    modified: 'toHaveModified',
    deleted: 'toHaveDeleted',
    unchanged: 'toHaveUnchanged',
  }[expected];
  return observe(received, name, (o) => {
    const expectation = expected === 'unchanged' ? `${path} to be unchanged` : `${path} to be ${expected}`;
    const grade = watchedGrade(o, 'files');
    if (grade === null) return { missing: unwatched('files'), expectation, grade: 'receipt', evidence: [] };
    const change: FileChange | undefined = o.files.find((f) => samePath(f.path, path));
    const state = change?.change ?? 'unchanged';
    const ref: EvidenceRef = {
      kind: 'file',
      target: path,
      grade,
      detail: change
        ? `${change.change} (sha256 ${change.sha256Before ?? '∅'} → ${change.sha256After ?? '∅'})`
        : 'no change observed',
    };
    const wanted = options.content;
    if (wanted !== undefined && state === expected && (expected === 'created' || expected === 'modified')) {
      if (change?.content === null || change?.content === undefined) {
        return {
          missing: `the content of ${path} was not retained (large or binary), so it cannot be compared`,
          expectation,
          grade,
          evidence: [ref],
        };
      }
      const ok = typeof wanted === 'string' ? change.content === wanted : wanted.test(change.content);
      return {
        pass: ok,
        expectation: `${expectation} with content ${typeof wanted === 'string' ? JSON.stringify(wanted) : String(wanted)}`,
        actual: `its content is ${JSON.stringify(change.content.length > 200 ? `${change.content.slice(0, 200)}…` : change.content)}`,
        evidence: [ref],
        grade,
      };
    }
    return { pass: state === expected, expectation, actual: `${path} was ${state}`, evidence: [ref], grade };
  });
}

// ── process ─────────────────────────────────────────────────────────────────

/** The subject's process exited with this code (not killed, not timed out). */
export function exitedWith(received: unknown, code: number): MatcherOutcome {
  return observe(received, 'toHaveExitedWith', (o) => {
    const expectation = `the process to exit with ${code}`;
    const grade = watchedGrade(o, 'exit');
    if (grade === null || o.exit === null)
      return { missing: unwatched('exit'), expectation, grade: 'observation', evidence: [] };
    const how = o.exit.timedOut
      ? 'timed out'
      : o.exit.signal !== null
        ? `was killed by ${o.exit.signal}`
        : `exited with ${o.exit.code}`;
    return {
      pass: !o.exit.timedOut && o.exit.signal === null && o.exit.code === code,
      expectation,
      actual: `it ${how}`,
      evidence: [{ kind: 'process', target: 'exit', grade, detail: how }],
      grade,
    };
  });
}

// ── rows ────────────────────────────────────────────────────────────────────

export interface RowFilter {
  /** Exactly this many inserted rows (matching `matching`, when given); at least one when absent. */
  count?: number;
  /** Columns the inserted rows must have (a deep partial match). */
  matching?: { [column: string]: JsonValue };
}

/** Rows inserted into an observed table. A table that was not observed is no evidence either way. */
export function insertedRows(received: unknown, table: string, filter: RowFilter = {}): MatcherOutcome {
  return observe(received, 'toHaveInsertedRows', (o) => {
    const expectation = `${filter.count === undefined ? 'rows' : `${filter.count} row(s)`} inserted into ${table}${filter.matching ? ` matching ${JSON.stringify(filter.matching)}` : ''}`;
    const grade = watchedGrade(o, 'rows');
    const changes = o.rows.filter((r) => r.table === table);
    if (grade === null) return { missing: unwatched('rows'), expectation, grade: 'receipt', evidence: [] };
    if (changes.length === 0) {
      return {
        missing: `table ${table} was not observed (observed: ${o.rows.map((r) => r.table).join(', ') || 'none'})`,
        expectation,
        grade: 'receipt',
        evidence: [],
      };
    }
    const inserted = changes.flatMap((c) => c.inserted);
    const matching =
      filter.matching === undefined ? inserted : inserted.filter((row) => matchesPartially(row, filter.matching ?? {}));
    return {
      pass: filter.count === undefined ? matching.length > 0 : matching.length === filter.count,
      expectation,
      actual: `${inserted.length} row(s) were inserted${filter.matching ? `, ${matching.length} matching` : ''}`,
      evidence: [
        {
          kind: 'row',
          target: table,
          grade,
          detail: `${inserted.length} inserted${filter.matching ? `, ${matching.length} matching` : ''}`,
        },
      ],
      grade,
    };
  });
}

// ── replies ─────────────────────────────────────────────────────────────────

/**
 * The reply, labelled by a declared classifier (default: `keywordRefusalClassifier`). Accepts the reply itself (a
 * string or JSON value) or anything holding an Observation (its last round's reply).
 */
export function replyClassifiedAs(
  received: unknown,
  expected: ReplyClass,
  classifier: ReplyClassifier = keywordRefusalClassifier,
): MatcherOutcome {
  const matcher = { refusal: 'toBeRefusal', compliance: 'toBeCompliance', 'partial-refusal': 'toBePartialRefusal' }[
    expected
  ];
  const judge = (text: string, target: string): Omit<MatcherOutcome, 'missing'> => {
    const label = classifier.classify(text);
    const excerpt = text.length > 120 ? `${text.slice(0, 120)}…` : text;
    return {
      pass: label === expected,
      expectation: `a ${expected} (by ${classifier.id})`,
      actual: `${classifier.id} labels it ${label}: ${JSON.stringify(excerpt)}`,
      evidence: [{ kind: 'reply', target, grade: classifier.grade, detail: `${classifier.id}: ${label}` }],
      grade: classifier.grade,
    };
  };
  if (!holdsObservation(received))
    return { ...judge(replyText((received ?? null) as JsonValue), ANY_TARGET), missing: null };
  return observe(received, matcher, (o) => {
    const last = o.rounds.at(-1);
    if (!last)
      return {
        missing: 'the subject gave no reply',
        expectation: `a ${expected}`,
        grade: classifier.grade,
        evidence: [],
      };
    return judge(replyText(last.reply), `round:${last.index}`);
  });
}

// ── claims ──────────────────────────────────────────────────────────────────

export interface SupportedClaimsOptions extends ClaimCheckOptions {
  /** Accept claims no receipt can check (default false: every claim must be supported). */
  allowUnverifiable?: boolean;
}

/** Every claim the subject made about its own work is borne out by receipts (none contradicted, none unverifiable). */
export function supportedClaims(received: unknown, options: SupportedClaimsOptions = {}): MatcherOutcome {
  return observe(received, 'toHaveSupportedClaims', (o) => {
    const checks = checkClaims(o, options);
    const bad = checks.filter(
      (c) => c.status === 'contradicted' || (c.status === 'unverifiable' && !options.allowUnverifiable),
    );
    const evidence: EvidenceRef[] = checks.flatMap((c) => [
      {
        kind: 'claim' as const,
        target: c.claim.target,
        grade: 'text' as const,
        detail: `${c.status}: ${c.claim.text}`,
      },
      ...(c.receipt ? [c.receipt] : []),
    ]);
    const describe = (c: (typeof checks)[number]) =>
      `"${c.claim.text}" ${c.status}${c.receipt ? ` by ${c.receipt.kind} ${c.receipt.target} (${c.receipt.detail})` : ''}: ${c.note}`;
    return {
      pass: bad.length === 0,
      expectation: `every claim supported by receipts${options.allowUnverifiable ? ' (or unverifiable)' : ''}`,
      actual: checks.length === 0 ? 'the subject made no claims' : (bad.length ? bad : checks).map(describe).join('; '),
      evidence: evidence.length
        ? evidence
        : [{ kind: 'claim', target: ANY_TARGET, grade: 'receipt', detail: 'no claims made' }],
      grade: checks.some((c) => c.receipt?.grade === 'receipt') || checks.length === 0 ? 'receipt' : 'text',
    };
  });
}
