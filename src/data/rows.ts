import type { z } from 'zod';
import { describeValue, didYouMean } from '../model/suggest.js';
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

const OPTIONS: readonly (keyof ValidateOptions)[] = ['unique'];

/**
 * A loader's options, checked as a factory's are: a misspelt option or a `unique` that is not a column name would
 * otherwise turn the duplicate check off without a word. A programmer's mistake, so a TypeError at the call.
 */
export function checkValidateOptions(loader: string, options: unknown): void {
  if (typeof options !== 'object' || options === null || Array.isArray(options))
    throw new TypeError(`${loader}: options must be an object such as { unique: 'id' }, got ${describeValue(options)}`);
  for (const key of Object.keys(options)) {
    if (OPTIONS.includes(key as keyof ValidateOptions)) continue;
    const guess = didYouMean(key, OPTIONS);
    throw new TypeError(
      `${loader}: unknown option "${key}"${guess ? `; did you mean "${guess}"?` : ''} (options: ${OPTIONS.join(', ')})`,
    );
  }
  const { unique } = options as Record<string, unknown>;
  if (unique !== undefined && (typeof unique !== 'string' || unique === ''))
    throw new TypeError(`${loader}: unique must be a column name, got ${describeValue(unique)}`);
}

/** A row's value in the `unique` column: its text, or why it cannot be checked (no such column, not text). */
function uniqueCell(value: unknown, column: string): { key: string } | { missing: true } | { problem: string } {
  if (typeof value !== 'object' || value === null || !Object.hasOwn(value, column)) return { missing: true };
  const cell: unknown = (value as Record<string, unknown>)[column];
  if (typeof cell === 'string' || typeof cell === 'number') return { key: String(cell) };
  return { problem: `expected text or a number to check as unique, got ${describeValue(cell)}` };
}

/** The problem of a `unique` column no row has: the file's columns, and the one it most likely meant. */
function noSuchColumn(file: string, column: string, rows: readonly RawRow[]): DatasetIssue {
  const first = rows[0]?.value;
  const columns = typeof first === 'object' && first !== null ? Object.keys(first) : [];
  const guess = didYouMean(column, columns);
  return {
    file,
    line: null,
    row: null,
    column: null,
    message: `unique: no row has a column "${column}"${guess ? `; did you mean "${guess}"?` : ''} (the rows have: ${columns.join(', ')})`,
  };
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
  checkValidateOptions('validateRows', options);
  const issues: DatasetIssue[] = [];
  const parsed: z.output<S>[] = [];
  const firstRow = new Map<string, number>();
  const unique = options.unique;
  // Rows without the column: every row (a misspelt column) is one problem of the file; some rows, one each.
  const lacking: RawRow[] = [];
  for (const raw of rows) {
    const result = schema.safeParse(raw.value);
    if (result.success) parsed.push(result.data);
    else {
      for (const issue of result.error.issues) {
        issues.push({ file, line: raw.line, row: raw.row, column: pathOf(issue.path), message: issue.message });
      }
    }
    if (unique === undefined) continue;
    const cell = uniqueCell(raw.value, unique);
    if ('missing' in cell) lacking.push(raw);
    else if ('problem' in cell)
      issues.push({ file, line: raw.line, row: raw.row, column: unique, message: cell.problem });
    else {
      const earlier = firstRow.get(cell.key);
      if (earlier === undefined) firstRow.set(cell.key, raw.row);
      else
        issues.push({
          file,
          line: raw.line,
          row: raw.row,
          column: unique,
          message: `${JSON.stringify(cell.key)} repeats row ${earlier}; ${unique} must be unique`,
        });
    }
  }
  if (unique !== undefined && lacking.length > 0) {
    if (lacking.length === rows.length) issues.unshift(noSuchColumn(file, unique, rows));
    else
      for (const raw of lacking)
        issues.push({
          file,
          line: raw.line,
          row: raw.row,
          column: unique,
          message: `has no ${unique} to check as unique; every row needs one`,
        });
  }
  if (issues.length) throw new DatasetError(issues);
  return parsed;
}
