import { readFileSync } from 'node:fs';
import type { z } from 'zod';
import { parseCsv } from './csv.js';
import { DatasetError } from './errors.js';
import { checkValidateOptions, validateRows, type ValidateOptions } from './rows.js';

function read(file: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new DatasetError([{ file, line: null, row: null, column: null, message: `cannot read the file: ${reason}` }]);
  }
}

/**
 * Load a CSV file (RFC 4180, header row first) and validate each row, a `{ column: text }` object, against
 * `schema`. Cells are strings: declare numbers and booleans with `z.coerce` or a transform.
 */
export function loadCsv<S extends z.ZodType>(file: string, schema: S, options: ValidateOptions = {}): z.output<S>[] {
  checkValidateOptions('loadCsv', options);
  const table = parseCsv(read(file), file);
  return validateRows(
    file,
    table.rows.map((r) => ({ row: r.row, line: r.line, value: r.values })),
    schema,
    options,
  );
}

/** Load a JSON file holding an array of rows and validate each against `schema`. */
export function loadJson<S extends z.ZodType>(file: string, schema: S, options: ValidateOptions = {}): z.output<S>[] {
  checkValidateOptions('loadJson', options);
  let data: unknown;
  try {
    data = JSON.parse(read(file));
  } catch (error) {
    if (error instanceof DatasetError) throw error;
    throw new DatasetError([
      { file, line: null, row: null, column: null, message: `not JSON: ${(error as Error).message}` },
    ]);
  }
  if (!Array.isArray(data)) {
    throw new DatasetError([{ file, line: null, row: null, column: null, message: 'expected a JSON array of rows' }]);
  }
  return validateRows(
    file,
    data.map((value: unknown, index) => ({ row: index + 1, line: null, value })),
    schema,
    options,
  );
}
