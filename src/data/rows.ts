import type { z } from 'zod';
import { DatasetError, type DatasetIssue } from './errors.js';

/** One raw row to validate, with where it came from. */
export interface RawRow {
  /** 1-based data row. */
  row: number;
  /** 1-based line where the row starts; null when the format has no lines. */
  line: number | null;
  value: unknown;
}

export interface ValidateOptions {
  /** A column whose values must be unique (a row id): a repeat is reported with both rows. */
  unique?: string;
}

function pathOf(path: readonly PropertyKey[]): string | null {
  return path.length === 0 ? null : path.map((key) => String(key)).join('.');
}

function uniqueValue(value: unknown, column: string): string | null {
  if (typeof value !== 'object' || value === null || !(column in value)) return null;
  const cell: unknown = (value as Record<string, unknown>)[column];
  return typeof cell === 'string' || typeof cell === 'number' ? String(cell) : null;
}

/**
 * Validate every row against a zod schema and return the parsed rows in order. Every bad row is reported (file,
 * line, row, column and zod's message) in one DatasetError, so one run shows all that needs fixing.
 */
export function validateRows<S extends z.ZodType>(
  file: string,
  rows: readonly RawRow[],
  schema: S,
  options: ValidateOptions = {},
): z.output<S>[] {
  const issues: DatasetIssue[] = [];
  const parsed: z.output<S>[] = [];
  const firstRow = new Map<string, number>();
  for (const raw of rows) {
    const result = schema.safeParse(raw.value);
    if (result.success) parsed.push(result.data);
    else {
      for (const issue of result.error.issues) {
        issues.push({ file, line: raw.line, row: raw.row, column: pathOf(issue.path), message: issue.message });
      }
    }
    if (options.unique !== undefined) {
      const key = uniqueValue(raw.value, options.unique);
      if (key === null) continue;
      const earlier = firstRow.get(key);
      if (earlier === undefined) firstRow.set(key, raw.row);
      else
        issues.push({
          file,
          line: raw.line,
          row: raw.row,
          column: options.unique,
          message: `${JSON.stringify(key)} repeats row ${earlier}; ${options.unique} must be unique`,
        });
    }
  }
  if (issues.length) throw new DatasetError(issues);
  return parsed;
}
