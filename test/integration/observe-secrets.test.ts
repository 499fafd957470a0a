import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import {
  captureEnvironment,
  commandSubject,
  functionSubject,
  httpSubject,
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

/** Every piece of `secret` `length` characters long: none may be kept, wherever a text was cut. */
const pieces = (secret: string, length = 6) =>
  Array.from({ length: secret.length - length + 1 }, (_, i) => secret.slice(i, i + length));
const expectNoPiece = (kept: unknown, secret: string) => {
  const text = JSON.stringify(kept);
  for (const piece of pieces(secret)) expect(text, `${piece} of ${secret} kept`).not.toContain(piece);
};

describe('secrets a subject was declared with', () => {
  const TOKEN = 'tok_1111222233334444aaaa';
  const PASSWORD = 'correcthorsebattery';
  // 33 characters, as the audit's.
  const LONG_TOKEN = 'tok_Z9Y8X7W6V5U4T3S2R1Q0PONMLKJIHG';
  const printsThem = (code: string) =>
    commandSubject({
      name: 'prints-set',
      command: process.execPath,
      args: ['-e', code],
      revision: '1',
      env: { set: { MY_SERVICE_TOKEN: TOKEN, DB_PASSWORD: PASSWORD, MY_LONG_TOKEN: LONG_TOKEN, PLAIN: 'x' } },
    });

  test("a command's env.set values are scrubbed like process.env's, from its error, output and reply", async () => {
    const subject = printsThem(
      `const e = process.env; console.log('reply', e.MY_SERVICE_TOKEN, Buffer.from(e.DB_PASSWORD).toString('base64'));` +
        ` process.stderr.write('key=' + e.NOPE + ' tok=' + e.MY_SERVICE_TOKEN + ' pw=' + e.DB_PASSWORD); process.exit(1)`,
    );
    const observed = await observeAttempt(plan(subject, 'go'));
    expect(observed.status).toBe('subject_error');
    expect(observed.error?.message).toBe('exited with code 1: key=undefined tok=[redacted] pw=[redacted]');
    // (base64's padding is left: a longer text would not end with it)
    expect(observed.observation?.rounds[0]?.reply).toBe('reply [redacted] [redacted]==');
    for (const secret of [TOKEN, PASSWORD]) expectNoPiece(observed, secret);
    // The revision pins the declaration by the names it sets, never their values.
    expect(JSON.stringify(await subject.identify())).not.toContain(TOKEN);
  });

  test('stderr cut to its last 400 characters for the message is scrubbed before it is cut', async () => {
    const subject = printsThem(
      `process.stderr.write('A'.repeat(1000) + process.env.MY_LONG_TOKEN + 'B'.repeat(380)); process.exit(1)`,
    );
    const observed = await observeAttempt(plan(subject, 'go'));
    expect(observed.error?.message).toMatch(/^exited with code 1: A{10}\[redacted\]B{380}$/);
    expectNoPiece(observed, LONG_TOKEN);
  });

  test.each([
    ['as it is', LONG_TOKEN],
    ['base64-encoded', Buffer.from(LONG_TOKEN).toString('base64')],
  ])('stdout cut at maxOutputBytes through a secret (%s) keeps no piece of it', async (_, written) => {
    const subject = printsThem(`process.stdout.write('A'.repeat(88) + ${JSON.stringify(written)} + 'C'.repeat(50))`);
    const observed = await observeAttempt(
      plan(subject, 'go', { caseOverrides: { stop: { timeoutMs: 10_000, maxOutputBytes: 100, maxRounds: 1 } } }),
    );
    const stdout = observed.observation?.exit?.stdout;
    expect(stdout?.truncated).toBe(true);
    expect(stdout?.text).toBe(`${'A'.repeat(88)}[redacted]`);
    expectNoPiece(observed, written);
  });

  test("a function subject's thrown message, cut to maxOutputBytes, is scrubbed before it is cut", async () => {
    const token = planted.RIDDLE_PLANTED_TOKEN ?? '';
    const thrower = functionSubject({
      name: 'throws-long',
      revision: '1',
      run: () => {
        throw new Error(`${'A'.repeat(90)}${token}${'B'.repeat(50)}`);
      },
    });
    const observed = await observeAttempt(
      plan(thrower, 'go', { caseOverrides: { stop: { timeoutMs: 10_000, maxOutputBytes: 100, maxRounds: 1 } } }),
    );
    expect(observed.error?.message).toMatch(/^A{90}\[redacted\]… \(\d+ more characters\)$/);
    expectNoPiece(observed, token);
  });

  describe('an HTTP service', () => {
    const KEY = 'abcd1234efgh5678ijkl';
    const SERVICE_TOKEN = 'svc_0123456789abcdef';
    let service: Server;
    let base = '';
    beforeAll(async () => {
      service = createServer((req, res) => {
        req.resume();
        req.on('end', () => {
          if (req.url === '/echo')
            res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ reply: req.headers }));
          else res.writeHead(500).end(`${'A'.repeat(290)}${String(req.headers['x-service-token'])}`);
        });
      });
      await new Promise<void>((resolve) => service.listen(0, '127.0.0.1', resolve));
      base = `http://127.0.0.1:${(service.address() as AddressInfo).port}`;
    });
    afterAll(() => {
      service.closeAllConnections();
      return new Promise<void>((resolve) => service.close(() => resolve()));
    });
    const subject = (route: string) =>
      httpSubject({
        name: 'svc',
        url: `${base}${route}`,
        revision: '1',
        headers: { 'x-api-key': KEY, 'x-service-token': SERVICE_TOKEN, 'x-plain': 'kept-as-is' },
      });

    test('given headers that are secret are scrubbed from the reply that echoes them', async () => {
      const observed = await observeAttempt(plan(subject('/echo'), 'go'));
      const reply = observed.observation?.rounds[0]?.reply as Record<string, string>;
      expect(reply['x-service-token']).toBe('[redacted]');
      expect(reply['x-plain']).toBe('kept-as-is');
      for (const secret of [KEY, SERVICE_TOKEN]) expectNoPiece(observed, secret);
    });

    test("an error answer's text is scrubbed before it is cut for the message", async () => {
      const observed = await observeAttempt(plan(subject('/fail'), 'go'));
      expect(observed.error?.message).toMatch(/answered HTTP 500: A{290}\[redacted\]$/);
      expectNoPiece(observed, SERVICE_TOKEN);
    });
  });
});
