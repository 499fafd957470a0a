/** Text gathered before a chunk is handed out. */
const CHUNK_CHARS = 1 << 16;

/**
 * Arrays at least this long, and objects of as many members, are written item by item at any depth (an Outcome's
 * per-attempt cost rows and order, a suite's rows), and so are the objects holding them.
 */
const LONG_ARRAY = 64;

/** Depth down to which objects and arrays are written member by member; below it each value is stringified whole. */
const OPEN_DEPTH = 2;

/**
 * `JSON.stringify(value, null, 2)` a chunk at a time, byte for byte the same text: an Outcome of 100,000 attempts is
 * written without its whole text (and that text's bytes) held at once. Long arrays and the upper levels are written
 * member by member, everything else by `JSON.stringify` itself, re-indented. Yields nothing for a value with no JSON
 * (`undefined`, a function, a symbol), where `JSON.stringify` gives `undefined`.
 */
export function* prettyJsonChunks(value: unknown): Generator<string, void, undefined> {
  const writing: Writing = { text: '' };
  if (!(yield* write(jsonValue(value, ''), '', 0, writing))) return;
  if (writing.text !== '') yield writing.text;
}

interface Writing {
  text: string;
}

/** What JSON.stringify writes for a member: its `toJSON` result when it has one. */
export function jsonValue(value: unknown, key: string): unknown {
  if (typeof value === 'object' && value !== null) {
    const toJSON = (value as { toJSON?: unknown }).toJSON;
    if (typeof toJSON === 'function') return toJSON.call(value, key);
  }
  return value;
}

export const hasNoJson = (value: unknown) =>
  value === undefined || typeof value === 'function' || typeof value === 'symbol';

export const isPlainObject = (value: object) => {
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
};

/**
 * Whether a plain object is long (LONG_ARRAY members or more) or holds something long, among its members or theirs
 * (through objects only). Such an object is opened at any depth: a data-driven suite's TrialSuite record holds a Case
 * per row, and its pinned Cases are a map of one fingerprint per row, both at the third level; stringified whole, each
 * was megabytes of text made at once (twice, when re-indented).
 */
function holdsLong(value: object): boolean {
  let members = 0;
  for (const key in value) {
    members += 1;
    if (members >= LONG_ARRAY) return true;
    const member = (value as Record<string, unknown>)[key];
    if (typeof member !== 'object' || member === null) continue;
    if (Array.isArray(member) ? member.length >= LONG_ARRAY : isPlainObject(member) && holdsLong(member)) return true;
  }
  return false;
}

/** Plain arrays and objects are opened here; anything else (boxed primitives, leaves) goes to JSON.stringify. */
function opens(value: unknown, depth: number): value is object {
  if (typeof value !== 'object' || value === null) return false;
  if (Array.isArray(value)) return depth < OPEN_DEPTH || value.length >= LONG_ARRAY;
  return isPlainObject(value) && (depth < OPEN_DEPTH || holdsLong(value));
}

/** A value not opened, as JSON.stringify writes it at `indent`. */
const whole = (value: unknown, indent: string) => {
  const text = JSON.stringify(value, null, 2);
  return indent === '' ? text : text.replaceAll('\n', `\n${indent}`);
};

/** Append `value` (already through toJSON) at `indent`, yielding full chunks; false when it has no JSON. */
function* write(
  value: unknown,
  indent: string,
  depth: number,
  writing: Writing,
): Generator<string, boolean, undefined> {
  if (hasNoJson(value)) return false;
  if (!opens(value, depth)) {
    writing.text += whole(value, indent);
    return true;
  }
  const inner = `${indent}  `;
  if (Array.isArray(value)) {
    if (value.length === 0) {
      writing.text += '[]';
      return true;
    }
    writing.text += '[';
    for (let i = 0; i < value.length; i += 1) {
      writing.text += `${i > 0 ? ',' : ''}\n${inner}`;
      const item = jsonValue(value[i], String(i));
      if (hasNoJson(item)) writing.text += 'null';
      else if (opens(item, depth + 1)) yield* write(item, inner, depth + 1, writing);
      else writing.text += whole(item, inner);
      if (writing.text.length >= CHUNK_CHARS) {
        yield writing.text;
        writing.text = '';
      }
    }
    writing.text += `\n${indent}]`;
    return true;
  }
  let first = true;
  for (const key of Object.keys(value)) {
    const member = jsonValue((value as Record<string, unknown>)[key], key);
    if (hasNoJson(member)) continue;
    writing.text += `${first ? '{' : ','}\n${inner}${JSON.stringify(key)}: `;
    first = false;
    yield* write(member, inner, depth + 1, writing);
    if (writing.text.length >= CHUNK_CHARS) {
      yield writing.text;
      writing.text = '';
    }
  }
  writing.text += first ? '{}' : `\n${indent}}`;
  return true;
}
