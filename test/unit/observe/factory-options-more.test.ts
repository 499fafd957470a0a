import { describe, expect, it } from 'vitest';
import type { RecordedConversation } from '../../../src/model/index.js';
import {
  sqliteObserver,
  trajectorySubject,
  type SqliteObserverOptions,
  type TrajectorySubjectOptions,
} from '../../../src/observe/index.js';

// An options object as a JavaScript caller (or a cast) may pass it: the checks run on what arrives, not on the types.
const trajectory = (options: Record<string, unknown>) =>
  trajectorySubject(options as unknown as TrajectorySubjectOptions);
const sqlite = (options: Record<string, unknown>) => sqliteObserver(options as unknown as SqliteObserverOptions);

const conversation = {
  rounds: [{ input: 'Cancel ABC123', toolCalls: [], reply: 'Done.' }],
} as unknown as RecordedConversation;
const runs = new Map([['task-1', [conversation]]]);
const tools = { cancel_reservation: 'write' } as const;

describe('trajectorySubject checks its options', () => {
  it('names a misspelt independence, rather than leaving it undeclared', () => {
    expect(() => trajectory({ name: 'tau', runs, tools, independance: 'recorded-samples' })).toThrow(
      new TypeError(
        'trajectorySubject("tau"): independance: is not an option; did you mean "independence"? Accepted: name, revision, runs, tools, failed, independence\n' +
          '  also independence: is missing: expected one of recorded-samples, not-independent',
      ),
    );
  });

  it('says what a mistyped option should be', () => {
    expect(() =>
      trajectory({ name: 'tau', runs, tools: { cancel_reservation: 'wirte' }, independence: 'recorded-samples' }),
    ).toThrow(
      "trajectorySubject(\"tau\"): tools.cancel_reservation: got the string 'wirte'; did you mean 'write'? Accepted: none, read, write, external, irreversible",
    );
    expect(() =>
      trajectory({ name: 'tau', runs: { 'task-1': [conversation] }, tools, independence: 'recorded-samples' }),
    ).toThrow('trajectorySubject("tau"): runs: expected a Map of recorded conversations by Case id, got an object');
  });

  it('accepts correct options', async () => {
    const recorded = trajectorySubject({ name: 'tau', revision: '1', runs, tools, independence: 'recorded-samples' });
    expect(recorded.tools.map((t) => [t.name, t.effect])).toEqual([['cancel_reservation', 'write']]);
    expect(await recorded.subject.identify()).toMatchObject({ kind: 'replay', revision: '1' });
  });
});

describe('sqliteObserver checks its options', () => {
  it('names misspelt tables, rather than saying none were declared', () => {
    expect(() => sqlite({ file: 'shop.db', tabels: ['orders'] })).toThrow(
      new TypeError(
        'sqliteObserver: tabels: is not an option; did you mean "tables"? Accepted: file, tables, queries, seed',
      ),
    );
  });

  it('says what a mistyped option should be', () => {
    expect(() => sqlite({ file: 'shop.db', tables: 'orders' })).toThrow(
      "sqliteObserver: tables: expected an array of table names, got the string 'orders'",
    );
    expect(() => sqlite({ file: 'shop.db', queries: { open: { sql: 'SELECT 1', keys: ['id'] } } })).toThrow(
      'sqliteObserver: queries.open.keys: is not an option; did you mean "key"? Accepted: sql, key',
    );
  });

  it('accepts correct options', () => {
    const observer = sqliteObserver({
      file: 'shop.db',
      tables: ['orders'],
      queries: { open: { sql: 'SELECT id FROM orders', key: ['id'] } },
    });
    expect(observer.name).toBe('sqlite:shop.db');
  });
});
