import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { connect } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { afterEach, describe, expect, test } from 'vitest';
import {
  createToolGateway,
  observeAttempt,
  serveToolsOverMcp,
  type CommandSubjectOptions,
  type McpToolServer,
  type ToolDefinition,
} from '../../src/observe/index.js';
import { mcpConfigReader, passThroughIsolation, plan } from './observe-support.js';

// The gateway answers MCP itself through one SDK Server per attempt (not the SDK's HTTP transport and a Server per
// request): these tests hold it to what that transport answered, and to the attempt's isolation on every path.

/** A tool that waits until released, to keep two requests in flight at once. */
function gatedTool(): { tool: ToolDefinition; release: () => void } {
  let release = () => {};
  const gate = new Promise<void>((resolve) => {
    release = resolve;
  });
  return {
    release: () => release(),
    tool: {
      name: 'echo',
      description: 'Echo a word once released',
      effect: 'none',
      inputSchema: { type: 'object', properties: { word: { type: 'string' } } },
      run: async (args) => {
        await gate;
        return { word: (args as { word: string }).word };
      },
    },
  };
}

const opened: McpToolServer[] = [];
afterEach(async () => {
  for (const server of opened.splice(0)) await server.close();
});

async function serve(tools: ToolDefinition[]) {
  const gateway = createToolGateway({
    tools,
    maxEffect: 'write',
    context: { workspace: null, signal: new AbortController().signal },
    elapsedMs: () => 0,
  });
  const server = await serveToolsOverMcp(gateway);
  opened.push(server);
  return { gateway, server };
}

const JSON_HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
const call = (id: number | string, word: string) => ({
  jsonrpc: '2.0',
  id,
  method: 'tools/call',
  params: { name: 'echo', arguments: { word } },
});

describe("the MCP gateway's wire", () => {
  test('two requests in flight with the same id each get their own reply', async () => {
    const { tool, release } = gatedTool();
    const { gateway, server } = await serve([tool]);
    const post = (word: string) =>
      fetch(server.endpoints.url, { method: 'POST', headers: JSON_HEADERS, body: JSON.stringify(call(7, word)) });
    const replies = [post('first'), post('second')];
    // Both requests reach the gateway before either is answered.
    await expect.poll(() => gateway.requests.length).toBe(2);
    release();
    const [first, second] = await Promise.all(replies.map(async (r) => (await r).json()));
    expect(first).toMatchObject({ id: 7, result: { structuredContent: { word: 'first' } } });
    expect(second).toMatchObject({ id: 7, result: { structuredContent: { word: 'second' } } });
  });

  test("refusals, batches and notifications are answered as the SDK's stateless HTTP transport answers them", async () => {
    const { tool, release } = gatedTool();
    release();
    const { server } = await serve([tool]);
    // The SDK's own transport, a fresh one and a Server per request, as the gateway served before.
    const reference = createServer((req: IncomingMessage, res: ServerResponse) => {
      const sdkServer = new Server({ name: 'reference', version: '1' }, { capabilities: { tools: {} } });
      const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
      res.on('close', () => {
        void transport.close();
        void sdkServer.close();
      });
      void sdkServer.connect(transport).then(() => transport.handleRequest(req, res));
    });
    await new Promise<void>((resolve) => reference.listen(0, '127.0.0.1', resolve));
    try {
      const referenceUrl = `http://127.0.0.1:${(reference.address() as AddressInfo).port}/mcp`;
      const init = {
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } },
      };
      const cases: { name: string; headers: Record<string, string>; body: string }[] = [
        { name: 'no event-stream in Accept', headers: { ...JSON_HEADERS, accept: 'application/json' }, body: '{}' },
        { name: 'not JSON content', headers: { ...JSON_HEADERS, 'content-type': 'text/plain' }, body: '{}' },
        {
          name: 'JSON with parameters',
          headers: { ...JSON_HEADERS, 'content-type': 'application/json; charset=utf-8' },
          body: '{"jsonrpc":"2.0","method":"notifications/initialized"}',
        },
        { name: 'not JSON', headers: JSON_HEADERS, body: '{"jsonrpc":' },
        { name: 'not JSON-RPC', headers: JSON_HEADERS, body: '{"hello":"world"}' },
        { name: 'two initializations', headers: JSON_HEADERS, body: JSON.stringify([init, { ...init, id: 2 }]) },
        { name: 'a batch over the limit', headers: JSON_HEADERS, body: JSON.stringify(Array(101).fill(call(1, 'x'))) },
        {
          name: 'an unknown protocol version',
          headers: { ...JSON_HEADERS, 'mcp-protocol-version': '1999-01-01' },
          body: JSON.stringify(call(1, 'x')),
        },
        {
          name: 'a notification alone',
          headers: JSON_HEADERS,
          body: '{"jsonrpc":"2.0","method":"notifications/initialized"}',
        },
        { name: 'a ping', headers: JSON_HEADERS, body: '{"jsonrpc":"2.0","id":"p","method":"ping"}' },
        { name: 'an unknown method', headers: JSON_HEADERS, body: '{"jsonrpc":"2.0","id":3,"method":"no/such"}' },
        { name: 'an initialization', headers: JSON_HEADERS, body: JSON.stringify(init) },
      ];
      for (const { name, headers, body } of cases) {
        const ask = async (url: string) => {
          const response = await fetch(url, { method: 'POST', headers, body });
          const text = await response.text();
          return { status: response.status, type: response.headers.get('content-type'), body: text };
        };
        const ours = await ask(server.endpoints.url);
        const theirs = await ask(referenceUrl);
        // The reference names itself and offers no more than the gateway: their initialize results differ there only.
        const same = (r: typeof ours) => ({ ...r, body: r.body.replace(/"serverInfo":\{[^}]*\}/, '') });
        expect(same(ours), name).toEqual(same(theirs));
      }
    } finally {
      reference.closeAllConnections();
      await new Promise((resolve) => reference.close(resolve));
    }
  });

  test("an isolated command subject's MCP config names the Node bridge over the socket, even with the network", async () => {
    // A pass-through engine stands for a container whose loopback is not the host's: the light bridge could not
    // reach the gateway's port from there, the unix socket mounted in is reachable.
    const named = async (isolation: CommandSubjectOptions['isolation']) => {
      const subject = mcpConfigReader(isolation);
      const observed = await observeAttempt(
        plan(subject, 'go', { tools: [gatedTool().tool], caseOverrides: { effectClass: 'external' } }),
      );
      expect(observed.status, observed.error?.message).toBe('completed');
      return (observed.observation?.rounds[0]?.reply as { mcpServers: { riddle: { command: string } } }).mcpServers
        .riddle.command;
    };
    expect(await named({ engine: passThroughIsolation, network: 'allow' })).toBe(process.execPath);
    if (process.platform === 'linux' && existsSync('/bin/bash')) expect(await named(undefined)).toMatch(/\/bash$/);
  });

  describe.runIf(process.platform === 'linux' && existsSync('/bin/bash'))('the light stdio bridge', () => {
    test('is bash, not a Node process, where bash opens /dev/tcp', async () => {
      const { server } = await serve([]);
      expect(server.endpoints.stdio.command).toMatch(/\/bash$/);
      expect(server.endpoints.stdioOverSocket.command).toBe(process.execPath);
    });

    test("reads no start-up file and imports nothing from the agent's environment, with stdio over a socket pair", async () => {
      const { tool, release } = gatedTool();
      release();
      const { gateway, server } = await serve([tool]);
      const home = mkdtempSync(path.join(os.tmpdir(), 'riddle-bridge-home-'));
      const marker = path.join(home, 'read');
      try {
        for (const file of ['.bashrc', '.bash_profile', '.profile', 'env.sh'])
          writeFileSync(path.join(home, file), `echo ${file} >> ${marker}\n`);
        const { command, args, env } = server.endpoints.stdio;
        // Node hands a child its stdio over socket pairs, which bash takes for a remote shell's and reads ~/.bashrc.
        const bridge = spawn(command, args, {
          env: {
            ...env,
            HOME: home,
            BASH_ENV: path.join(home, 'env.sh'),
            ENV: path.join(home, 'env.sh'),
            'BASH_FUNC_printf%%': '() { echo hijacked; }',
          },
          stdio: ['pipe', 'pipe', 'pipe'],
        });
        // A bridge that ends without a reply (a hijacked printf never sends the token) gives null.
        const reply = new Promise<string>((resolve) => {
          bridge.stdout.once('data', (chunk: Buffer) => resolve(String(chunk)));
          bridge.stdout.once('end', () => resolve('null'));
        });
        bridge.stdin.write(`${JSON.stringify(call(1, 'quiet'))}\n`);
        expect(JSON.parse(await reply)).toMatchObject({ id: 1, result: { structuredContent: { word: 'quiet' } } });
        bridge.stdin.end();
        await new Promise((resolve) => bridge.once('close', resolve));
        expect(existsSync(marker) ? readFileSync(marker, 'utf8') : '').toBe('');
        expect(gateway.requests.map((r) => r.tool)).toEqual(['echo']);
      } finally {
        rmSync(home, { recursive: true, force: true });
      }
    });

    test("its line port drops a connection that does not give the attempt's token first, unread", async () => {
      const { tool, release } = gatedTool();
      release();
      const { gateway, server } = await serve([tool]);
      const port = Number(server.endpoints.stdio.env.RIDDLE_MCP_PORT);
      const token = server.endpoints.stdio.env.RIDDLE_MCP_TOKEN ?? '';
      const talk = (first: string) =>
        new Promise<string>((resolve, reject) => {
          const socket = connect(port, '127.0.0.1');
          let heard = '';
          socket.setEncoding('utf8');
          socket.on('data', (chunk: string) => {
            heard += chunk;
            if (heard.includes('\n')) socket.end();
          });
          socket.on('close', () => resolve(heard));
          socket.on('error', reject);
          socket.write(`${first}\n${JSON.stringify(call(1, 'hi'))}\n`);
        });
      for (const wrong of ['', 'x', `${token}x`, token.slice(1), JSON.stringify(call(0, 'no'))])
        expect(await talk(wrong), wrong).toBe('');
      expect(gateway.requests).toEqual([]);
      const heard = JSON.parse(await talk(token));
      expect(heard).toMatchObject({ id: 1, result: { structuredContent: { word: 'hi' } } });
      expect(gateway.requests.map((r) => r.tool)).toEqual(['echo']);
    });

    test('a line that is not JSON-RPC is answered with the error an HTTP client gets, and the line after it served', async () => {
      const { tool, release } = gatedTool();
      release();
      const { server } = await serve([tool]);
      const { RIDDLE_MCP_PORT: port, RIDDLE_MCP_TOKEN: token } = server.endpoints.stdio.env;
      const lines = await new Promise<string[]>((resolve, reject) => {
        const socket = connect(Number(port), '127.0.0.1');
        let heard = '';
        socket.setEncoding('utf8');
        socket.on('data', (chunk: string) => {
          heard += chunk;
          if (heard.split('\n').length > 3) socket.end();
        });
        socket.on('close', () => resolve(heard.trim().split('\n')));
        socket.on('error', reject);
        socket.write(`${token}\nnot json\n{"hello":1}\n${JSON.stringify(call('a', 'after'))}\n`);
      });
      expect(lines.map((line) => JSON.parse(line))).toEqual([
        { jsonrpc: '2.0', id: null, error: { code: -32700, message: 'Parse error: Invalid JSON' } },
        { jsonrpc: '2.0', id: null, error: { code: -32700, message: 'Parse error: Invalid JSON-RPC message' } },
        expect.objectContaining({ id: 'a', result: expect.objectContaining({ structuredContent: { word: 'after' } }) }),
      ]);
    });

    test("the attempt's end cuts a bridge connection the subject left open, and its gateway closes", async () => {
      const { server } = await serve([]);
      opened.splice(opened.indexOf(server), 1);
      const { RIDDLE_MCP_PORT: port, RIDDLE_MCP_TOKEN: token } = server.endpoints.stdio.env;
      const socket = connect(Number(port), '127.0.0.1');
      const cut = new Promise<void>((resolve) => socket.on('close', () => resolve()));
      socket.on('error', () => undefined);
      await new Promise<void>((resolve) => socket.on('connect', () => resolve()));
      // Admitted and idle, as a bridge a subject started in a session of its own and never ended.
      socket.write(`${token}\n`);
      await new Promise((resolve) => setTimeout(resolve, 50));
      // Bounded far above what closing takes, so a gateway that waits for the connection fails here, not at the
      // project's 20-minute timeout.
      const waited = await Promise.race([
        server.close().then(() => cut.then(() => 'closed')),
        new Promise((resolve) => setTimeout(() => resolve('still waiting after 60 s'), 60_000).unref()),
      ]);
      expect(waited).toBe('closed');
      expect(socket.destroyed).toBe(true);
    });
  });
});
