import type { z } from 'zod';
import { MIGRATIONS, type StoredRecord } from './migrations.js';
import { RECORD_SCHEMAS, type RecordName } from './records.js';

type RecordOf<N extends RecordName> = z.infer<(typeof RECORD_SCHEMAS)[N]['schema']>;

/** Raised when a stored record cannot be read: names the place and what is wrong. */
export class RecordError extends Error {
  constructor(
    readonly place: string,
    message: string,
  ) {
    super(`${place}: ${message}`);
    this.name = 'RecordError';
  }
}

const versionOf = (id: string) => Number(id.slice(id.lastIndexOf('/') + 1));

/**
 * Read a stored record of a known kind, upgrading older versions to the current one step by step (see
 * migrations.ts), then validating it. A newer version than this riddle knows is refused with a message saying so
 * rather than misread.
 */
export function migrate<N extends RecordName>(name: N, data: unknown, place: string): RecordOf<N> {
  const expected = RECORD_SCHEMAS[name].id;
  const found = typeof data === 'object' && data !== null ? (data as { schema?: unknown }).schema : undefined;
  if (typeof found !== 'string')
    throw new RecordError(place, `not a riddle record (no "schema" field; expected ${expected})`);
  const kind = found.slice(0, found.lastIndexOf('/'));
  const expectedKind = expected.slice(0, expected.lastIndexOf('/'));
  if (kind !== expectedKind) throw new RecordError(place, `is a ${found} record, expected ${expected}`);
  const version = versionOf(found);
  const current = versionOf(expected);
  if (!Number.isInteger(version) || version < 1) throw new RecordError(place, `unknown version "${found}"`);
  if (version > current) {
    throw new RecordError(place, `${found} is newer than this riddle reads (${expected}); upgrade riddle`);
  }
  let upgraded = data as StoredRecord;
  for (let from = version; from < current; from += 1) {
    const step = MIGRATIONS[name]?.[from];
    if (!step) throw new RecordError(place, `no upgrade from ${kind}/${from} to ${kind}/${from + 1}`);
    upgraded = step(upgraded);
  }
  const parsed = RECORD_SCHEMAS[name].schema.safeParse(upgraded);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const at = issue ? issue.path.join('.') || '(root)' : '(root)';
    const read = version === current ? expected : `${found} (read as ${expected})`;
    throw new RecordError(place, `invalid ${read} at ${at}: ${issue?.message ?? 'unknown problem'}`);
  }
  return parsed.data as RecordOf<N>;
}
