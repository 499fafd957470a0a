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
