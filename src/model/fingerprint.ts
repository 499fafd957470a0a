import { createHash, hash, type Hash } from 'node:crypto';

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

/**
 * `canonicalJson(value)` and `canonicalJson(value, omitKey)` at once, in one walk: for records written whole and
 * fingerprinted without some members (an attempt's line, and its digest without clock readings). The whole text is
 * written once; the kept one is the whole with the omitted members (and the commas they leave over) cut out.
 */
export function canonicalJsonPair(value: unknown, omitKey: (key: string) => boolean): [whole: string, kept: string] {
  const writing: PairWriting = { text: '', cuts: [], omitKey };
  if (!writePair(value, writing)) return ['', ''];
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
 * `sha256(canonicalJson(value, omitKey))`, without the text ever held whole: it is hashed a chunk at a time as it is
 * written. For the largest records (an Outcome of 100,000 attempts writes tens of megabytes of canonical JSON for its
 * id). Chunks end only between whole JSON tokens, so no character is split across two chunks' UTF-8.
 */
export function canonicalJsonSha256(value: unknown, omitKey?: (key: string) => boolean): string {
  const hashing: Hashing = { text: '', hash: createHash('sha256'), omitKey };
  writeHashed(value, hashing);
  hashing.hash.update(hashing.text);
  return hashing.hash.digest('hex');
}

/** Text written since the last chunk was hashed; hashed once it passes this many characters. */
const HASH_CHUNK = 1 << 16;

interface Hashing {
  text: string;
  hash: Hash;
  omitKey: ((key: string) => boolean) | undefined;
}

/** `json` appended to `hashing.text`, handed to the hash a chunk at a time; false when the value has no JSON. */
function writeHashed(value: unknown, hashing: Hashing): boolean {
  if (typeof value !== 'object' || value === null) {
    const text = json(value, undefined);
    if (text === undefined) return false;
    hashing.text += text;
    return true;
  }
  if (hashing.text.length >= HASH_CHUNK) {
    hashing.hash.update(hashing.text);
    hashing.text = '';
  }
  if (Array.isArray(value)) {
    hashing.text += '[';
    for (let i = 0; i < value.length; i += 1) {
      if (i > 0) hashing.text += ',';
      if (!writeHashed(value[i], hashing)) hashing.text += 'null';
    }
    hashing.text += ']';
    return true;
  }
  hashing.text += '{';
  let first = true;
  for (const key of orderedKeys(value)) {
    const member = (value as Record<string, unknown>)[key];
    if (member === undefined || typeof member === 'function' || typeof member === 'symbol') continue;
    if (hashing.omitKey?.(key)) continue;
    hashing.text += first ? quotedKey(key) : `,${quotedKey(key)}`;
    first = false;
    writeHashed(member, hashing);
  }
  hashing.text += '}';
  return true;
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
function writePair(value: unknown, writing: PairWriting): boolean {
  if (typeof value !== 'object' || value === null) {
    const text = json(value, undefined);
    if (text === undefined) return false;
    writing.text += text;
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
  for (const key of orderedKeys(value)) {
    const member = (value as Record<string, unknown>)[key];
    if (member === undefined || typeof member === 'function' || typeof member === 'symbol') continue;
    const name = quotedKey(key);
    if (writing.omitKey(key)) {
      writing.cuts.push(writing.text.length);
      writing.text += (firstWhole ? name : `,${name}`) + json(member, undefined);
      writing.cuts.push(writing.text.length);
      firstWhole = false;
      continue;
    }
    if (firstWhole) writing.text += name;
    else {
      if (firstKept) writing.cuts.push(writing.text.length, writing.text.length + 1);
      writing.text += `,${name}`;
    }
    firstWhole = false;
    firstKept = false;
    writePair(member, writing);
  }
  writing.text += '}';
  return true;
}

/**
 * A member name as written: its JSON string and the colon. Records use a few dozen names over and over, so each is
 * quoted once and kept (names longer than a record's own, e.g. keys of a subject's data, are quoted every time).
 */
function quotedKey(key: string): string {
  let name = QUOTED.get(key);
  if (name === undefined) {
    name = `${JSON.stringify(key)}:`;
    if (key.length <= 40 && QUOTED.size < 4096) QUOTED.set(key, name);
  }
  return name;
}
const QUOTED = new Map<string, string>();

/** An array index as an object key (a canonical integer below 2^32 − 1): objects list these first, ascending. */
const INDEX_KEY = /^(?:0|[1-9]\d{0,9})$/;
const isIndexKey = (key: string) => INDEX_KEY.test(key) && Number(key) < 4294967295;

/**
 * An object's keys in canonical order. `Object.keys` already lists array-index keys first, in ascending numeric
 * order, then the others in insertion order: only the others need sorting, and there are index keys at all only when
 * the first key is one.
 */
function orderedKeys(value: object): string[] {
  const keys = Object.keys(value);
  if (keys.length < 2) return keys;
  if (!isIndexKey(keys[0] as string)) return inOrder(keys) ? keys : keys.sort();
  let firstName = 1;
  while (firstName < keys.length && isIndexKey(keys[firstName] as string)) firstName += 1;
  if (firstName === keys.length) return keys;
  return [...keys.slice(0, firstName), ...keys.slice(firstName).sort()];
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
      return JSON.stringify(value);
    case 'number':
      if (!Number.isFinite(value))
        throw new TypeError(`canonicalJson: ${value} is not JSON; record non-finite numbers as null or a string`);
      return JSON.stringify(value);
    case 'boolean':
      return value ? 'true' : 'false';
    case 'bigint':
      // As JSON.stringify does: a bigint is not JSON.
      throw new TypeError('canonicalJson: a BigInt is not JSON; record it as a string');
    case 'object': {
      if (value === null) return 'null';
      if (Array.isArray(value)) {
        let out = '[';
        for (let i = 0; i < value.length; i += 1) out += `${i > 0 ? ',' : ''}${json(value[i], omitKey) ?? 'null'}`;
        return `${out}]`;
      }
      let out = '{';
      let first = true;
      for (const key of orderedKeys(value)) {
        const member = (value as Record<string, unknown>)[key];
        if (member === undefined || typeof member === 'function' || typeof member === 'symbol') continue;
        if (omitKey?.(key)) continue;
        out += (first ? quotedKey(key) : `,${quotedKey(key)}`) + json(member, omitKey);
        first = false;
      }
      return `${out}}`;
    }
    default:
      return undefined;
  }
}

/** sha256 (hex) of a string or bytes, in one call (half the cost of a Hash object for the short texts of records). */
export function sha256(data: string | Uint8Array): string {
  return hash('sha256', data, 'hex');
}

/** Content fingerprint of a record: `sha256:` + sha256 of its canonical JSON. */
export function fingerprint(value: unknown): string {
  return `sha256:${sha256(canonicalJson(value))}`;
}
