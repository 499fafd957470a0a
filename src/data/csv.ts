import { DatasetError, type DatasetIssue } from './errors.js';

/** One data record of a CSV file, with where it starts. */
export interface CsvRow {
  /** 1-based data row (the header is not counted). */
  row: number;
  /** 1-based line of the file where the record starts (a quoted field may span lines). */
  line: number;
  /** Cell text by column name, exactly as written (quotes removed, `""` unescaped). */
  values: Record<string, string>;
}

export interface CsvTable {
  columns: string[];
  rows: CsvRow[];
}

interface RawRecord {
  line: number;
  fields: string[];
}

/**
 * Split CSV text into records (RFC 4180): fields separated by commas, records by CRLF or LF, a field in double
 * quotes may hold commas, quotes (doubled) and line breaks. A leading UTF-8 byte-order mark is dropped and empty
 * lines are skipped. A quote inside an unquoted field, text after a closing quote and an unterminated quote are
 * errors, because each of them usually means a row was cut or merged.
 */
function splitRecords(text: string, file: string): RawRecord[] {
  const records: RawRecord[] = [];
  const issues: DatasetIssue[] = [];
  const body = text.startsWith('\uFEFF') ? text.slice(1) : text;
  let fields: string[] = [];
  let field = '';
  let line = 1;
  let recordLine = 1;
  let column = 1;
  let quotedInRecord = false;
  let i = 0;
  const endField = () => {
    fields.push(field);
    field = '';
  };
  const endRecord = () => {
    endField();
    if (quotedInRecord || !(fields.length === 1 && fields[0] === '')) records.push({ line: recordLine, fields });
    fields = [];
    quotedInRecord = false;
  };
  const fail = (message: string) => issues.push({ file, line, row: null, column: null, message });
  while (i < body.length) {
    const char = body[i];
    if (char === '"' && field === '') {
      const opened = line;
      quotedInRecord = true;
      i++;
      for (;;) {
        if (i >= body.length) {
          issues.push({
            file,
            line: opened,
            row: null,
            column: null,
            message: `the quote opening field ${column} here is never closed`,
          });
          throwIssues(issues);
        }
        const inner = body[i];
        if (inner === '"') {
          if (body[i + 1] === '"') {
            field += '"';
            i += 2;
            continue;
          }
          i++;
          break;
        }
        if (inner === '\n') line++;
        field += inner;
        i++;
      }
      const next = body[i];
      if (next !== undefined && next !== ',' && next !== '\n' && !(next === '\r' && body[i + 1] === '\n')) {
        fail(`field ${column}: text after the closing quote (a quote inside a quoted field must be doubled: "")`);
        while (i < body.length && body[i] !== ',' && body[i] !== '\n') i++;
      }
      continue;
    }
    if (char === ',') {
      endField();
      column++;
      i++;
    } else if (char === '\n' || (char === '\r' && body[i + 1] === '\n')) {
      endRecord();
      i += char === '\r' ? 2 : 1;
      line++;
      recordLine = line;
      column = 1;
    } else {
      if (char === '"')
        fail(`field ${column}: a quote inside an unquoted field (quote the whole field and double the quote)`);
      field += char;
      i++;
    }
  }
  if (field !== '' || fields.length > 0 || quotedInRecord) endRecord();
  return issues.length ? throwIssues(issues) : records;
}

function throwIssues(issues: readonly DatasetIssue[]): never {
  throw new DatasetError(issues);
}

/** Parse CSV text whose first record is the header; `file` names the source in errors. */
export function parseCsv(text: string, file: string): CsvTable {
  const [header, ...records] = splitRecords(text, file);
  if (!header)
    throwIssues([{ file, line: null, row: null, column: null, message: 'the file is empty: a header row is needed' }]);
  const columns = header.fields;
  const issues: DatasetIssue[] = [];
  const seen = new Set<string>();
  for (const [index, name] of columns.entries()) {
    if (name === '')
      issues.push({ file, line: header.line, row: null, column: null, message: `header field ${index + 1} is empty` });
    else if (seen.has(name))
      issues.push({ file, line: header.line, row: null, column: name, message: 'the header names this column twice' });
    seen.add(name);
  }
  const rows: CsvRow[] = [];
  for (const [index, record] of records.entries()) {
    const row = index + 1;
    if (record.fields.length !== columns.length) {
      issues.push({
        file,
        line: record.line,
        row,
        column: null,
        message: `${record.fields.length} fields, the header has ${columns.length}`,
      });
      continue;
    }
    rows.push({
      row,
      line: record.line,
      values: Object.fromEntries(columns.map((name, c) => [name, record.fields[c] ?? ''])),
    });
  }
  if (issues.length) throwIssues(issues);
  return { columns, rows };
}
