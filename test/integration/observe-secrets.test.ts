import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import {
  captureEnvironment,
  commandSubject,
  functionSubject,
  observeAttempt,
  sqliteObserver,
  type ObservedAttempt,
  type ToolDefinition,
} from '../../src/observe/index.js';
import { plan, repoPath, SCRIPTED } from './observe-support.js';

// Fake secrets planted in the environment: by name (key, token, password, secret, credential) and by value
// (known key prefixes under an innocent name). None may appear in anything a run keeps.
const planted: Record<string, string> = {
  RIDDLE_PLANTED_API_KEY: 'planted-api-key-value-0001',
  RIDDLE_PLANTED_TOKEN: 'planted-token-value-0002',
  RIDDLE_PLANTED_PASSWORD: 'planted-password-value-0003',
  RIDDLE_PLANTED_SECRET: 'planted-secret-value-0004',
  RIDDLE_PLANTED_CREDENTIAL: 'planted-credential-value-0005',
  RIDDLE_PLANTED_INNOCENT: 'sk-plantedOpenAiStyleKey0006abcdef',
  RIDDLE_PLANTED_GITHUB: 'ghp_plantedGithubStyleToken0007abcdefgh',
  // Secret by the credentials in its value; its password alone must not leak either.
  RIDDLE_PLANTED_DATABASE_URL: 'postgres://admin:planted-db-password-0008@db.internal/app',
};
const names = Object.keys(planted);
const scratch = mkdtempSync(path.join(os.tmpdir(), 'riddle-observe-secrets-'));
const fixtures = path.join(scratch, 'fixtures');
const artifacts = path.join(scratch, 'artifacts');

beforeAll(() => {
  Object.assign(process.env, planted);
  spawnSync('mkdir', ['-p', fixtures, artifacts]);
  const db = new Database(path.join(fixtures, 'app.db'));
  db.exec('CREATE TABLE settings (name TEXT PRIMARY KEY, value TEXT)');
  db.close();
});
afterAll(() => {
  for (const name of names) delete process.env[name];
  rmSync(scratch, { recursive: true, force: true });
});

const leaky: ToolDefinition = {
  name: 'store',
  description: 'Store a value',
  effect: 'write',
  inputSchema: { type: 'object', properties: { value: { type: 'string' } } },
  run: (args) => ({ stored: (args as { value: string }).value }),
};

describe('planted secrets', () => {
  test('never appear in an Observation, an error or the Environment, wherever the subject puts them', async () => {
    const results: ObservedAttempt[] = [];
    // A command subject given every secret (the worst allowlist) that prints, writes and reports them.
    const command = commandSubject({
      name: 'leaky-command',
      command: process.execPath,
      args: [SCRIPTED],
      env: { allow: ['PATH', ...names] },
    });
    const steps = [
      ['env', 'env.json'],
      ['stdout', Object.values(planted).join(' ')],
      ['stderr', `debug ${planted.RIDDLE_PLANTED_TOKEN} ${planted.RIDDLE_PLANTED_DATABASE_URL}`],
      ['stderr', 'password planted-db-password-0008 Authorization: Bearer planted0bearer0value0009'],
      [
        'receipt',
        {
          provider: 'p',
          id: planted.RIDDLE_PLANTED_SECRET,
          model: 'm',
          inputTokens: 1,
          outputTokens: 1,
          costUsd: null,
          latencyMs: 1,
        },
      ],
      ['throw', `failed with ${planted.RIDDLE_PLANTED_PASSWORD}`],
    ];
    results.push(await observeAttempt(plan(command, JSON.stringify(steps), { fixtures })));
    expect(results[0]?.status).toBe('subject_error');
    expect(results[0]?.observation?.files.map((f) => f.path)).toEqual(['env.json']);

    // A function subject that passes them to a tool, a database row, its reply, its claims, and a thrown error.
    const fn = functionSubject({
      name: 'leaky-function',
      revision: '1',
      run: async (_input, context) => {
        await context.tools.call('store', { value: planted.RIDDLE_PLANTED_API_KEY! });
        const db = new Database(path.join(context.workspace!, 'app.db'));
        db.prepare('INSERT INTO settings VALUES (?, ?)').run('key', planted.RIDDLE_PLANTED_CREDENTIAL);
        db.close();
        return {
          reply: { said: planted.RIDDLE_PLANTED_INNOCENT!, [planted.RIDDLE_PLANTED_GITHUB!]: true },
          claims: [
            { action: 'other', target: planted.RIDDLE_PLANTED_SECRET!, text: `used ${planted.RIDDLE_PLANTED_TOKEN}` },
          ],
        };
      },
    });
    results.push(
      await observeAttempt(
        plan(fn, `use ${planted.RIDDLE_PLANTED_API_KEY}`, {
          fixtures,
          tools: [leaky],
          observers: [sqliteObserver({ file: 'app.db', tables: ['settings'] })],
        }),
      ),
    );
    expect(results[1]?.status).toBe('completed');
    expect(results[1]?.observation?.rows[0]?.inserted).toHaveLength(1);
    results.push(
      await observeAttempt(
        plan(
          functionSubject({
            name: 'throws-secret',
            revision: '1',
            run: () => {
              throw new Error(`cannot use ${planted.RIDDLE_PLANTED_GITHUB}`);
            },
          }),
          'go',
        ),
      ),
    );

    const environment = await captureEnvironment({
      subject: { kind: 'command', name: 'leaky-command', revision: '1', revisionSource: 'declared' },
      tools: [leaky],
      prompts: { system: 'be helpful' },
      dependencies: [
        {
          dependency: { name: 'RIDDLE_PLANTED_API_KEY', kind: 'env', onUnavailable: 'blocked', description: null },
          available: true,
          detail: `set to ${planted.RIDDLE_PLANTED_API_KEY}`,
        },
      ],
      budgets: { timeoutMs: 1000, maxOutputBytes: 1000, maxRounds: 1 },
      maxEffect: 'write',
      variables: [...names, 'PATH'],
      projectRoot: repoPath('.'),
      isolation: null,
      independentAttempts: true,
      notes: [`note mentioning ${planted.RIDDLE_PLANTED_PASSWORD}`],
    });
    expect(Object.keys(environment.variables)).toEqual(expect.arrayContaining(names));
    for (const name of names) expect(environment.variables[name]).toMatch(/^\[redacted [0-9a-f]{12}\]$/);
    expect(environment.variables.PATH).toBe(process.env.PATH);

    // Every artifact, written out and grepped.
    results.forEach((result, i) =>
      writeFileSync(path.join(artifacts, `attempt-${i}.json`), JSON.stringify(result, null, 2)),
    );
    writeFileSync(path.join(artifacts, 'environment.json'), JSON.stringify(environment, null, 2));
    for (const value of [...Object.values(planted), 'planted-db-password-0008', 'planted0bearer0value0009']) {
      const grep = spawnSync('grep', ['-rlF', value, artifacts], { encoding: 'utf8' });
      expect(grep.stdout, `${value} leaked`).toBe('');
      expect(grep.status).toBe(1);
    }
    // The evidence is still there, scrubbed: the run did see and keep what the subject did.
    const all = JSON.stringify(results);
    expect(all).toContain('[redacted]');
    expect(results[0]?.observation?.exit?.stdout.bytes).toBeGreaterThan(0);
  });
});
