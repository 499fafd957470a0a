import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { z } from 'zod';
import { DatasetError, loadCsv, loadJson } from '../../../src/data/index.js';

const dir = mkdtempSync(path.join(os.tmpdir(), 'riddle-data-'));
function file(name: string, text: string): string {
  const full = path.join(dir, name);
  writeFileSync(full, text);
  return full;
}

const Row = z.object({
  id: z.coerce.number().int().min(1),
  label: z.enum(['safe', 'unsafe']),
  prompt: z.string().min(1),
});

function caught(run: () => unknown): DatasetError {
  try {
    run();
  } catch (error) {
    if (error instanceof DatasetError) return error;
    throw error;
  }
  throw new Error('expected a DatasetError');
}

describe('loadCsv', () => {
  test('validates and converts each row with the schema', () => {
    const rows = loadCsv(file('ok.csv', 'id,label,prompt\n1,safe,"How do I kill a process?"\n2,unsafe,x\n'), Row);
    expect(rows).toEqual([
      { id: 1, label: 'safe', prompt: 'How do I kill a process?' },
      { id: 2, label: 'unsafe', prompt: 'x' },
    ]);
  });

  test('reports every bad row with file, line, row and column', () => {
    const bad = file('bad.csv', 'id,label,prompt\n1,safe,"two\nlines"\n2,maybe,x\nzero,unsafe,\n');
    const error = caught(() => loadCsv(bad, Row));
    expect(error.issues.map((i) => [i.file, i.line, i.row, i.column])).toEqual([
      [bad, 4, 2, 'label'],
      [bad, 5, 3, 'id'],
      [bad, 5, 3, 'prompt'],
    ]);
    expect(error.message).toContain(`${bad}:4 row 2 column "label":`);
  });

  test('a column missing from the file is reported as that column of every row', () => {
    const error = caught(() => loadCsv(file('short.csv', 'id,label\n1,safe\n'), Row));
    expect(error.issues).toEqual([expect.objectContaining({ row: 1, column: 'prompt' })]);
  });

  test('`unique` names the row that repeats an id and the row it repeats', () => {
    const error = caught(() =>
      loadCsv(file('dup.csv', 'id,label,prompt\n7,safe,a\n8,safe,b\n7,unsafe,c\n'), Row, { unique: 'id' }),
    );
    expect(error.issues).toEqual([
      expect.objectContaining({ line: 4, row: 3, column: 'id', message: '"7" repeats row 1; id must be unique' }),
    ]);
  });

  test('a `unique` column no row has is named with the columns there are, not a duplicate check turned off', () => {
    const dup = file('dup-typo.csv', 'id,label,prompt\n1,safe,a\n2,safe,b\n2,unsafe,c\n');
    const error = caught(() => loadCsv(dup, Row, { unique: 'idd' }));
    expect(error.issues).toEqual([
      expect.objectContaining({
        row: null,
        message: 'unique: no row has a column "idd"; did you mean "id"? (the rows have: id, label, prompt)',
      }),
    ]);
  });

  test('a misspelt option, or a `unique` that is not a name, is a TypeError at the call', () => {
    const ok = file('ok2.csv', 'id,label,prompt\n1,safe,a\n');
    expect(() => loadCsv(ok, Row, { uniqe: 'id' } as never)).toThrow(
      'loadCsv: unknown option "uniqe"; did you mean "unique"? (options: unique)',
    );
    expect(() => loadJson(ok, Row, { unique: 3 } as never)).toThrow(
      'loadJson: unique must be a column name, got the number 3',
    );
  });

  test('an unreadable file is a DatasetError naming it', () => {
    const missing = path.join(dir, 'nope.csv');
    expect(caught(() => loadCsv(missing, Row)).issues[0]).toMatchObject({
      file: missing,
      row: null,
      message: expect.stringContaining('cannot read'),
    });
  });
});

describe('loadJson', () => {
  test('validates an array of rows; a bad row names its index and the property path', () => {
    expect(loadJson(file('ok.json', JSON.stringify([{ id: 1, label: 'safe', prompt: 'p' }])), Row)).toEqual([
      { id: 1, label: 'safe', prompt: 'p' },
    ]);
    const Nested = z.object({ id: z.string(), tags: z.object({ type: z.string() }) });
    const error = caught(() =>
      loadJson(
        file(
          'bad.json',
          JSON.stringify([
            { id: 'a', tags: { type: 't' } },
            { id: 'b', tags: { type: 3 } },
          ]),
        ),
        Nested,
      ),
    );
    expect(error.issues).toEqual([expect.objectContaining({ line: null, row: 2, column: 'tags.type' })]);
  });

  test('`unique` names each row without the column, or whose value cannot be compared', () => {
    const Loose = z.object({ id: z.unknown().optional(), prompt: z.string() });
    const rows = file(
      'loose.json',
      JSON.stringify([{ id: 'a', prompt: 'x' }, { prompt: 'y' }, { id: null, prompt: 'z' }]),
    );
    expect(caught(() => loadJson(rows, Loose, { unique: 'id' })).issues).toEqual([
      expect.objectContaining({
        row: 3,
        column: 'id',
        message: 'expected text or a number to check as unique, got null',
      }),
      expect.objectContaining({ row: 2, column: 'id', message: 'has no id to check as unique; every row needs one' }),
    ]);
  });

  test('rejects text that is not JSON, or JSON that is not an array', () => {
    expect(caught(() => loadJson(file('broken.json', '[{'), Row)).issues[0]?.message).toMatch(/^not JSON/);
    expect(caught(() => loadJson(file('object.json', '{}'), Row)).issues[0]?.message).toBe(
      'expected a JSON array of rows',
    );
  });
});
