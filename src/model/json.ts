import { z } from 'zod';

/** Plain JSON: what every record is made of, so it can cross a worker boundary and land in a blob. */
export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };

export const JsonValue: z.ZodType<JsonValue> = z.lazy(() =>
  z.union([z.string(), z.number(), z.boolean(), z.null(), z.array(JsonValue), z.record(z.string(), JsonValue)]),
);

/**
 * `target[key] = value`, always as an own member. Assigning `__proto__` would set the copy's prototype instead: a
 * subject's data holding a `__proto__` member (JSON.parse makes it an own member) would vanish from the copy while its
 * contents showed through as inherited members, read by checks yet in no record.
 */
export function setOwnMember(target: Record<string, unknown>, key: string, value: unknown): void {
  if (key === '__proto__')
    Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
  else target[key] = value;
}

/** Two JSON values equal as data: same members (in any order), same items, same primitives. */
export function sameData(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i += 1) if (!sameData(a[i], b[i])) return false;
    return true;
  }
  if (Array.isArray(b)) return false;
  // Members counted with for…in, not listed with Object.keys: no array made for either object (plain data inherits
  // no enumerable member, so for…in lists only their own).
  let members = 0;
  for (const key in a) {
    if (!Object.hasOwn(b, key) || !sameData((a as Record<string, unknown>)[key], (b as Record<string, unknown>)[key]))
      return false;
    members += 1;
  }
  for (const _ in b) members -= 1;
  return members === 0;
}

/** Levels of nesting a subject's value is read to at most: deeper is no answer riddle records. */
const JSON_DEPTH = 512;

/**
 * Why a value a subject handed back is not JSON riddle can record, naming where (`reply.items[2].n is Infinity`), or
 * null when it is: strings, finite numbers, booleans, null, arrays and objects of those. An object member that is
 * undefined is left out (as JSON.stringify leaves it); a `toJSON` is asked, as JSON.stringify asks it. A Map or Set,
 * which JSON writes as `{}`, a cycle, a getter that throws or a depth past 512 levels are named too: each failed the
 * attempt's judging or its record later, far from the subject.
 */
export function jsonProblem(value: unknown, where: string): string | null {
  // Most replies are a string: answered before any walk.
  if (typeof value === 'string') return null;
  return problemAt(value, where, new Set(), 0);
}

function problemAt(value: unknown, where: string, ancestors: Set<object>, depth: number): string | null {
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return null;
    case 'number':
      return Number.isFinite(value) ? null : `${where} is ${value}, which JSON cannot hold`;
    case 'bigint':
      return `${where} is the BigInt ${value}n, which JSON cannot hold`;
    case 'undefined':
      return `${where} is undefined`;
    case 'function':
      return `${where} is a function`;
    case 'symbol':
      return `${where} is a Symbol`;
    case 'object':
      break;
  }
  if (value === null) return null;
  const object = value as object;
  if (depth >= JSON_DEPTH) return `${where} nests deeper than ${JSON_DEPTH} levels`;
  if (ancestors.has(object)) return `${where} refers back to an object that holds it (a cycle)`;
  let toJson: unknown;
  try {
    toJson = (object as { toJSON?: unknown }).toJSON;
    if (typeof toJson === 'function') {
      ancestors.add(object);
      const problem = problemAt(toJson.call(object), `${where}.toJSON()`, ancestors, depth + 1);
      ancestors.delete(object);
      return problem;
    }
  } catch (error) {
    return `${where}.toJSON() threw: ${errorText(error)}`;
  }
  if (object instanceof Map || object instanceof Set || object instanceof WeakMap || object instanceof WeakSet)
    return `${where} is a ${object.constructor.name}, which JSON writes as {}`;
  if (typeof (object as { then?: unknown }).then === 'function') return `${where} is a promise (await it first)`;
  ancestors.add(object);
  try {
    if (Array.isArray(object)) {
      for (let i = 0; i < object.length; i += 1) {
        const problem = problemAt(object[i], `${where}[${i}]`, ancestors, depth + 1);
        if (problem !== null) return problem;
      }
      return null;
    }
    for (const key of Object.keys(object)) {
      const member = (object as Record<string, unknown>)[key];
      // Left out, as JSON.stringify leaves it out.
      if (member === undefined) continue;
      const problem = problemAt(member, `${where}.${key}`, ancestors, depth + 1);
      if (problem !== null) return problem;
    }
    return null;
  } catch (error) {
    return `${where} could not be read: ${errorText(error)}`;
  } finally {
    ancestors.delete(object);
  }
}

/** Text cut to `most` characters, saying how many more there were: what a record keeps of a message of megabytes. */
export function clippedText(text: string, most: number): string {
  return text.length <= most ? text : `${text.slice(0, most)}… (${text.length - most} more characters)`;
}

/** An error's message for a sentence, whatever was thrown (even a value whose conversion to text throws). */
export function errorText(error: unknown): string {
  try {
    if (error instanceof Error) return error.message === '' ? `${error.name} (with no message)` : error.message;
    // A thrown object says what it holds, where String() said only "[object Object]".
    if (typeof error === 'object' && error !== null && Object.prototype.toString.call(error) === '[object Object]') {
      const json = JSON.stringify(error);
      if (json !== undefined) return `a thrown ${error.constructor?.name ?? 'object'}: ${json}`;
    }
    return String(error);
  } catch {
    return 'a thrown value that cannot be shown as text';
  }
}
