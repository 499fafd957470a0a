import { createHash } from 'node:crypto';

/**
 * Canonical JSON: object keys sorted by code unit, `undefined` members dropped, no whitespace. Two values that
 * are equal as data give byte-identical text, so their fingerprints agree across machines.
 */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(sortKeys(value));
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map((item) => (item === undefined ? null : sortKeys(item)));
  if (value !== null && typeof value === 'object') {
    const sorted: Record<string, unknown> = {};
    for (const key of Object.keys(value).sort()) {
      const member = (value as Record<string, unknown>)[key];
      if (member !== undefined) sorted[key] = sortKeys(member);
    }
    return sorted;
  }
  if (typeof value === 'number' && !Number.isFinite(value)) {
    throw new TypeError(`canonicalJson: ${value} is not JSON; record non-finite numbers as null or a string`);
  }
  return value;
}

/** sha256 (hex) of a string or bytes. */
export function sha256(data: string | Uint8Array): string {
  return createHash('sha256').update(data).digest('hex');
}

/** Content fingerprint of a record: `sha256:` + sha256 of its canonical JSON. */
export function fingerprint(value: unknown): string {
  return `sha256:${sha256(canonicalJson(value))}`;
}
