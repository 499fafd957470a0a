import { createHash, type Hash, hash } from 'node:crypto';

/**
 * Canonical JSON: object keys sorted by code unit (array-index keys first, in numeric order, as any JavaScript
 * object orders them), `undefined` members dropped, no whitespace. Two values that are equal as data give
 * byte-identical text, so their fingerprints agree across machines. `omitKey` leaves out members by name at every
 * depth. Written in one pass into one string, without building a sorted copy or a list of parts first: every attempt
 * is written and fingerprinted this way, so this walk is on the hot path of every trial.
 */
export function canonicalJson(value: unknown, omitKey?: (key: string) => boolean): string {
  const text = json(value, omitKey);
  return text === undefined ? '' : text;
}

const isMembers = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const byCodeUnit = (x: string, y: string) => (x < y ? -1 : x > y ? 1 : 0);

/** One place two JSON values differ: its dotted path and the value on each side (undefined where a side lacks it). */
export interface JsonDifference {
  path: string;
  a: unknown;
  b: unknown;
}

/**
 * Where two JSON values differ as data (compared as canonical JSON), by dotted path, members in code-unit order,
 * objects walked at most `depth` deep and arrays compared whole; `whole` names the path of the values themselves.
 */
export function jsonDifferences(
  a: unknown,
  b: unknown,
  { depth = Number.POSITIVE_INFINITY, whole = '(whole record)' }: { depth?: number; whole?: string } = {},
  prefix = '',
): JsonDifference[] {
  if (canonicalJson(a) === canonicalJson(b)) return [];
  if (depth === 0 || !isMembers(a) || !isMembers(b)) return [{ path: prefix || whole, a, b }];
  const keys = [...new Set([...Object.keys(a), ...Object.keys(b)])].sort(byCodeUnit);
  return keys.flatMap((key) =>
    jsonDifferences(a[key], b[key], { depth: depth - 1, whole }, prefix ? `${prefix}.${key}` : key),
  );
}

/**
 * `canonicalJson(value)` and `canonicalJson(value, omitKey)` at once, in one walk: for records written whole and
 * fingerprinted without some members (an attempt's line, and its digest without clock readings). The whole text is
 * written once; the kept one is the whole with the omitted members (and the commas they leave over) cut out.
 */
export function canonicalJsonPair(
  value: unknown,
  omitKey: (key: string) => boolean,
  /**
   * A member of the top-level object already written (e.g. a part many records share, written once): its text and
   * cuts, or undefined to write it. It must be what this walk would write for that member.
   */
  written?: (key: string, member: unknown) => WrittenMember | undefined,
): [whole: string, kept: string] {
  const writing: PairWriting = { text: '', cuts: [], omitKey };
  if (!writePair(value, writing, written)) return ['', ''];
  const { text, cuts } = writing;
  if (cuts.length === 0) return [text, text];
  let kept = '';
  let from = 0;
  for (let i = 0; i < cuts.length; i += 2) {
    kept += text.slice(from, cuts[i]);
    from = cuts[i + 1] as number;
  }
  return [text, kept + text.slice(from)];
}

/**
 * `sha256(canonicalJson(value, omitKey))`, without the text ever held whole: it is written as `json` writes it and
 * handed to the hash a chunk (HASH_CHUNK code units) at a time. For the largest records (an Outcome of 100,000
 * attempts writes tens of megabytes of canonical JSON for its id). A trial makes its Outcome's id once, mostly before
 * this code is optimised: there, appending to a string costs a third of what writing each token's bytes into a buffer
 * did (an Outcome of 1,000 attempts, 7–15 → 3–4 ms).
 */
export function canonicalJsonSha256(value: unknown, omitKey?: (key: string) => boolean): string {
  const hashing: Hashing = { hash: null, text: '', omitKey };
  writeHashed(value, hashing);
  // A text shorter than a chunk is hashed in one call, without a Hash object (half the cost for a record's text).
  if (hashing.hash === null) return sha256(hashing.text);
  hashing.hash.update(hashing.text);
  return hashing.hash.digest('hex');
}

/** Bytes of one sha256 digest. */
const SHA256_BYTES = 32;

/**
 * sha256 digests held as their bytes, 32 each, where canonical JSON writes an array of their hex texts: 100,000 hex
 * texts are 8 MB of strings, their bytes 3.2 MB in one buffer.
 */
export class Sha256List {
  readonly length: number;
  private readonly bytes: Buffer;

  constructor(bytes: Uint8Array) {
    if (bytes.length % SHA256_BYTES !== 0)
      throw new Error(`riddle: a list of sha256 digests takes 32 bytes each, not ${bytes.length} bytes`);
    this.bytes = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length);
    this.length = bytes.length / SHA256_BYTES;
  }

  /** The `i`th digest as 64 hexadecimal digits. */
  at(i: number): string {
    return this.bytes.toString('hex', i * SHA256_BYTES, (i + 1) * SHA256_BYTES);
  }
}

/** A string JSON must escape something in: a quote, a backslash, a control character or a surrogate (lone ones). */
const NEEDS_ESCAPE = /["\\\u0000-\u001f\ud800-\udfff]/;

/**
 * Code units of canonical JSON gathered before they are handed to the hash: a string built by appending is a chain of
 * pieces, and a long one still growing when the young generation is collected is moved into the old one.
 */
const HASH_CHUNK = 1 << 16;

/** Canonical JSON on its way into a sha256: the text not yet handed to the hash. */
interface Hashing {
  /** Made once the text reaches a chunk. */
  hash: Hash | null;
  text: string;
  readonly omitKey: ((key: string) => boolean) | undefined;
}

/** Hand the text gathered to the hash once it is a chunk long. */
function settle(hashing: Hashing): void {
  if (hashing.text.length < HASH_CHUNK) return;
  hashing.hash ??= createHash('sha256');
  hashing.hash.update(hashing.text);
  hashing.text = '';
}

/** `json` appended to `hashing`, member by member and element by element; false when the value has no JSON. */
function writeHashed(value: unknown, hashing: Hashing): boolean {
  if (typeof value !== 'object' || value === null) {
    const text = json(value, undefined);
    if (text === undefined) return false;
    hashing.text += text;
    return true;
  }
  if (value instanceof Sha256List) {
    hashing.text += '[';
    for (let i = 0; i < value.length; i += 1) {
      hashing.text += i > 0 ? `,"${value.at(i)}"` : `"${value.at(i)}"`;
      settle(hashing);
    }
    hashing.text += ']';
    return true;
  }
  if (Array.isArray(value)) {
    hashing.text += '[';
    let rows: FlatRows | undefined;
    for (let i = 0; i < value.length; i += 1) {
      if (i > 0) hashing.text += ',';
      const item: unknown = value[i];
      let flat: string | undefined;
      if (typeof item === 'object' && item !== null) flat = flatJson(item, hashing.omitKey, (rows ??= { names: null }));
      if (flat !== undefined) hashing.text += flat;
      else if (!writeHashed(item, hashing)) hashing.text += 'null';
      settle(hashing);
    }
    hashing.text += ']';
    return true;
  }
  hashing.text += '{';
  let first = true;
  const keys = orderedKeys(value);
  for (let k = 0; k < keys.length; k += 1) {
    const key = keys[k] as string;
    const member = (value as Record<string, unknown>)[key];
    if (member === undefined || typeof member === 'function' || typeof member === 'symbol') continue;
    const name = memberName(key);
    if (hashing.omitKey !== undefined && omits(key, name, hashing.omitKey)) continue;
    hashing.text += first ? name.quoted : name.afterComma;
    writeHashed(member, hashing);
    settle(hashing);
    first = false;
  }
  hashing.text += '}';
  return true;
}

/** A value's canonical JSON and the spans of it `omitKey` leaves out (start, end, … from its first character). */
export interface WrittenMember {
  text: string;
  cuts: readonly number[];
}

/** What canonicalJsonPair writes for `value`, with its cuts, to be given again through its `written`. */
export function canonicalJsonMember(value: unknown, omitKey: (key: string) => boolean): WrittenMember {
  const writing: PairWriting = { text: '', cuts: [], omitKey };
  if (!writePair(value, writing)) throw new TypeError('canonicalJsonMember: the value has no JSON');
  return { text: writing.text, cuts: writing.cuts };
}

/** The whole text so far, and the spans of it the kept text leaves out: start, end, start, end… in order. */
interface PairWriting {
  text: string;
  cuts: number[];
  omitKey: (key: string) => boolean;
}

/**
 * `json` appended to `writing.text`, noting the spans the kept text leaves out: an omitted member with the comma
 * before it, or, when the kept text's first member is not the whole's first, the comma before that member.
 */
function writePair(
  value: unknown,
  writing: PairWriting,
  written?: (key: string, member: unknown) => WrittenMember | undefined,
): boolean {
  if (typeof value !== 'object' || value === null) {
    const text = json(value, undefined);
    if (text === undefined) return false;
    writing.text += text;
    return true;
  }
  if (value instanceof Sha256List) {
    writing.text += json(value, undefined);
    return true;
  }
  if (Array.isArray(value)) {
    writing.text += '[';
    for (let i = 0; i < value.length; i += 1) {
      if (i > 0) writing.text += ',';
      if (!writePair(value[i], writing)) writing.text += 'null';
    }
    writing.text += ']';
    return true;
  }
  writing.text += '{';
  let firstWhole = true;
  let firstKept = true;
  const keys = orderedKeys(value);
  for (let k = 0; k < keys.length; k += 1) {
    const key = keys[k] as string;
    const member = (value as Record<string, unknown>)[key];
    if (member === undefined || typeof member === 'function' || typeof member === 'symbol') continue;
    const name = memberName(key);
    if (omits(key, name, writing.omitKey)) {
      writing.cuts.push(writing.text.length);
      writing.text += (firstWhole ? name.quoted : name.afterComma) + json(member, undefined);
      writing.cuts.push(writing.text.length);
      firstWhole = false;
      continue;
    }
    if (firstWhole) writing.text += name.quoted;
    else {
      if (firstKept) writing.cuts.push(writing.text.length, writing.text.length + 1);
      writing.text += name.afterComma;
    }
    firstWhole = false;
    firstKept = false;
    const before = written?.(key, member);
    if (before === undefined) writePair(member, writing);
    else {
      const at = writing.text.length;
      writing.text += before.text;
      for (let c = 0; c < before.cuts.length; c += 1) writing.cuts.push(at + (before.cuts[c] as number));
    }
  }
  writing.text += '}';
  return true;
}

/**
 * A member name as written: its JSON string and the colon, alone and after a comma, with what the last `omitKey` asked
 * of it said. Records use a few dozen names over and over, so each is quoted once and kept (names longer than a
 * record's own, e.g. keys of a subject's data, are quoted every time).
 */
interface MemberName {
  readonly quoted: string;
  readonly afterComma: string;
  /** The `omitKey` last asked about this name, and its answer (an `omitKey` answers by the name alone). */
  omitKey: ((key: string) => boolean) | undefined;
  omitted: boolean;
}

function memberName(key: string): MemberName {
  let name = QUOTED.get(key);
  if (name === undefined) {
    const quoted = `${JSON.stringify(key)}:`;
    name = { quoted, afterComma: `,${quoted}`, omitKey: undefined, omitted: false };
    if (key.length <= 40 && QUOTED.size < 4096) QUOTED.set(key, name);
  }
  return name;
}
const QUOTED = new Map<string, MemberName>();

/** Whether `omitKey` leaves the member out, asked once per name and `omitKey` in a row (trials use one `omitKey`). */
function omits(key: string, name: MemberName, omitKey: (key: string) => boolean): boolean {
  if (name.omitKey !== omitKey) {
    name.omitted = omitKey(key);
    name.omitKey = omitKey;
  }
  return name.omitted;
}

/** An array index as an object key (a canonical integer below 2^32 − 1): objects list these first, ascending. */
const INDEX_KEY = /^(?:0|[1-9]\d{0,9})$/;
const isIndexKey = (key: string) => {
  // Most names start with a letter: a digit is looked for before the pattern is.
  const first = key.charCodeAt(0);
  return first >= 48 && first <= 57 && INDEX_KEY.test(key) && Number(key) < 4294967295;
};

/**
 * An object's keys in canonical order. `Object.keys` already lists array-index keys first, in ascending numeric
 * order, then the others in insertion order: only the others need sorting, and there are index keys at all only when
 * the first key is one.
 */
function orderedKeys(value: object): readonly string[] {
  const keys = Object.keys(value);
  if (keys.length < 2) return keys;
  const first = keys[0] as string;
  if (!isIndexKey(first)) {
    // Records of one kind list their names in one order, seldom the sorted one: the last few such lists seen with this
    // first name are kept beside their sorted copies, and a list equal to one of them, name for name, takes that copy
    // instead of a sort. Several kinds share a first name (`schema` begins every stored record, `criterion` a finding and
    // a criterion's result): with one list kept per name they took turns, and every record of a trial was sorted.
    const known = SORTED_AFTER.get(first);
    if (known !== undefined)
      for (let i = 0; i < known.length; i += 1) {
        const list = known[i] as SortedNames;
        if (sameNames(list.names, keys)) return list.sorted;
      }
    if (inOrder(keys)) return keys;
    const sorted = [...keys].sort();
    if (known !== undefined) {
      // The newest first; the oldest goes past SORTED_KINDS (kinds met once, as a user's free-form data, pass through).
      known.unshift({ names: keys, sorted });
      if (known.length > SORTED_KINDS) known.pop();
    } else if (SORTED_AFTER.size < 1024) SORTED_AFTER.set(first, [{ names: keys, sorted }]);
    return sorted;
  }
  let firstName = 1;
  while (firstName < keys.length && isIndexKey(keys[firstName] as string)) firstName += 1;
  if (firstName === keys.length) return keys;
  return [...keys.slice(0, firstName), ...keys.slice(firstName).sort()];
}

/** A list of names out of order, and its sorted copy (neither ever changed: read only). */
interface SortedNames {
  names: readonly string[];
  sorted: readonly string[];
}
/** Lists of names out of order kept per first name, the newest first. */
const SORTED_KINDS = 8;
/** The last SORTED_KINDS lists of names out of order met for each first name. */
const SORTED_AFTER = new Map<string, SortedNames[]>();

/** Whether two lists hold the same names in the same order (names are interned: each comparison is of two pointers). */
function sameNames(a: readonly string[], b: readonly string[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i += 1) if (a[i] !== b[i]) return false;
  return true;
}

/** Whether names are already in code-unit order (records built in canonical order need no sort). */
function inOrder(keys: readonly string[]): boolean {
  for (let i = 1; i < keys.length; i += 1) if ((keys[i - 1] as string) > (keys[i] as string)) return false;
  return true;
}

/** The value's canonical JSON; undefined when it has none (undefined, a function or a symbol), as JSON.stringify. */
function json(value: unknown, omitKey: ((key: string) => boolean) | undefined): string | undefined {
  switch (typeof value) {
    case 'string':
      // Between quotes as it is when nothing in it needs escaping (as most record texts), as JSON.stringify writes it.
      return NEEDS_ESCAPE.test(value) ? JSON.stringify(value) : `"${value}"`;
    case 'number':
      if (!Number.isFinite(value))
        throw new TypeError(`canonicalJson: ${value} is not JSON; record non-finite numbers as null or a string`);
      // What JSON.stringify writes for a finite number (-0 as 0 too), through V8's cache of number texts.
      return String(value);
    case 'boolean':
      return value ? 'true' : 'false';
    case 'bigint':
      // As JSON.stringify does: a bigint is not JSON.
      throw new TypeError('canonicalJson: a BigInt is not JSON; record it as a string');
    case 'object': {
      if (value === null) return 'null';
      if (value instanceof Sha256List)
        return json(
          Array.from({ length: value.length }, (_, i) => value.at(i)),
          omitKey,
        );
      if (Array.isArray(value)) {
        let out = '[';
        for (let i = 0; i < value.length; i += 1) out += `${i > 0 ? ',' : ''}${json(value[i], omitKey) ?? 'null'}`;
        return `${out}]`;
      }
      let out = '{';
      let first = true;
      const keys = orderedKeys(value);
      for (let k = 0; k < keys.length; k += 1) {
        const key = keys[k] as string;
        const member = (value as Record<string, unknown>)[key];
        if (member === undefined || typeof member === 'function' || typeof member === 'symbol') continue;
        const name = memberName(key);
        if (omitKey !== undefined && omits(key, name, omitKey)) continue;
        out += (first ? name.quoted : name.afterComma) + json(member, omitKey);
        first = false;
      }
      return `${out}}`;
    }
    default:
      return undefined;
  }
}

/** The names of the last flat record of an array found in order and none omitted: rows of one kind list the same. */
interface FlatRows {
  names: readonly string[] | null;
}

/**
 * `json`'s text of a flat record in an array, written by JSON.stringify; undefined when the record is not one. For a
 * plain object whose names are in code-unit order, none of them omitted, each member a string, a finite number, a
 * boolean or null, and no `toJSON` to be found, JSON.stringify writes what `json` does (strings escaped alike, lone
 * surrogates too, numbers as String writes them), natively. An Outcome holds a row of these for every attempt (its cost
 * rows): written member by member, a thousand of them took 5.4 ms of its id in a fresh process (2.4 checked one by one
 * and stringified; `rows` spares the rows after the first their names' checks). Only the id's streamed walk takes this
 * path: in `json`, which every trial's fingerprints run, the extra call cost a deoptimisation and a recompile of the
 * walker in each worker (over a thousand one-attempt trials, four compiles of `json` of 75 ms against three of 26).
 */
function flatJson(value: object, omitKey: ((key: string) => boolean) | undefined, rows: FlatRows): string | undefined {
  const prototype: unknown = Object.getPrototypeOf(value);
  if (prototype !== Object.prototype && prototype !== null) return undefined;
  if ((value as { toJSON?: unknown }).toJSON !== undefined) return undefined;
  const keys = Object.keys(value);
  const named = rows.names !== null && sameNames(rows.names, keys);
  for (let k = 0; k < keys.length; k += 1) {
    const key = keys[k] as string;
    const member = (value as Record<string, unknown>)[key];
    if (typeof member === 'number') {
      if (!Number.isFinite(member)) return undefined;
    } else if (typeof member !== 'string' && typeof member !== 'boolean' && member !== null) return undefined;
    if (named) continue;
    if (k > 0 && (keys[k - 1] as string) > key) return undefined;
    if (omitKey !== undefined && omits(key, memberName(key), omitKey)) return undefined;
  }
  if (!named) rows.names = keys;
  return JSON.stringify(value);
}

/** sha256 (hex) of a string or bytes, in one call (half the cost of a Hash object for the short texts of records). */
export function sha256(data: string | Uint8Array): string {
  return hash('sha256', data, 'hex');
}

/**
 * Content fingerprint of a record: `sha256:` + sha256 of its canonical JSON, hashed as it is written. A data-driven
 * suite's TrialSuite record of 50,000 rows is tens of megabytes of canonical JSON: made whole, it was a string of a
 * million pieces, held at once while the trial's Outcome was put together (and written three to five times slower).
 */
export function fingerprint(value: unknown): string {
  return `sha256:${canonicalJsonSha256(value)}`;
}
