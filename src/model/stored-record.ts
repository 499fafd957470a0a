/** A stored record as read from JSON, before it is validated, and the small walks every upgrade step makes over it. */
export type StoredRecord = Record<string, unknown>;

export const isRecord = (value: unknown): value is StoredRecord =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** Apply `change` to each object of an array field; anything else is left for the schema to reject. */
export const eachOf = (value: unknown, change: (item: StoredRecord) => StoredRecord): unknown =>
  Array.isArray(value) ? value.map((item) => (isRecord(item) ? change(item) : item)) : value;

/** An object field changed in place when it is an object; left alone otherwise. */
export const within = (value: unknown, change: (item: StoredRecord) => StoredRecord): unknown =>
  isRecord(value) ? change(value) : value;
