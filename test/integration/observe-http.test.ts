import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { httpSubject, observeAttempt, type ToolDefinition } from '../../src/observe/index.js';
import { plan, repoPath } from './observe-support.js';

// An agent service the user already runs: it takes riddle's round as JSON and uses the tools at `mcpUrl`.
let service: Server;
let base = '';
const requests: Record<string, unknown>[] = [];

beforeAll(async () => {
  service = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk));
    req.on('end', () => {
      void (async () => {
        const round = JSON.parse(body) as { input: string; mcpUrl: string | null; round: number };
        requests.push(round);
        if (req.url === '/broken') {
          res.writeHead(500).end('internal trouble');
          return;
        }
        if (req.url === '/slow') return; // never answers
        if (req.url === '/endless') {
          // Streams until the reader goes away.
          res.writeHead(200, { 'content-type': 'text/plain' });
          const chunk = 'z'.repeat(64 * 1024);
          const more = () => {
            while (!res.destroyed && res.write(chunk));
            if (!res.destroyed) res.once('drain', more);
          };
          res.on('close', () => res.removeAllListeners('drain'));
          more();
          return;
        }
        if (req.url === '/large') {
          res.writeHead(200, { 'content-type': 'text/plain' }).end('l'.repeat(8 * 1024 * 1024));
          return;
        }
        if (req.url === '/text') {
          res.writeHead(200, { 'content-type': 'text/plain' }).end(`echo: ${round.input}`);
          return;
        }
        const client = new Client({ name: 'agent-service', version: '1' });
        await client.connect(new StreamableHTTPClientTransport(new URL(round.mcpUrl!)));
        const result = await client.callTool({ name: 'lookup', arguments: { key: round.input } });
        await client.close();
        res.writeHead(200, { 'content-type': 'application/json' }).end(
          JSON.stringify({
            reply: `found ${JSON.stringify(result.structuredContent)}`,
            claims: [{ action: 'called', target: 'lookup', text: 'I looked it up' }],
            receipts: [
              {
                provider: 'svc',
                id: `r${round.round}`,
                model: 'svc-1',
                inputTokens: 1,
                outputTokens: 1,
                costUsd: null,
                latencyMs: 1,
              },
              { bad: true },
            ],
          }),
        );
      })();
    });
  });
  await new Promise<void>((resolve) => service.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(service.address() as AddressInfo).port}`;
});
afterAll(() => {
  service.closeAllConnections();
  return new Promise<void>((resolve) => service.close(() => resolve()));
});

const lookup: ToolDefinition = {
  name: 'lookup',
  description: 'Look a key up',
  effect: 'read',
  inputSchema: { type: 'object', properties: { key: { type: 'string' } } },
  run: (args) => ({ value: `${(args as { key: string }).key}!` }),
};

describe('HTTP subjects', () => {
  test('each round is a POST; the service uses the tools over MCP; reply, claims and receipts come back', async () => {
    const subject = httpSubject({ name: 'svc', url: `${base}/agent`, revision: 'svc@3' });
    expect(await subject.identify()).toEqual({
      kind: 'http',
      name: 'svc',
      revision: 'svc@3',
      revisionSource: 'declared',
    });
    const observed = await observeAttempt(
      plan(subject, 'k1', { tools: [lookup], caseOverrides: { followUps: ['k2'] } }),
    );
    expect(observed.error).toBeNull();
    const observation = observed.observation!;
    expect(observation.rounds.map((r) => r.reply)).toEqual(['found {"value":"k1!"}', 'found {"value":"k2!"}']);
    expect(observation.rounds[1]?.claims).toEqual([
      { action: 'called', target: 'lookup', text: 'I looked it up', source: 'structured', round: 2 },
    ]);
    expect(observation.toolRequests.map((r) => [r.round, r.tool, r.admitted])).toEqual([
      [1, 'lookup', true],
      [2, 'lookup', true],
    ]);
    expect(observation.receipts.map((r) => r.id)).toEqual(['r1', 'r2']);
    expect(observation.notes?.filter((n) => n.includes('ignored'))).toHaveLength(2);
    expect(observation.exit).toBeNull();
    expect(requests.at(-1)).toMatchObject({
      input: 'k2',
      round: 2,
      history: [{ input: 'k1', reply: 'found {"value":"k1!"}' }],
    });
  });

  test('a text answer is the reply', async () => {
    const observed = await observeAttempt(plan(httpSubject({ name: 'svc', url: `${base}/text`, revision: '1' }), 'hi'));
    expect(observed.observation?.rounds[0]?.reply).toBe('echo: hi');
  });

  test('an error status is a subject_error that keeps the body', async () => {
    const observed = await observeAttempt(
      plan(httpSubject({ name: 'svc', url: `${base}/broken`, revision: '1' }), 'hi'),
    );
    expect(observed.status).toBe('subject_error');
    expect(observed.error?.message).toMatch(/answered HTTP 500: internal trouble/);
    expect(observed.observation?.rounds[0]?.reply).toBe('internal trouble');
  });

  test('a service that does not answer within the budget is stopped', async () => {
    const observed = await observeAttempt(
      plan(httpSubject({ name: 'svc', url: `${base}/slow`, revision: '1' }), 'hi', {
        caseOverrides: { stop: { timeoutMs: 300, maxOutputBytes: 1000, maxRounds: 1 } },
      }),
    );
    expect(observed.status).toBe('subject_error');
    expect(observed.error?.message).toMatch(/budget/);
  });

  test('an answer that never ends is read up to the bound, then stopped: a subject_error', async () => {
    const observed = await observeAttempt(
      plan(httpSubject({ name: 'svc', url: `${base}/endless`, revision: '1' }), 'hi'),
    );
    expect(observed.status).toBe('subject_error');
    expect(observed.error?.message).toBe(
      `${base}/endless answered more than 16777216 bytes, the most riddle reads of an answer: the rest was not read`,
    );
    expect(observed.observation?.rounds[0]?.reply).toBeNull();
  });

  test('a large answer within the bound is the reply, whole', async () => {
    const observed = await observeAttempt(
      plan(httpSubject({ name: 'svc', url: `${base}/large`, revision: '1' }), 'hi'),
    );
    expect(observed.status).toBe('completed');
    expect(observed.observation?.rounds[0]?.reply).toHaveLength(8 * 1024 * 1024);
  });

  test('a service that is not running is a subject_error', async () => {
    const observed = await observeAttempt(
      plan(httpSubject({ name: 'svc', url: 'http://127.0.0.1:9/agent', revision: '1' }), 'hi'),
    );
    expect(observed.status).toBe('subject_error');
    expect(observed.error?.message).toMatch(/no answer from/);
  });

  test('the revision can come from a package.json', async () => {
    const subject = httpSubject({ name: 'svc', url: base, revision: 'package', sourceDir: repoPath('.') });
    expect(await subject.identify()).toMatchObject({
      revision: expect.stringMatching(/^riddle@\d+\.\d+\.\d+/),
      revisionSource: 'package',
    });
  });
});

describe('a request that fails on the way', () => {
  // A service that loops redirects, resets the connection, or closes it in the middle of its answer.
  let broken: Server;
  let brokenBase = '';
  beforeAll(async () => {
    broken = createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        if (req.url === '/loop') res.writeHead(307, { location: '/loop' }).end();
        else if (req.url === '/reset') req.socket.resetAndDestroy();
        else {
          res.writeHead(200, { 'content-type': 'text/plain', 'content-length': '100' });
          res.write('only part', () => req.socket.destroy());
        }
      });
    });
    await new Promise<void>((resolve) => broken.listen(0, '127.0.0.1', resolve));
    brokenBase = `http://127.0.0.1:${(broken.address() as AddressInfo).port}`;
  });
  afterAll(() => {
    broken.closeAllConnections();
    return new Promise<void>((resolve) => broken.close(() => resolve()));
  });

  test.each([
    ['/loop', 'fetch failed: redirect count exceeded'],
    ['/reset', 'fetch failed: read ECONNRESET'],
    ['/mid', 'terminated: other side closed (UND_ERR_SOCKET)'],
  ])('says why, from the causes fetch gives: %s', async (route, why) => {
    const url = `${brokenBase}${route}`;
    const observed = await observeAttempt(plan(httpSubject({ name: 'svc', url, revision: '1' }), 'hi'));
    expect(observed.status).toBe('subject_error');
    expect(observed.error?.message).toBe(`no answer from ${url}: ${why}`);
  });
});
