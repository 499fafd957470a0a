import { describe, expect, test } from 'vitest';
import { DatasetError, parseCsv } from '../../../src/data/index.js';

const issuesOf = (run: () => unknown) => {
  try {
    run();
  } catch (error) {
    if (error instanceof DatasetError) return error.issues;
    throw error;
  }
  throw new Error('expected a DatasetError');
};

describe('parseCsv (RFC 4180)', () => {
  test('reads a header and rows into objects by column name', () => {
    const table = parseCsv('id,name\n1,ada\n2,grace\n', 'people.csv');
    expect(table.columns).toEqual(['id', 'name']);
    expect(table.rows).toEqual([
      { row: 1, line: 2, values: { id: '1', name: 'ada' } },
      { row: 2, line: 3, values: { id: '2', name: 'grace' } },
    ]);
  });

  test('quoted fields keep commas, doubled quotes and line breaks; lines are counted inside them', () => {
    const text = 'id,text,note\r\n1,"a, b","say ""hi"""\r\n2,"two\nlines\r\nthree",x\r\n3,"",\r\n';
    const { rows } = parseCsv(text, 'q.csv');
    expect(rows.map((r) => r.values)).toEqual([
      { id: '1', text: 'a, b', note: 'say "hi"' },
      { id: '2', text: 'two\nlines\r\nthree', note: 'x' },
      { id: '3', text: '', note: '' },
    ]);
    expect(rows.map((r) => r.line)).toEqual([2, 3, 6]);
  });

  test('drops a byte-order mark, accepts a missing final newline, skips empty lines', () => {
    const { columns, rows } = parseCsv('\uFEFFa,b\n\n1,2\n\n3,4', 'bom.csv');
    expect(columns).toEqual(['a', 'b']);
    expect(rows.map((r) => [r.row, r.line, r.values.a])).toEqual([
      [1, 3, '1'],
      [2, 5, '3'],
    ]);
  });

  test('an empty quoted field is a value, not an empty line, even alone on the last line', () => {
    expect(parseCsv('note\n""\nx\n""', 'one.csv').rows.map((r) => r.values.note)).toEqual(['', 'x', '']);
  });

  test('a quote opening a field only counts at the start of the field', () => {
    expect(issuesOf(() => parseCsv('a,b\n1,5" screen\n', 'bare.csv'))).toEqual([
      {
        file: 'bare.csv',
        line: 2,
        row: null,
        column: null,
        message: expect.stringContaining('a quote inside an unquoted field'),
      },
    ]);
  });

  test('names the line where an unterminated quote opened', () => {
    const [issue] = issuesOf(() => parseCsv('a,b\n1,ok\n2,"never closed\nstill\n', 'open.csv'));
    expect(issue).toMatchObject({ file: 'open.csv', line: 3, message: expect.stringContaining('field 2') });
  });

  test('text after a closing quote is an error, not silently joined', () => {
    const [issue] = issuesOf(() => parseCsv('a,b\n"x"y,1\n', 't.csv'));
    expect(issue).toMatchObject({ line: 2, message: expect.stringContaining('after the closing quote') });
  });

  test('a row with the wrong number of fields names its row and line; every such row is reported', () => {
    const issues = issuesOf(() => parseCsv('a,b,c\n1,2,3\n1,2\n"multi\nline",2,3,4\n', 'count.csv'));
    expect(issues).toEqual([
      { file: 'count.csv', line: 3, row: 2, column: null, message: '2 fields, the header has 3' },
      { file: 'count.csv', line: 4, row: 3, column: null, message: '4 fields, the header has 3' },
    ]);
  });

  test('rejects an empty file, an empty header field and a repeated column', () => {
    expect(issuesOf(() => parseCsv('', 'e.csv'))[0]?.message).toMatch(/empty/);
    expect(issuesOf(() => parseCsv('a,,a\n1,2,3\n', 'h.csv')).map((i) => [i.column, i.message])).toEqual([
      [null, 'header field 2 is empty'],
      ['a', 'the header names this column twice'],
    ]);
  });

  test('the error message lists file:line, row and column', () => {
    expect(() => parseCsv('a,b\n1\n', 'dir/f.csv')).toThrow('dir/f.csv:2 row 1: 1 fields, the header has 2');
  });
});
