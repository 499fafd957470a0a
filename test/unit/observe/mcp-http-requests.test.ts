import { createHook } from 'node:async_hooks';
import { type ClientRequest, request } from 'node:http';
import { connect, type Socket } from 'node:net';
import { describe, expect, test } from 'vitest';
import type { ToolDefinition } from '../../../src/observe/index.js';
import { MAX_CONNECTIONS, serveToolsOverMcp } from '../../../src/observe/mcp-server.js';
import { createToolGateway } from '../../../src/observe/tool-gateway.js';

// Every promise in a worker is tracked by the async context riddle attributes stray errors with: an MCP request's
// share of the worker's CPU grows with the promises made to answer it. Counted, never timed.

const echo: ToolDefinition = {
  name: 'echo',
  description: 'echo',
  effect: 'read',
  inputSchema: { type: 'object' },
  run: (args) => args,
};

/** POST one body with callbacks only (no promise of the client's), resolving with the status and the body. */
function post(url: string, body: string): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          text += chunk;
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

/** An attempt's MCP server over HTTP, and its gateway with the echo tool. */
async function echoServer() {
  const gateway = createToolGateway({
    tools: [echo],
    maxEffect: 'read',
    context: { workspace: '/ws', signal: new AbortController().signal },
    elapsedMs: () => 0,
  });
  return { gateway, server: await serveToolsOverMcp(gateway, { socketBridge: 'when-read' }) };
}

describe('an MCP request over HTTP', () => {
  test('is answered with few promises: a tools/call makes at most 12', async () => {
    const { server } = await echoServer();
    const call = (id: number) =>
      JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'echo', arguments: { n: id } } });
    try {
      // Warm: the first request loads what later ones reuse.
      await post(server.endpoints.url, call(1));
      // The hook counts every promise of the worker while a request is answered, Vitest's own too (a timer of its that
      // fires meanwhile, as on a loaded machine): the fewest of five requests is the request's own count.
      const counts: number[] = [];
      for (let id = 2; id < 7; id += 1) {
        let promises = 0;
        const hook = createHook({
          init(_id, type) {
            if (type === 'PROMISE') promises += 1;
          },
        }).enable();
        const answered = await post(server.endpoints.url, call(id));
        hook.disable();
        expect(answered.status).toBe(200);
        expect(JSON.parse(answered.text)).toMatchObject({ id, result: { structuredContent: { n: id } } });
        counts.push(promises);
      }
      expect(Math.min(...counts)).toBeLessThanOrEqual(12);
    } finally {
      await server.close();
    }
  });

  test('a body over the size limit is refused (413 when declared, 400 when it grows past it), one cut short is dropped, and the next request is answered', async () => {
    const { gateway, server } = await echoServer();
    const { DEFAULT_MAX_REQUEST_BODY_SIZE: max } = await import('@modelcontextprotocol/sdk/server/requestBody.js');
    const url = new URL(server.endpoints.url);
    const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
    /** A raw request: its status, or the error that cut it. */
    const raw = (send: (req: ClientRequest) => void, extra: Record<string, string | number> = {}) =>
      new Promise<number | Error>((resolve) => {
        const req = request(url, { method: 'POST', headers: { ...headers, ...extra } }, (res) => {
          res.resume();
          res.on('end', () => resolve(res.statusCode ?? 0));
        });
        req.on('error', resolve);
        send(req);
      });
    try {
      // Declared too large: refused before the body is read, in the SDK's words.
      const declared = await raw((req) => req.end(), { 'content-length': max + 1 });
      expect(declared).toBe(413);
      // Streamed (chunked) past the limit: the request is destroyed as it arrives and refused as a body cut short.
      const streamed = await raw((req) => {
        const chunk = Buffer.alloc(64 * 1024, 0x20);
        for (let sent = 0; sent <= max; sent += chunk.length) req.write(chunk);
        req.end();
      });
      expect(streamed).toBe(400);
      // Cut short: the client goes away in the middle of its body.
      await new Promise<void>((resolve) => {
        const req = request(url, { method: 'POST', headers: { ...headers, 'content-length': 1000 } });
        req.on('error', () => resolve());
        req.write('{"jsonrpc":"2.0","id":1,"method":"tools/call",', () => {
          req.destroy();
          resolve();
        });
      });
      const body = JSON.stringify({
        jsonrpc: '2.0',
        id: 9,
        method: 'tools/call',
        params: { name: 'echo', arguments: {} },
      });
      const after = await post(server.endpoints.url, body);
      expect(after.status).toBe(200);
      expect(gateway.requests).toHaveLength(1);
    } finally {
      await server.close();
    }
  });
});

describe("an attempt's MCP server", () => {
  test('holds at most MAX_CONNECTIONS connections: those past it are closed at once, and requests are still answered', async () => {
    const { server } = await echoServer();
    const url = new URL(server.endpoints.url);
    const sockets: Socket[] = [];
    try {
      const closed: Promise<void>[] = [];
      for (let i = 0; i < MAX_CONNECTIONS + 20; i += 1) {
        const socket = connect(Number(url.port), url.hostname);
        socket.on('error', () => {});
        sockets.push(socket);
        closed.push(new Promise((resolve) => socket.once('close', () => resolve())));
        await new Promise((resolve) => socket.once('connect', resolve));
      }
      // Those past the bound are closed by the server; the others stay open.
      await Promise.all(closed.slice(MAX_CONNECTIONS));
      expect(sockets.filter((s) => !s.destroyed)).toHaveLength(MAX_CONNECTIONS);
      // Once the held connections are closed there is room again: asked until the server has seen them go (a request
      // made before is closed at once, and fails).
      for (const socket of sockets) socket.destroy();
      const call = JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: { name: 'echo', arguments: { n: 1 } },
      });
      let answered: { status: number; text: string } | null = null;
      for (let tries = 0; answered === null && tries < 1000; tries += 1) {
        answered = await post(server.endpoints.url, call).catch(() => null);
        if (answered === null) await new Promise((resolve) => setTimeout(resolve, 10));
      }
      expect(answered?.status).toBe(200);
    } finally {
      for (const socket of sockets) socket.destroy();
      await server.close();
    }
  });
});
