import { createHash } from 'node:crypto';

/**
 * Canonical JSON: object keys sorted by code unit (array-index keys first, in numeric order, as any JavaScript
 * object orders them), `undefined` members dropped, no whitespace. Two values that are equal as data give
 * byte-identical text, so their fingerprints agree across machines. `omitKey` leaves out members by name at every
 * depth. Written in one pass, without building a sorted copy first: Outcomes of many attempts are fingerprinted whole.
 */
export function canonicalJson(value: unknown, omitKey?: (key: string) => boolean): string {
  const parts: string[] = [];
  write(value, parts, omitKey);
  return parts.join('');
}

/**
 * `canonicalJson(value)` and `canonicalJson(value, omitKey)` at once, in one walk: for records written whole and
 * fingerprinted without some members (an attempt's line, and its digest without clock readings).
 */
export function canonicalJsonPair(value: unknown, omitKey: (key: string) => boolean): [whole: string, kept: string] {
  const whole: string[] = [];
  const kept: string[] = [];
  writeBoth(value, whole, kept, omitKey);
  return [whole.join(''), kept.join('')];
}

/** `write` into `whole`, and into `kept` too with the members `omitKey` names left out. */
function writeBoth(value: unknown, whole: string[], kept: string[], omitKey: (key: string) => boolean): boolean {
  if (typeof value !== 'object' || value === null) {
    const before = whole.length;
    if (!write(value, whole, undefined)) return false;
    for (let i = before; i < whole.length; i += 1) kept.push(whole[i] as string);
    return true;
  }
  if (Array.isArray(value)) {
    whole.push('[');
    kept.push('[');
    for (let i = 0; i < value.length; i += 1) {
      if (i > 0) {
        whole.push(',');
        kept.push(',');
      }
      if (!writeBoth(value[i], whole, kept, omitKey)) {
        whole.push('null');
        kept.push('null');
      }
    }
    whole.push(']');
    kept.push(']');
    return true;
  }
  whole.push('{');
  kept.push('{');
  let firstWhole = true;
  let firstKept = true;
  for (const key of orderedKeys(value)) {
    const member = (value as Record<string, unknown>)[key];
    if (member === undefined || typeof member === 'function' || typeof member === 'symbol') continue;
    const name = JSON.stringify(key);
    whole.push(firstWhole ? '' : ',', name, ':');
    firstWhole = false;
    if (omitKey(key)) {
      write(member, whole, undefined);
      continue;
    }
    kept.push(firstKept ? '' : ',', name, ':');
    firstKept = false;
    writeBoth(member, whole, kept, omitKey);
  }
  whole.push('}');
  kept.push('}');
  return true;
}

/** An array index as an object key (a canonical integer below 2^32 − 1): objects list these first, ascending. */
const INDEX_KEY = /^(?:0|[1-9]\d{0,9})$/;
const isIndexKey = (key: string) => INDEX_KEY.test(key) && Number(key) < 4294967295;

function orderedKeys(value: object): string[] {
  const keys = Object.keys(value).sort();
  if (!keys.some(isIndexKey)) return keys;
  const indices = keys.filter(isIndexKey).sort((a, b) => Number(a) - Number(b));
  return [...indices, ...keys.filter((key) => !isIndexKey(key))];
}

/** Appends the value's JSON; returns false when it has none (undefined, a function or a symbol), as JSON.stringify. */
function write(value: unknown, parts: string[], omitKey: ((key: string) => boolean) | undefined): boolean {
  switch (typeof value) {
    case 'string':
      parts.push(JSON.stringify(value));
      return true;
    case 'number':
      if (!Number.isFinite(value))
        throw new TypeError(`canonicalJson: ${value} is not JSON; record non-finite numbers as null or a string`);
      parts.push(JSON.stringify(value));
      return true;
    case 'boolean':
      parts.push(value ? 'true' : 'false');
      return true;
    case 'bigint':
      // As JSON.stringify does: a bigint is not JSON.
      throw new TypeError('canonicalJson: a BigInt is not JSON; record it as a string');
    case 'object': {
      if (value === null) {
        parts.push('null');
        return true;
      }
      if (Array.isArray(value)) {
        parts.push('[');
        for (let i = 0; i < value.length; i += 1) {
          if (i > 0) parts.push(',');
          if (!write(value[i], parts, omitKey)) parts.push('null');
        }
        parts.push(']');
        return true;
      }
      parts.push('{');
      let first = true;
      for (const key of orderedKeys(value)) {
        const member = (value as Record<string, unknown>)[key];
        if (member === undefined || typeof member === 'function' || typeof member === 'symbol') continue;
        if (omitKey?.(key)) continue;
        parts.push(first ? '' : ',', JSON.stringify(key), ':');
        first = false;
        write(member, parts, omitKey);
      }
      parts.push('}');
      return true;
    }
    default:
      return false;
  }
}

/** sha256 (hex) of a string or bytes. */
export function sha256(data: string | Uint8Array): string {
  return createHash('sha256').update(data).digest('hex');
}

/** Content fingerprint of a record: `sha256:` + sha256 of its canonical JSON. */
export function fingerprint(value: unknown): string {
  return `sha256:${sha256(canonicalJson(value))}`;
}
