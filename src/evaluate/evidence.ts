import {
  gradeRank,
  type CriterionTarget,
  type EvidenceGrade,
  type EvidenceRef,
  type FileChange,
  type JsonValue,
  type Observation,
  type RowChanges,
  type ToolRequest,
} from '../model/index.js';
import { NoEvidence } from './evaluator.js';

/** A model judge's exchange, kept whole on its finding. */
export interface JudgeExchange {
  model: string;
  prompt: string;
  reply: string;
}

/** Collects the evidence a criterion check looked at, so its finding can say what grade it rests on. */
export interface EvidenceRecorder {
  record(ref: EvidenceRef): void;
  readonly refs: readonly EvidenceRef[];
  /** Keep a judge's prompt and raw reply (the last one retained wins). */
  retain(exchange: JudgeExchange): void;
  readonly exchange: JudgeExchange | null;
}

/**
 * A class, not an object literal with a getter: V8 keeps every literal with an accessor in dictionary mode (its
 * properties in a table of its own), and an evidence recorder is made for every criterion of every attempt.
 */
class Recorder implements EvidenceRecorder {
  readonly refs: EvidenceRef[] = [];
  exchange: JudgeExchange | null = null;

  record(ref: EvidenceRef): void {
    const refs = this.refs;
    if (!refs.some((r) => r.kind === ref.kind && r.target === ref.target && r.detail === ref.detail)) refs.push(ref);
  }

  retain(next: JudgeExchange): void {
    this.exchange = next;
  }
}

export function createEvidenceRecorder(): EvidenceRecorder {
  return new Recorder();
}

/** Evidence about every target of its kind (a whole list read), as opposed to one file, tool or table. */
export const ANY_TARGET = '*';

/**
 * Paths compare without a leading `./`, with `/` separators, and a path matches one that ends with it at a folder
 * boundary (`/ws/notes/a.txt` and `a.txt` match `notes/a.txt`; `old/a.txt` does not): a subject naming a file
 * loosely is not thereby about another file.
 */
export function samePath(a: string, b: string): boolean {
  const norm = (p: string) => p.replaceAll('\\', '/').replace(/^\.\//, '');
  const [x, y] = [norm(a), norm(b)];
  return x === y || x.endsWith(`/${y}`) || y.endsWith(`/${x}`);
}

/**
 * Whether a piece of evidence is about a criterion's target. A whole-list read (`*`) is about every target of
 * its kind. Replies and judgments speak about whatever the criterion names (their grade limits what they can
 * decide); a claim is about the target it names. Otherwise the kinds must match and, when the criterion names one
 * target, the evidence must name the same one: a receipt about another file, tool or table does not cover it.
 */
export function refersTo(ref: EvidenceRef, target: CriterionTarget | null): boolean {
  if (target === null) return true;
  const named = (match: (a: string, b: string) => boolean) =>
    target.id === null || ref.target === ANY_TARGET || match(ref.target, target.id);
  const equal = (a: string, b: string) => a === b;
  if (ref.kind === 'reply' || ref.kind === 'judge') return target.kind !== 'reply' || named(equal);
  if (ref.kind === 'claim') return named(target.kind === 'file' ? samePath : equal);
  if (ref.kind !== target.kind) return false;
  return named(target.kind === 'file' ? samePath : equal);
}

/** One tool request in a line: id, tool, arguments, and whether it was admitted, failed or denied (and why). */
export function describeToolRequest(r: ToolRequest): string {
  const outcome = r.admitted ? (r.error === null ? 'admitted' : `admitted, failed: ${r.error}`) : `denied: ${r.reason}`;
  return `${r.id} ${r.tool}(${JSON.stringify(r.arguments)}) ${outcome}`;
}

/** The least direct grade among some, or null for none. */
export function weakestGrade(grades: readonly EvidenceGrade[]): EvidenceGrade | null {
  let worst: EvidenceGrade | null = null;
  for (const grade of grades) if (worst === null || gradeRank(grade) < gradeRank(worst)) worst = grade;
  return worst;
}

/** The most direct grade among some, or null for none. */
export function topGrade(grades: readonly EvidenceGrade[]): EvidenceGrade | null {
  let best: EvidenceGrade | null = null;
  for (const grade of grades) if (best === null || gradeRank(grade) > gradeRank(best)) best = grade;
  return best;
}

/** The recorder behind a view handed to a criterion check (for matchers that receive the view). */
export function recorderOf(view: object): EvidenceRecorder | undefined {
  return TrackedView.recorderOf(view);
}

type Reply = Observation['rounds'][number]['reply'];

/** A part of the Observation an observer may watch. */
export type ObservedPart = NonNullable<Observation['observers']>[number]['part'];

const DEFAULT_GRADE: Readonly<Record<ObservedPart, EvidenceGrade>> = {
  files: 'receipt',
  toolRequests: 'receipt',
  rows: 'receipt',
  exit: 'observation',
  resources: 'observation',
};

const PART_NAME: Readonly<Record<ObservedPart, string>> = {
  files: 'the workspace (files)',
  toolRequests: 'tool requests (no tool gateway: no tools were offered)',
  rows: 'database rows (no rows observer)',
  exit: 'a process exit (the subject is not a command)',
  resources: 'resource use',
};

/**
 * The grade of a part of the Observation as its observer declared it, or null when no observer watched it: a
 * part nobody watched is missing, not empty. Records written before observers were listed count every part as
 * watched, at its usual grade.
 */
export function watchedGrade(observation: Observation, part: ObservedPart): EvidenceGrade | null {
  if (observation.observers === null) return DEFAULT_GRADE[part];
  const watched = observation.observers.filter((o) => o.part === part).map((o) => o.grade);
  return topGrade(watched);
}

/** Why a part cannot be evidence, for `NoEvidence` and matcher messages. */
export function unwatched(part: ObservedPart): string {
  return `${PART_NAME[part]} was not observed in this attempt`;
}

/**
 * What a criterion check sees of an Observation. Reading a part records evidence of that part's grade: replies and
 * claims are text, exit status and resources are observations, files, tool requests, receipts and rows are receipts
 * (or whatever grade their observer declared). Reading a part no observer watched ends the check with `NoEvidence`:
 * an empty list there would mean "not looked at", not "nothing happened". The whole lists are evidence about every
 * target of their kind; `file`, `tool` and `table` read one target.
 */
export interface ObservationView {
  /** The last round's reply. */
  readonly reply: Reply;
  /** Every round's reply, in order. */
  readonly replies: readonly Reply[];
  readonly rounds: Observation['rounds'];
  readonly claims: Observation['rounds'][number]['claims'];
  readonly exit: Observation['exit'];
  readonly files: Observation['files'];
  readonly toolRequests: Observation['toolRequests'];
  readonly receipts: Observation['receipts'];
  readonly rows: Observation['rows'];
  readonly resources: Observation['resources'];
  /** The change to one file, or null when it did not change. */
  file(path: string): FileChange | null;
  /** Every request of one tool, admitted or denied. */
  tool(name: string): readonly ToolRequest[];
  /** Row changes of one observed table (a table nobody observed ends the check with `NoEvidence`). */
  table(name: string): RowChanges;
  /**
   * The last payload a Composition Suite handed from `producer` to `consumer` (null producer: the attempt's input;
   * null consumer: the reply), as retained; a subject that is no Composition Suite, a handoff that never happened or
   * a payload kept by fingerprint only ends the check with `NoEvidence`.
   */
  handoff(producer: string | null, consumer: string | null): JsonValue;
  /**
   * The Observation itself, behind a tracking proxy: reading a part through it records that part as the view's own
   * getters do, so a check cannot read the reply here and keep a receipt grade.
   */
  readonly observation: Observation;
}

/** The untracked Observation behind a view, for matchers and judges that record their own evidence. */
export function rawObservation(view: object): Observation | undefined {
  return TrackedView.observationOf(view);
}

/** The parts of an Observation whose reading the view records; the rest (observers, notes) are read freely. */
const TRACKED_PARTS = ['rounds', 'exit', 'files', 'toolRequests', 'receipts', 'rows', 'resources'] as const;

/**
 * The same evidence with `reply` reading the reply of round `round` (1-based; past the last round, the last): what a
 * pressure round's judgment reads. Every read is recorded as the view's own (same Observation, same recorder), so
 * matchers and `rawObservation` work on it as on the view it came from.
 */
export function viewAtRound(view: ObservationView, round: number): ObservationView {
  const observation = TrackedView.observationOf(view);
  const recorder = TrackedView.recorderOf(view);
  if (!observation || !recorder) throw new TypeError('viewAtRound: give the view a criterion check received');
  return createObservationView(observation, recorder, round);
}

export function createObservationView(
  observation: Observation,
  recorder: EvidenceRecorder,
  /** The round whose reply `reply` reads (1-based); the last round when absent. */
  replyRound?: number,
): ObservationView {
  return new TrackedView(observation, recorder, replyRound);
}

/**
 * The view as a class: every attempt's every check gets one, and an object literal of getters and closures, with its
 * proxy and two weak-map entries, cost tens of microseconds to make. The getters live on the prototype; the methods
 * are the instance's own arrow functions, so a check may still take them out of the view (`({ file }) => file(…)`).
 */
class TrackedView implements ObservationView {
  readonly #observation: Observation;
  readonly #recorder: EvidenceRecorder;
  readonly #replyRound: number | undefined;
  #tracked: Observation | undefined;

  static recorderOf(view: object): EvidenceRecorder | undefined {
    return #recorder in view ? view.#recorder : undefined;
  }

  static observationOf(view: object): Observation | undefined {
    return #observation in view ? view.#observation : undefined;
  }

  constructor(observation: Observation, recorder: EvidenceRecorder, replyRound: number | undefined) {
    this.#observation = observation;
    this.#recorder = recorder;
    this.#replyRound = replyRound;
  }

  #read<T>(kind: EvidenceRef['kind'], grade: EvidenceGrade, value: T, target = ANY_TARGET, detail = `read ${kind}`): T {
    this.#recorder.record({ kind, target, grade, detail });
    return value;
  }

  /** Read a watched part at its observer's grade; an unwatched one is no evidence. */
  #watched<T>(
    part: ObservedPart,
    kind: EvidenceRef['kind'],
    value: T,
    target = ANY_TARGET,
    detail = `read ${kind}`,
  ): T {
    const grade = watchedGrade(this.#observation, part);
    if (grade === null) throw new NoEvidence(unwatched(part));
    return this.#read(kind, grade, value, target, detail);
  }

  get reply(): Reply {
    const { rounds } = this.#observation;
    const at = this.#replyRound === undefined ? -1 : Math.min(rounds.length, this.#replyRound) - 1;
    return this.#read('reply', 'text', (at < 0 ? rounds.at(-1) : rounds[at])?.reply ?? null);
  }

  get replies(): readonly Reply[] {
    return this.#read(
      'reply',
      'text',
      this.#observation.rounds.map((r) => r.reply),
    );
  }

  get rounds(): Observation['rounds'] {
    return this.#read('reply', 'text', this.#observation.rounds);
  }

  get claims(): Observation['rounds'][number]['claims'] {
    return this.#read(
      'claim',
      'text',
      this.#observation.rounds.flatMap((r) => r.claims),
    );
  }

  get exit(): Observation['exit'] {
    return this.#watched('exit', 'process', this.#observation.exit);
  }

  get files(): Observation['files'] {
    return this.#watched('files', 'file', this.#observation.files);
  }

  get toolRequests(): Observation['toolRequests'] {
    return this.#watched('toolRequests', 'tool', this.#observation.toolRequests);
  }

  get receipts(): Observation['receipts'] {
    return this.#read('receipt', 'receipt', this.#observation.receipts);
  }

  get rows(): Observation['rows'] {
    return this.#watched('rows', 'row', this.#observation.rows);
  }

  get resources(): Observation['resources'] {
    return this.#watched('resources', 'process', this.#observation.resources);
  }

  readonly file = (path: string): FileChange | null => {
    const change = this.#observation.files.find((f) => samePath(f.path, path)) ?? null;
    return this.#watched('files', 'file', change, path, change ? `${change.change}` : 'unchanged');
  };

  readonly tool = (name: string): readonly ToolRequest[] => {
    const requests = this.#observation.toolRequests.filter((r) => r.tool === name);
    return this.#watched('toolRequests', 'tool', requests, name, `${requests.length} request(s)`);
  };

  readonly table = (name: string): RowChanges => {
    const { rows } = this.#observation;
    const changes = rows.find((r) => r.table === name) ?? null;
    if (changes === null)
      throw new NoEvidence(
        `table ${name} was not observed (observed: ${rows.map((r) => r.table).join(', ') || 'none'})`,
      );
    return this.#watched('rows', 'row', changes, name, 'observed');
  };

  readonly handoff = (producer: string | null, consumer: string | null): JsonValue => {
    const place = `${producer ?? '(input)'} → ${consumer ?? '(reply)'}`;
    const trace = this.#observation.composition;
    if (trace === null) throw new NoEvidence(`no handoff ${place}: the subject is not a Composition Suite`);
    const found = trace.handoffs.findLast((h) => h.producer === producer && h.consumer === consumer);
    if (!found)
      throw new NoEvidence(`the handoff ${place} did not happen (the attempt stopped: ${trace.stopped.kind})`);
    if (found.payload.truncated)
      throw new NoEvidence(`the handoff ${place} was kept by fingerprint only (${found.payload.bytes} bytes)`);
    return this.#read('handoff', 'observation', found.payload.value, place, `payload sha256:${found.payload.sha256}`);
  };

  get observation(): Observation {
    // Made when first asked for: most checks never read the Observation whole.
    this.#tracked ??= new Proxy(this.#observation, {
      get: (target, key, receiver) => {
        if ((TRACKED_PARTS as readonly PropertyKey[]).includes(key)) return this[key as (typeof TRACKED_PARTS)[number]];
        return Reflect.get(target, key, receiver);
      },
    });
    return this.#tracked;
  }
}
