import { createHash } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { functionSubject, observeAttempt, sqliteObserver } from '../../src/observe/index.js';
import { plan } from './observe-support.js';

const scratch = mkdtempSync(path.join(os.tmpdir(), 'riddle-observe-sqlite-'));
const fixtures = path.join(scratch, 'fixtures');

beforeAll(() => {
  mkdirSync(fixtures);
  const db = new Database(path.join(fixtures, 'shop.db'));
  db.exec(`
    CREATE TABLE orders (id INTEGER PRIMARY KEY, customer TEXT, total REAL);
    CREATE TABLE lines (order_id INTEGER, sku TEXT, qty INTEGER, PRIMARY KEY (order_id, sku)) WITHOUT ROWID;
    CREATE TABLE log (message TEXT, payload BLOB);
    INSERT INTO orders VALUES (1, 'ada', 10.5), (2, 'bob', 20), (3, 'cy', 5);
    INSERT INTO lines VALUES (1, 'A', 1), (1, 'B', 2), (2, 'A', 5);
    INSERT INTO log VALUES ('start', NULL), ('start', NULL);
  `);
  db.close();
  writeFileSync(
    path.join(scratch, 'seed.sql'),
    "CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT); INSERT INTO notes VALUES (1, 'hello');",
  );
});
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const writer = (sql: string, file = 'shop.db') =>
  functionSubject({
    name: 'writer',
    revision: '1',
    run: (_input, { workspace }) => {
      const db = new Database(path.join(workspace!, file));
      try {
        db.exec(sql);
      } finally {
        db.close();
      }
      return 'written';
    },
  });

describe('SQLite observer', () => {
  test('records inserted, updated and deleted rows of declared tables (primary keys, composite keys, rowid)', async () => {
    const subject = writer(`
      INSERT INTO orders VALUES (4, 'dee', 7);
      UPDATE orders SET total = 11 WHERE id = 1;
      DELETE FROM orders WHERE id = 3;
      UPDATE lines SET qty = 3 WHERE order_id = 1 AND sku = 'B';
      DELETE FROM lines WHERE order_id = 2;
      INSERT INTO log VALUES ('paid', x'00ff');
      DELETE FROM log WHERE rowid = 1;
    `);
    const observed = await observeAttempt(
      plan(subject, 'go', {
        fixtures,
        observers: [sqliteObserver({ file: 'shop.db', tables: ['orders', 'lines', 'log'] })],
      }),
    );
    expect(observed.error).toBeNull();
    expect(observed.observation?.rows).toEqual([
      {
        source: 'shop.db',
        table: 'orders',
        inserted: [{ id: 4, customer: 'dee', total: 7 }],
        updated: [{ before: { id: 1, customer: 'ada', total: 10.5 }, after: { id: 1, customer: 'ada', total: 11 } }],
        deleted: [{ id: 3, customer: 'cy', total: 5 }],
      },
      {
        source: 'shop.db',
        table: 'lines',
        inserted: [],
        updated: [{ before: { order_id: 1, sku: 'B', qty: 2 }, after: { order_id: 1, sku: 'B', qty: 3 } }],
        deleted: [{ order_id: 2, sku: 'A', qty: 5 }],
      },
      {
        source: 'shop.db',
        table: 'log',
        inserted: [
          {
            message: 'paid',
            payload: {
              blobSha256: createHash('sha256')
                .update(Buffer.from([0, 0xff]))
                .digest('hex'),
              bytes: 2,
            },
          },
        ],
        updated: [],
        deleted: [{ message: 'start', payload: null }],
      },
    ]);
    expect(observed.observation?.observers).toContainEqual({
      part: 'rows',
      observer: 'sqlite:shop.db',
      grade: 'receipt',
    });
  });

  test('compares declared queries, by key or whole rows (duplicates counted)', async () => {
    const subject = writer(`UPDATE orders SET customer = 'ADA' WHERE id = 1; INSERT INTO log VALUES ('start', NULL);`);
    const observer = sqliteObserver({
      file: 'shop.db',
      queries: {
        customers: { sql: 'SELECT id, customer FROM orders', key: ['id'] },
        messages: { sql: 'SELECT message FROM log' },
      },
    });
    const observed = await observeAttempt(plan(subject, 'go', { fixtures, observers: [observer] }));
    expect(observed.observation?.rows).toEqual([
      {
        source: 'shop.db',
        table: 'customers',
        inserted: [],
        updated: [{ before: { id: 1, customer: 'ada' }, after: { id: 1, customer: 'ADA' } }],
        deleted: [],
      },
      { source: 'shop.db', table: 'messages', inserted: [{ message: 'start' }], updated: [], deleted: [] },
    ]);
  });

  test('a seed creates the database in the sandbox before the first snapshot', async () => {
    const subject = writer(`INSERT INTO notes VALUES (2, 'world');`, 'notes.db');
    const observer = sqliteObserver({ file: 'notes.db', seed: path.join(scratch, 'seed.sql'), tables: ['notes'] });
    const observed = await observeAttempt(plan(subject, 'go', { fixtures, observers: [observer] }));
    expect(observed.observation?.rows).toEqual([
      { source: 'notes.db', table: 'notes', inserted: [{ id: 2, body: 'world' }], updated: [], deleted: [] },
    ]);
    // The seeded file is part of the "before" state: only its change shows.
    expect(observed.observation?.files.map((f) => [f.path, f.change])).toEqual([['notes.db', 'modified']]);
  });

  test('a table the subject creates: every row is inserted', async () => {
    const subject = writer(
      `CREATE TABLE refunds (id INTEGER PRIMARY KEY, amount REAL); INSERT INTO refunds VALUES (1, 9.5);`,
    );
    const observed = await observeAttempt(
      plan(subject, 'go', { fixtures, observers: [sqliteObserver({ file: 'shop.db', tables: ['refunds'] })] }),
    );
    expect(observed.observation?.rows).toEqual([
      { source: 'shop.db', table: 'refunds', inserted: [{ id: 1, amount: 9.5 }], updated: [], deleted: [] },
    ]);
  });

  test('a declared table that never exists is a harness_error, not "no change"', async () => {
    const observed = await observeAttempt(
      plan(writer('SELECT 1;'), 'go', {
        fixtures,
        observers: [sqliteObserver({ file: 'shop.db', tables: ['ordres'] })],
      }),
    );
    expect(observed.status).toBe('harness_error');
    expect(observed.error).toEqual({
      where: 'observer sqlite:shop.db',
      message: expect.stringMatching(/table "ordres" could not be read/),
    });
    expect(observed.observation?.rounds).toHaveLength(1);
  });

  /** A subject that puts something else where the database was. */
  const replacing = (replace: (file: string) => void) =>
    functionSubject({
      name: 'replacer',
      revision: '1',
      run: (_input, { workspace }) => {
        const file = path.join(workspace!, 'shop.db');
        rmSync(file);
        replace(file);
        return 'replaced';
      },
    });

  test("a FIFO the subject leaves in the database's place is not opened: the attempt ends, and says why", async () => {
    // SQLite opens by path and reads at once: on a FIFO, that synchronous call would wait for a writer for good.
    const observed = await observeAttempt(
      plan(
        replacing((file) => execFileSync('mkfifo', [file])),
        'go',
        { fixtures, observers: [sqliteObserver({ file: 'shop.db', tables: ['orders'] })] },
      ),
    );
    expect(observed.status).toBe('harness_error');
    expect(observed.error).toEqual({
      where: 'observer sqlite:shop.db',
      message: 'sqlite:shop.db: shop.db is a FIFO, not a database file: not opened',
    });
  });

  test("a link the subject puts in the database's place is not followed to a database outside its workspace", async () => {
    const outside = path.join(scratch, 'outside.db');
    const db = new Database(outside);
    db.exec(
      "CREATE TABLE IF NOT EXISTS orders (id INTEGER PRIMARY KEY, customer TEXT); INSERT OR IGNORE INTO orders VALUES (9, 'private');",
    );
    db.close();
    const observed = await observeAttempt(
      plan(
        replacing((file) => symlinkSync(outside, file)),
        'go',
        { fixtures, observers: [sqliteObserver({ file: 'shop.db', tables: ['orders'] })] },
      ),
    );
    expect(observed.status).toBe('harness_error');
    expect(observed.error?.message).toBe(
      `sqlite:shop.db: shop.db was replaced by a symbolic link (to ${outside}) during the attempt: not followed`,
    );
    expect(JSON.stringify(observed.observation)).not.toContain('private');
  });

  test("a link that was in place before the attempt (the project's own set-up) is followed", async () => {
    const linked = path.join(scratch, 'linked-fixtures');
    mkdirSync(linked, { recursive: true });
    symlinkSync(path.join(fixtures, 'shop.db'), path.join(linked, 'shop.db'));
    const observed = await observeAttempt(
      plan(writer('SELECT 1;'), 'go', {
        fixtures: linked,
        observers: [sqliteObserver({ file: 'shop.db', tables: ['orders'] })],
      }),
    );
    expect(observed.status).toBe('completed');
    expect(observed.observation?.rows).toEqual([
      { source: 'shop.db', table: 'orders', inserted: [], updated: [], deleted: [] },
    ]);
  });

  test('declaring nothing to compare is a configuration mistake, caught at once', () => {
    expect(() => sqliteObserver({ file: 'shop.db' })).toThrow(/declare the tables or queries/);
  });
});
