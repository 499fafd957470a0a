import { MAX_FINDING_ATTEMPTS, type AttemptRecord } from '../model/index.js';

/**
 * Distinct problems of one kind (error messages, claimed targets) given a finding each. Past this many, problems are
 * grouped by their form instead (`problemForm`), and past this many forms the least frequent are gathered into one
 * finding: a subject whose every error names its request would otherwise return one finding per attempt (100,000
 * findings, tens of megabytes in the Outcome, for what is one problem).
 */
export const MAX_DISTINCT_PROBLEMS = 10;

const UUID = /\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b/gi;
/** A run of 8 or more hexadecimal digits with a letter and a digit in it: a hash, a token, a request id. */
const HEX_ID = /\b(?=[0-9a-f]*\d)(?=[0-9a-f]*[a-f])[0-9a-f]{8,}\b/gi;
const NUMBER = /\d+/g;

/**
 * A problem's text with what tells its instances apart written as placeholders: ids (UUIDs and long hexadecimal runs)
 * as `<id>`, numbers as `<n>`. `upstream failed on request 17` and `… request 18` have one form, so they are one
 * problem, with one finding id from run to run.
 */
export function problemForm(text: string): string {
  return text.replace(UUID, '<id>').replace(HEX_ID, '<id>').replace(NUMBER, '<n>');
}

type AttemptRef = Pick<AttemptRecord, 'arm' | 'index'>;

/**
 * What one item says: the part that is always told apart exactly (e.g. a claim's action; null when none), its text,
 * and the attempt it is in (none for problems no attempt owns, such as stray errors: those are counted as items).
 */
export interface ProblemParts {
  fixed: string | null;
  text: string;
  attempt?: AttemptRef;
  /** Counted too: how many distinct ones the group holds (e.g. a claim's wordings). */
  wording?: string;
}

export interface ProblemGroup<T> {
  /** What the group is about, for its finding's id: the text (or its form) after the fixed part; never a count. */
  about: string;
  first: T;
  /** Distinct texts in the group: 1 when problems are told apart by their exact text. */
  texts: number;
  /** Distinct wordings in the group (0 when the items give none). */
  wordings: number;
  /** Items in the group (problems several times in one attempt counted each time). */
  count: number;
  /** The attempts, each once, in the order seen, up to MAX_FINDING_ATTEMPTS. */
  attempts: AttemptRef[];
  /** How many distinct attempts in all. */
  attemptCount: number;
}

/** The least frequent forms past the first MAX_DISTINCT_PROBLEMS − 1, gathered. */
export interface OtherProblems<T> {
  first: T;
  /** Distinct texts gathered here. */
  texts: number;
  /** Items gathered here. */
  count: number;
  attempts: AttemptRef[];
  attemptCount: number;
}

function aboutOf(parts: ProblemParts, byForm: boolean): string {
  const text = byForm ? problemForm(parts.text) : parts.text;
  return parts.fixed === null ? text : `${parts.fixed}\u0000${text}`;
}

interface Gathering<T> {
  first: T;
  order: number;
  texts: Set<string>;
  wordings: Set<string>;
  count: number;
  attempts: AttemptRef[];
  attemptCount: number;
  last: AttemptRef | null;
}

const gathering = <T>(first: T, order: number): Gathering<T> => ({
  first,
  order,
  texts: new Set(),
  wordings: new Set(),
  count: 0,
  attempts: [],
  attemptCount: 0,
  last: null,
});

function gatherInto<T>(group: Gathering<T>, parts: ProblemParts): void {
  group.texts.add(parts.text);
  if (parts.wording !== undefined) group.wordings.add(parts.wording);
  group.count += 1;
  // An attempt's items come together (they are listed attempt by attempt), so a repeat is always the last one seen.
  if (parts.attempt !== undefined && group.last !== parts.attempt) {
    group.last = parts.attempt;
    group.attemptCount += 1;
    if (group.attempts.length < MAX_FINDING_ATTEMPTS) group.attempts.push(parts.attempt);
  }
}

/**
 * Problems grouped for findings: by exact text while there are at most MAX_DISTINCT_PROBLEMS of them, in the order
 * first seen (each finding says what happened, word for word); by form when there are more, the most frequent forms
 * kept (in the order first seen) and the rest gathered into `others`. Items must come attempt by attempt. Holds the
 * distinct texts of each group while grouping, never a list of every item.
 */
export function groupProblems<T>(
  items: readonly T[],
  partsOf: (item: T) => ProblemParts,
): { groups: ProblemGroup<T>[]; others: OtherProblems<T> | null } {
  // Indexed loops: this runs once a trial, unoptimised, where for…of makes an iterator result for every item.
  const distinct = new Set<string>();
  for (let i = 0; i < items.length; i += 1) {
    const parts = partsOf(items[i] as T);
    distinct.add(aboutOf(parts, false));
    if (distinct.size > MAX_DISTINCT_PROBLEMS) break;
  }
  const byForm = distinct.size > MAX_DISTINCT_PROBLEMS;
  const gathered = new Map<string, Gathering<T>>();
  for (let i = 0; i < items.length; i += 1) {
    const item = items[i] as T;
    const parts = partsOf(item);
    const about = aboutOf(parts, byForm);
    let group = gathered.get(about);
    if (group === undefined) {
      group = gathering(item, gathered.size);
      gathered.set(about, group);
    }
    gatherInto(group, parts);
  }
  const all = [...gathered.entries()];
  let kept = all;
  let others: OtherProblems<T> | null = null;
  if (all.length > MAX_DISTINCT_PROBLEMS) {
    // Most frequent by attempts, or by items where no attempt owns them.
    const weight = (group: Gathering<T>) => group.attemptCount || group.count;
    const byCount = [...all].sort(([, a], [, b]) => weight(b) - weight(a) || a.order - b.order);
    kept = byCount.slice(0, MAX_DISTINCT_PROBLEMS - 1).sort(([, a], [, b]) => a.order - b.order);
    const rest = byCount.slice(MAX_DISTINCT_PROBLEMS - 1).sort(([, a], [, b]) => a.order - b.order);
    others = gatheredOthers(
      rest.map(([, group]) => group),
      items,
      partsOf,
      new Set(rest.map(([about]) => about)),
      byForm,
    );
  }
  const groups = kept.map(([about, group]) => ({
    about,
    first: group.first,
    texts: group.texts.size,
    wordings: group.wordings.size,
    count: group.count,
    attempts: group.attempts,
    attemptCount: group.attemptCount,
  }));
  return { groups, others };
}

/** The gathered groups as one: their texts counted, their attempts each once in the order seen. */
function gatheredOthers<T>(
  rest: readonly Gathering<T>[],
  list: readonly T[],
  partsOf: (item: T) => ProblemParts,
  abouts: ReadonlySet<string>,
  byForm: boolean,
): OtherProblems<T> {
  const together = gathering((rest[0] as Gathering<T>).first, 0);
  // Walked again in item order, so an attempt with problems in two gathered forms counts once.
  for (let i = 0; i < list.length; i += 1) {
    const parts = partsOf(list[i] as T);
    if (abouts.has(aboutOf(parts, byForm))) gatherInto(together, parts);
  }
  return {
    first: together.first,
    texts: together.texts.size,
    count: together.count,
    attempts: together.attempts,
    attemptCount: together.attemptCount,
  };
}
