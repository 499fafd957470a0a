import type { z } from 'zod';
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

/**
 * Read a stored record of a known kind, upgrading older versions to the current one. Only version 1 exists so
 * far; a newer version than this riddle knows is refused with a message saying so rather than misread.
 */
export function migrate<N extends RecordName>(name: N, data: unknown, place: string): RecordOf<N> {
  const expected = RECORD_SCHEMAS[name].id;
  const found = typeof data === 'object' && data !== null ? (data as { schema?: unknown }).schema : undefined;
  if (typeof found !== 'string')
    throw new RecordError(place, `not a riddle record (no "schema" field; expected ${expected})`);
  const [kind, version] = found.split('/');
  const [expectedKind, expectedVersion] = expected.split('/');
  if (kind !== expectedKind) throw new RecordError(place, `is a ${found} record, expected ${expected}`);
  if (Number(version) > Number(expectedVersion)) {
    throw new RecordError(place, `${found} is newer than this riddle reads (${expected}); upgrade riddle`);
  }
  const parsed = RECORD_SCHEMAS[name].schema.safeParse(data);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const at = issue ? issue.path.join('.') || '(root)' : '(root)';
    throw new RecordError(place, `invalid ${expected} at ${at}: ${issue?.message ?? 'unknown problem'}`);
  }
  return parsed.data as RecordOf<N>;
}
