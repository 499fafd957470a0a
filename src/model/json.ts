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
