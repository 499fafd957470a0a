import { createHash } from 'node:crypto';
import { existsSync, lstatSync, readlinkSync, statSync, type Stats } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type BetterSqlite3 from 'better-sqlite3';
import { canonicalJson, type JsonValue, type RowChanges } from '../model/index.js';
import { listOf, nonEmpty, object, optional, optionsChecker, recordOf, text } from '../model/options-check.js';
import type { RowObserver } from './subject.js';

export interface SqliteObserverOptions {
  /** The database file, relative to the attempt's workspace (or absolute). */
  file: string;
  /** Tables compared whole, rows identified by primary key (rowid when none is declared). */
  tables?: readonly string[];
  /** Named read-only queries whose rows are compared; `key` names the columns identifying a row (else rows are compared whole: inserted and deleted only). */
  queries?: Readonly<Record<string, { sql: string; key?: readonly string[] }>>;
  /** SQL file (absolute path) that creates the database when the workspace does not hold it yet; run before the first snapshot. */
  seed?: string;
}

type QueryOption = NonNullable<SqliteObserverOptions['queries']>[string];

const checkOptions = optionsChecker<SqliteObserverOptions>(
  'sqliteObserver',
  {
    file: nonEmpty,
    tables: optional(listOf(text, 'an array of table names')),
    queries: optional(
      recordOf(
        object<QueryOption>({ sql: nonEmpty, key: optional(listOf(text, 'an array of column names')) }),
        'an object of queries { sql, key } by name',
      ),
    ),
    seed: optional(nonEmpty),
  },
  // It has no name: the message names the factory only (the file is named where a problem is about it).
  'name',
);

type Row = { [column: string]: JsonValue };
/** Rows of one table or query by identifying key (canonical JSON); `null` when the table did not exist. */
type Snapshot = Map<string, Map<string, Row> | null>;

type Database = BetterSqlite3.Database;
type DatabaseConstructor = new (file: string, options?: BetterSqlite3.Options) => Database;

async function loadDriver(): Promise<DatabaseConstructor> {
  try {
    return (await import('better-sqlite3')).default;
  } catch {
    throw new Error(
      'the SQLite observer needs the better-sqlite3 package (version 12): npm install --save-dev better-sqlite3@12',
    );
  }
}

const quote = (identifier: string) => `"${identifier.replaceAll('"', '""')}"`;

/** SQLite values as JSON: integers past 2^53 as strings, blobs by hash and size. */
function jsonOf(value: unknown): JsonValue {
  if (typeof value === 'bigint') return value.toString();
  if (Buffer.isBuffer(value))
    return { blobSha256: createHash('sha256').update(value).digest('hex'), bytes: value.length };
  if (typeof value === 'number' || typeof value === 'string' || value === null) return value;
  return String(value);
}

function rowOf(raw: Record<string, unknown>, skip: string | null): Row {
  const row: Row = {};
  for (const [column, value] of Object.entries(raw)) if (column !== skip) row[column] = jsonOf(value);
  return row;
}

const ROWID = '__riddle_rowid';

function readTable(db: Database, table: string): Map<string, Row> | null {
  const exists = db.prepare(`SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?`).get(table);
  if (exists === undefined) return null;
  const columns = db.prepare(`PRAGMA table_info(${quote(table)})`).all() as { name: string; pk: number }[];
  const keys = columns
    .filter((c) => c.pk > 0)
    .sort((a, b) => a.pk - b.pk)
    .map((c) => c.name);
  const sql = keys.length > 0 ? `SELECT * FROM ${quote(table)}` : `SELECT rowid AS ${ROWID}, * FROM ${quote(table)}`;
  const rows = new Map<string, Row>();
  for (const raw of db.prepare(sql).all() as Record<string, unknown>[]) {
    const key = keys.length > 0 ? canonicalJson(keys.map((k) => jsonOf(raw[k]))) : canonicalJson(jsonOf(raw[ROWID]));
    rows.set(key, rowOf(raw, keys.length > 0 ? null : ROWID));
  }
  return rows;
}

function readQuery(db: Database, sql: string, key: readonly string[] | undefined): Map<string, Row> {
  const rows = new Map<string, Row>();
  const seen = new Map<string, number>();
  for (const raw of db.prepare(sql).all() as Record<string, unknown>[]) {
    const row = rowOf(raw, null);
    let id = canonicalJson(key === undefined ? row : key.map((k) => row[k] ?? null));
    if (key === undefined) {
      // Whole-row identity: equal rows are told apart by their count, so duplicates are not lost.
      const n = (seen.get(id) ?? 0) + 1;
      seen.set(id, n);
      id = `${id}#${n}`;
    }
    rows.set(id, row);
  }
  return rows;
}

function compare(source: string, table: string, before: Map<string, Row>, after: Map<string, Row>): RowChanges {
  const changes: RowChanges = { source, table, inserted: [], updated: [], deleted: [] };
  for (const [key, row] of after) {
    const was = before.get(key);
    if (was === undefined) changes.inserted.push(row);
    else if (canonicalJson(was) !== canonicalJson(row)) changes.updated.push({ before: was, after: row });
  }
  for (const [key, row] of before) if (!after.has(key)) changes.deleted.push(row);
  return changes;
}

/** What lies at the database's path, looked at without following a link: SQLite opens it by path, following links. */
interface Place {
  kind: 'missing' | 'file' | 'link' | 'other';
  /** A link's own text. */
  target: string | null;
  /** For `other`: what it is, in words. */
  what: string;
}

function kindOf(info: Stats): string {
  if (info.isFIFO()) return 'a FIFO';
  if (info.isSocket()) return 'a socket';
  if (info.isCharacterDevice() || info.isBlockDevice()) return 'a device';
  if (info.isDirectory()) return 'a folder';
  return 'not a regular file';
}

function placeOf(file: string): Place {
  let info: Stats;
  try {
    info = lstatSync(file);
  } catch {
    return { kind: 'missing', target: null, what: '' };
  }
  if (info.isFile()) return { kind: 'file', target: null, what: '' };
  if (!info.isSymbolicLink()) return { kind: 'other', target: null, what: kindOf(info) };
  const target = readlinkSync(file);
  let reached: Stats;
  try {
    reached = statSync(file);
  } catch {
    return { kind: 'missing', target, what: '' };
  }
  return reached.isFile()
    ? { kind: 'link', target, what: '' }
    : { kind: 'other', target, what: `a link to ${kindOf(reached)}` };
}

/**
 * The database's path as the snapshot may open it. Anything but a regular file is refused: opening a FIFO to read
 * waits until something writes to it, in a synchronous call that would hold the worker for good. A link is followed
 * only when it was there, to the same target, before the attempt (the project's own set-up): one the subject put in
 * place could show the rows of any database outside its workspace.
 */
function checkPlace(name: string, file: string, place: Place, before: Place | null): void {
  if (place.kind === 'other') throw new Error(`${name}: ${file} is ${place.what}, not a database file: not opened`);
  if (place.kind === 'link' && before !== null && (before.kind !== 'link' || before.target !== place.target))
    throw new Error(
      `${name}: ${file} was replaced by a symbolic link (to ${place.target}) during the attempt: not followed`,
    );
}

/**
 * Watch a SQLite database: snapshot the declared tables and queries before the attempt and after it, and record
 * the rows inserted, updated and deleted. The database is opened read-only for each snapshot and closed at once,
 * so the subject is never locked out. A declared table that exists neither before nor after is a harness error
 * (a misspelt name must not pass as "no change").
 */
export function sqliteObserver(options: SqliteObserverOptions): RowObserver {
  checkOptions(options);
  const tables = options.tables ?? [];
  const queries = Object.entries(options.queries ?? {});
  if (tables.length === 0 && queries.length === 0)
    throw new Error(`sqliteObserver(${options.file}): declare the tables or queries to compare`);
  const name = `sqlite:${options.file}`;
  return {
    name,
    async start(workspace) {
      const Driver = await loadDriver();
      const file = path.resolve(workspace ?? process.cwd(), options.file);
      if (options.seed !== undefined && !existsSync(file)) {
        const sql = await readFile(options.seed, 'utf8');
        const db = new Driver(file);
        try {
          db.exec(sql);
        } finally {
          db.close();
        }
      }
      /** The rows at `place` (what is at the file's path now), checked against what was there `before`. */
      const snapshot = (place: Place, before: Place | null): Snapshot => {
        const result: Snapshot = new Map();
        checkPlace(name, options.file, place, before);
        if (place.kind === 'missing') {
          for (const table of tables) result.set(`table:${table}`, null);
          for (const [query] of queries) result.set(`query:${query}`, null);
          return result;
        }
        const db = new Driver(file, { readonly: true, fileMustExist: true });
        try {
          for (const table of tables) result.set(`table:${table}`, readTable(db, table));
          for (const [query, { sql, key }] of queries) result.set(`query:${query}`, readQuery(db, sql, key));
        } finally {
          db.close();
        }
        return result;
      };
      const placeBefore = placeOf(file);
      const before = snapshot(placeBefore, null);
      return async () => {
        const after = snapshot(placeOf(file), placeBefore);
        const changes: RowChanges[] = [];
        for (const [id, rowsAfter] of after) {
          const rowsBefore = before.get(id) ?? null;
          const label = id.slice(id.indexOf(':') + 1);
          if (rowsBefore === null && rowsAfter === null) {
            throw new Error(
              `${name}: ${id.startsWith('table:') ? 'table' : 'query'} "${label}" could not be read before or after the attempt (no such table, or no database at ${options.file})`,
            );
          }
          changes.push(compare(options.file, label, rowsBefore ?? new Map(), rowsAfter ?? new Map()));
        }
        return changes;
      };
    },
  };
}
