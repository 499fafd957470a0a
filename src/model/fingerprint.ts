import { hash } from 'node:crypto';

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
 * fingerprinted without some members (an attempt's line, and its digest without clock readings).
 */
export function canonicalJsonPair(value: unknown, omitKey: (key: string) => boolean): [whole: string, kept: string] {
  const pair = { whole: '', kept: '' };
  if (!writeBoth(value, pair, omitKey)) return ['', ''];
  return [pair.whole, pair.kept];
}

/** `json` appended to `pair.whole`, and to `pair.kept` too with the members `omitKey` names left out. */
function writeBoth(value: unknown, pair: { whole: string; kept: string }, omitKey: (key: string) => boolean): boolean {
  if (typeof value !== 'object' || value === null) {
    const text = json(value, undefined);
    if (text === undefined) return false;
    pair.whole += text;
    pair.kept += text;
    return true;
  }
  if (Array.isArray(value)) {
    pair.whole += '[';
    pair.kept += '[';
    for (let i = 0; i < value.length; i += 1) {
      if (i > 0) {
        pair.whole += ',';
        pair.kept += ',';
      }
      if (!writeBoth(value[i], pair, omitKey)) {
        pair.whole += 'null';
        pair.kept += 'null';
      }
    }
    pair.whole += ']';
    pair.kept += ']';
    return true;
  }
  pair.whole += '{';
  pair.kept += '{';
  let firstWhole = true;
  let firstKept = true;
  for (const key of orderedKeys(value)) {
    const member = (value as Record<string, unknown>)[key];
    if (member === undefined || typeof member === 'function' || typeof member === 'symbol') continue;
    const name = quotedKey(key);
    if (omitKey(key)) {
      pair.whole += (firstWhole ? name : `,${name}`) + json(member, undefined);
      firstWhole = false;
      continue;
    }
    pair.whole += firstWhole ? name : `,${name}`;
    pair.kept += firstKept ? name : `,${name}`;
    firstWhole = false;
    firstKept = false;
    writeBoth(member, pair, omitKey);
  }
  pair.whole += '}';
  pair.kept += '}';
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
