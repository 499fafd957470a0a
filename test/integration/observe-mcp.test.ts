import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { afterEach, describe, expect, test } from 'vitest';
import {
  createToolGateway,
  functionSubject,
  observeAttempt,
  serveToolsOverMcp,
  type McpToolServer,
  type ToolDefinition,
} from '../../src/observe/index.js';
import { plan } from './observe-support.js';

const tools: ToolDefinition[] = [
  {
    name: 'add',
    description: 'Add two numbers',
    effect: 'none',
    inputSchema: { type: 'object', properties: { a: { type: 'number' }, b: { type: 'number' } }, required: ['a', 'b'] },
    run: (args) => {
      const { a, b } = args as { a: number; b: number };
      return { sum: a + b };
    },
  },
  {
    name: 'fail',
    description: 'Always fails',
    effect: 'read',
    inputSchema: { type: 'object', properties: {} },
    run: () => {
      throw new Error('disk on fire');
    },
  },
  {
    name: 'wire_money',
    description: 'Send money',
    effect: 'irreversible',
    inputSchema: { type: 'object', properties: { amount: { type: 'number' } } },
    run: () => 'sent',
  },
];

let server: McpToolServer | null = null;
afterEach(async () => {
  await server?.close();
  server = null;
});

async function served() {
  const gateway = createToolGateway({
    tools,
    maxEffect: 'write',
    context: { workspace: null, signal: new AbortController().signal },
    elapsedMs: () => 0,
  });
  server = await serveToolsOverMcp(gateway);
  return { gateway, server };
}

async function client(transport: Transport) {
  const c = new Client({ name: 'test-client', version: '1.0.0' });
  await c.connect(transport);
  return c;
}

const text = (result: Awaited<ReturnType<Client['callTool']>>) =>
  (result.content as { type: string; text: string }[])[0]?.text;

describe('MCP tool gateway', () => {
  test.each(['http', 'stdio', 'stdioOverSocket'] as const)(
    'the SDK client lists and calls tools over %s; every request is recorded',
    async (kind) => {
      const { gateway, server } = await served();
      const transport =
        kind === 'http'
          ? new StreamableHTTPClientTransport(new URL(server.endpoints.url))
          : new StdioClientTransport({
              command: server.endpoints[kind].command,
              args: server.endpoints[kind].args,
              env: server.endpoints[kind].env,
            });
      const c = await client(transport);
      try {
        const listed = await c.listTools();
        expect(listed.tools.map((t) => [t.name, t.annotations?.readOnlyHint, t.annotations?.destructiveHint])).toEqual([
          ['add', true, false],
          ['fail', true, false],
          ['wire_money', false, true],
        ]);
        const added = await c.callTool({ name: 'add', arguments: { a: 2, b: 3 } });
        expect(added.isError).toBeFalsy();
        expect(added.structuredContent).toEqual({ sum: 5 });
        const denied = await c.callTool({ name: 'wire_money', arguments: { amount: 100 } });
        expect(denied.isError).toBe(true);
        expect(text(denied)).toMatch(/denied: wire_money: effect "irreversible" exceeds the case's allowed "write"/);
        const failed = await c.callTool({ name: 'fail', arguments: {} });
        expect(failed.isError).toBe(true);
        expect(text(failed)).toBe('disk on fire');
        const unknown = await c.callTool({ name: 'format_disk', arguments: {} });
        expect(unknown.isError).toBe(true);
      } finally {
        await c.close();
      }
      expect(gateway.requests.map((r) => [r.tool, r.admitted, r.result, r.error])).toEqual([
        ['add', true, { sum: 5 }, null],
        ['wire_money', false, null, null],
        ['fail', true, null, 'disk on fire'],
        ['format_disk', false, null, null],
      ]);
      expect(gateway.requests[1]?.arguments).toEqual({ amount: 100 });
    },
  );

  test('requests that do not name the loopback host are refused (DNS rebinding)', async () => {
    const { server } = await served();
    const port = new URL(server.endpoints.url).port;
    const { request } = await import('node:http');
    const status = await new Promise<number | undefined>((resolve, reject) => {
      const req = request(
        {
          host: '127.0.0.1',
          port,
          path: '/mcp',
          method: 'POST',
          headers: { host: 'evil.example:80', 'content-type': 'application/json' },
        },
        (res) => {
          res.resume();
          resolve(res.statusCode);
        },
      );
      req.on('error', reject);
      req.end('{}');
    });
    expect(status).toBe(403);
  });

  test("a request without the attempt's token is refused (401) and never reaches the tools", async () => {
    const { gateway, server } = await served();
    const url = new URL(server.endpoints.url);
    expect(url.pathname).toMatch(/^\/mcp\/[A-Za-z0-9_-]{43}$/);
    const list = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} });
    const call = JSON.stringify({
      jsonrpc: '2.0',
      id: 2,
      method: 'tools/call',
      params: { name: 'add', arguments: { a: 1, b: 2 } },
    });
    const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
    for (const pathname of ['/mcp', '/', `/mcp/${'A'.repeat(43)}`, `${url.pathname}x`]) {
      for (const body of [list, call]) {
        const response = await fetch(new URL(pathname, url), { method: 'POST', headers, body });
        expect(response.status, pathname).toBe(401);
      }
    }
    expect(gateway.requests).toEqual([]);
    const allowed = await fetch(url, { method: 'POST', headers, body: call });
    expect(allowed.status).toBe(200);
    expect(gateway.requests.map((r) => r.tool)).toEqual(['add']);
  });

  test("one trial's subject cannot call another attempt's tool, nor have it recorded as that attempt's", async () => {
    const privateTool: ToolDefinition = {
      name: 'read_private_notes',
      description: "Trial A's private tool",
      effect: 'read',
      inputSchema: { type: 'object', properties: {} },
      run: () => 'the notes of trial A',
    };
    const gatewayA = createToolGateway({
      tools: [privateTool],
      maxEffect: 'write',
      context: { workspace: null, signal: new AbortController().signal },
      elapsedMs: () => 0,
    });
    const serverA = await serveToolsOverMcp(gatewayA);
    try {
      // Trial B's subject knows its own gateway and finds A's port (loopback ports are easy to scan).
      const portA = new URL(serverA.endpoints.url).port;
      const subjectB = functionSubject({
        name: 'trial-b',
        revision: '1',
        run: async (_input, context) => {
          const own = new URL(context.mcp!.url);
          const stolen = new URL(`http://127.0.0.1:${portA}${own.pathname}`);
          const tries: string[] = [];
          for (const target of [stolen, new URL(`http://127.0.0.1:${portA}/mcp`)]) {
            const c = new Client({ name: 'b', version: '1' });
            tries.push(
              await c
                .connect(new StreamableHTTPClientTransport(target))
                .then(() => c.callTool({ name: 'read_private_notes', arguments: {} }))
                .then((r) => `called: ${JSON.stringify(r)}`)
                .catch((error: Error) => `refused: ${error.message}`),
            );
            await c.close();
          }
          return { reply: tries };
        },
      });
      const observed = await observeAttempt(plan(subjectB, 'go', { tools, toolServer: 'mcp' }));
      const tries = observed.observation?.rounds[0]?.reply as string[];
      expect(tries).toHaveLength(2);
      for (const attempt of tries) expect(attempt).toMatch(/^refused: .*not this attempt's tool gateway/);
      expect(gatewayA.requests).toEqual([]);
    } finally {
      await serverA.close();
    }
  });

  test('a function subject can ask for the tools over MCP; the attempt records its requests and closes the server', async () => {
    let url = '';
    const subject = functionSubject({
      name: 'mcp-function',
      revision: '1',
      run: async (_input, context) => {
        url = context.mcp!.url;
        const c = await client(new StreamableHTTPClientTransport(new URL(url)));
        try {
          const result = await c.callTool({ name: 'add', arguments: { a: 1, b: 1 } });
          return { reply: result.structuredContent as { sum: number } };
        } finally {
          await c.close();
        }
      },
    });
    const observed = await observeAttempt(plan(subject, 'go', { tools, toolServer: 'mcp' }));
    expect(observed.status).toBe('completed');
    expect(observed.observation?.rounds[0]?.reply).toEqual({ sum: 2 });
    expect(observed.observation?.toolRequests).toMatchObject([
      { id: 't1', round: 1, tool: 'add', effect: 'none', admitted: true, result: { sum: 2 } },
    ]);
    await expect(fetch(url, { method: 'POST' })).rejects.toThrow();
  });

  test('function subjects call tools directly by default; a denial reaches them as an error and stays on record', async () => {
    const subject = functionSubject({
      name: 'direct',
      revision: '1',
      run: async (_input, context) => {
        expect(context.mcp).toBeNull();
        const sum = await context.tools.call('add', { a: 4, b: 5 });
        const refused = await context.tools.call('wire_money', { amount: 1 }).catch((error: Error) => error.message);
        return { reply: { sum, refused } };
      },
    });
    const observed = await observeAttempt(plan(subject, 'go', { tools }));
    expect(observed.observation?.rounds[0]?.reply).toEqual({
      sum: { sum: 9 },
      refused: expect.stringMatching(/denied/),
    });
    expect(observed.observation?.toolRequests.map((r) => [r.tool, r.admitted])).toEqual([
      ['add', true],
      ['wire_money', false],
    ]);
    expect(observed.observation?.observers).toContainEqual({
      part: 'toolRequests',
      observer: 'tool-gateway',
      grade: 'receipt',
    });
  });
});
