import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, test } from 'vitest';
import type { JsonValue } from '../../../src/model/index.js';
import type { ToolDefinition } from '../../../src/observe/index.js';
import {
  attemptTransport,
  copiesAsIs,
  ExchangeTransport,
  loadMcpSdk,
  mcpServer,
  quickAnswers,
} from '../../../src/observe/mcp-server.js';
import { createToolGateway } from '../../../src/observe/tool-gateway.js';

// The transport answers ping, tools/list and tools/call itself: every reply must be the SDK Server's, byte for byte,
// and the gateway must record the same requests in the same order, for well-formed and malformed requests alike.

function random(seed: number) {
  let state = seed;
  return () => {
    state = (state * 1103515245 + 12345) % 2147483648;
    return state / 2147483648;
  };
}

const tool = (name: string, effect: ToolDefinition['effect'], run: ToolDefinition['run']): ToolDefinition => ({
  name,
  description: `the ${name} tool`,
  effect,
  inputSchema: { type: 'object', properties: { path: { type: 'string' } } },
  run,
});

const TOOLS: ToolDefinition[] = [
  tool('echo', 'read', (args) => args),
  tool('text', 'none', () => 'plain text'),
  tool('list', 'read', () => [1, 'two', null]),
  tool('nothing', 'read', (() => {}) as unknown as ToolDefinition['run']),
  tool('number', 'read', () => 42),
  tool('proto', 'read', () => JSON.parse('{"__proto__":{"approved":true},"n":1}')),
  tool('broken', 'read', () => {
    throw new Error('disk on fire');
  }),
  tool('later', 'read', async (args) => {
    await new Promise((resolve) => setTimeout(resolve, 1));
    return { later: args };
  }),
  tool('shred', 'irreversible', () => 'gone'),
  // Results a tool written in JavaScript may give, which the Server's parse does not give back as they are.
  tool(
    'instance',
    'read',
    () =>
      new (class Box {
        n = 1;
      })() as unknown as JsonValue,
  ),
  tool('symbol', 'read', () => ({ n: 1, [Symbol('s')]: 2 }) as unknown as JsonValue),
  tool('getter', 'read', () => {
    let reads = 0;
    return Object.defineProperty({}, 'n', { get: () => (reads += 1), enumerable: true }) as JsonValue;
  }),
  tool('hidden', 'read', () => Object.defineProperty({ n: 1 }, 'h', { value: 2, enumerable: false }) as JsonValue),
  tool('constructor', 'read', () => ({ constructor: 'x', n: 1 })),
  tool('bare', 'read', () => Object.assign(Object.create(null), { n: 1 }) as JsonValue),
  tool('function', 'read', (() => () => 1) as unknown as ToolDefinition['run']),
  tool('toJSON', 'read', () => ({ n: 1, toJSON: () => 'custom' }) as unknown as JsonValue),
  tool('proxy', 'read', () => {
    const trap = () => {
      throw new Error('trapped');
    };
    return new Proxy({ n: 1 }, { getPrototypeOf: trap }) as unknown as JsonValue;
  }),
  tool('proxy-keys', 'read', () => {
    let lists = 0;
    const ownKeys = (target: object) => {
      lists += 1;
      if (lists === 2) throw new Error(`listed ${lists} times`);
      return Reflect.ownKeys(target);
    };
    return new Proxy({ n: 1 }, { ownKeys }) as unknown as JsonValue;
  }),
];

const INITIALIZE = {
  protocolVersion: '2025-06-18',
  capabilities: { sampling: {} },
  clientInfo: { name: 'file-agent', version: '1.0.0' },
};

function gateway() {
  let now = 0;
  return createToolGateway({
    tools: TOOLS,
    maxEffect: 'write',
    context: { workspace: '/ws', signal: new AbortController().signal },
    elapsedMs: () => (now += 1),
  });
}

const pieces = {
  id: [1, 2, 'a', 0, -7, 1.5, null],
  method: ['tools/call', 'tools/call', 'tools/call', 'tools/list', 'ping', 'initialize', 'resources/list', 'tools/cal'],
  name: [
    ...[
      'echo',
      'echo',
      'text',
      'list',
      'nothing',
      'number',
      'proto',
      'broken',
      'later',
      'shred',
      'absent',
      7,
      undefined,
    ],
    ...['instance', 'symbol', 'getter', 'hidden', 'constructor', 'bare', 'function', 'toJSON', 'proxy', 'proxy-keys'],
  ],
  arguments: [
    { path: 'a.txt' },
    {},
    { deep: { x: [1, 2] } },
    JSON.parse('{"__proto__":{"x":1}}'),
    [],
    'x',
    null,
    undefined,
  ],
  extra: [undefined, undefined, { _meta: { progressToken: 3 } }, { _meta: { progressToken: 1.5 } }, { cursor: 'c' }],
  task: [undefined, undefined, undefined, undefined, { ttl: 1000 }, 'soon'],
  // An initialize's own params, well-formed or not: supported, unknown and malformed versions.
  initialize: [
    { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'agent', version: '1.0.0' } },
    { protocolVersion: '2024-11-05', capabilities: { roots: {} }, clientInfo: { name: 'a', version: '2' } },
    { protocolVersion: '1999-01-01', capabilities: {}, clientInfo: { name: 'old', version: '0' } },
    { protocolVersion: 7, capabilities: {}, clientInfo: { name: 'x', version: '1' } },
    { protocolVersion: '2025-06-18', clientInfo: { name: 'x', version: '1' } },
    { protocolVersion: '2025-06-18', capabilities: {} },
  ],
  notification: ['notifications/initialized', 'notifications/cancelled', 'notifications/progress', 'notes/x'],
};

function pick<T>(next: () => number, values: readonly T[]): T {
  return values[Math.floor(next() * values.length)] as T;
}

function request(next: () => number): Record<string, unknown> {
  if (next() < 0.08) return { jsonrpc: '2.0', method: pick(next, pieces.notification), params: { requestId: 1 } };
  const params: Record<string, unknown> = { ...pick(next, pieces.extra) };
  if (next() < 0.15) Object.assign(params, pick(next, pieces.initialize));
  const name = pick(next, pieces.name);
  if (name !== undefined) params.name = name;
  const args = pick(next, pieces.arguments);
  if (args !== undefined) params.arguments = args;
  const task = pick(next, pieces.task);
  if (task !== undefined) params.task = task;
  const built: Record<string, unknown> = { jsonrpc: '2.0', method: pick(next, pieces.method) };
  const id = pick(next, pieces.id);
  if (id !== null) built.id = id;
  if (next() < 0.9) built.params = next() < 0.1 ? 'not an object' : params;
  return built;
}

/**
 * One side: the attempt's SDK Server over an ExchangeTransport, or the attempt's transport as served (the quick
 * answers, and a Server made when a request is left to it).
 */
async function side(quick: boolean) {
  const sdk = await loadMcpSdk();
  const tools = gateway();
  let transport: ExchangeTransport;
  let close: () => Promise<void>;
  if (quick) ({ transport, close } = attemptTransport(sdk, tools));
  else {
    transport = new ExchangeTransport(null);
    const server = mcpServer(sdk, tools);
    await server.connect(transport);
    close = () => server.close();
  }
  /** The exchange's reply text, as its client gets it, or null when there is nothing to answer. */
  const exchange = (messages: JSONRPCMessage[]) =>
    new Promise<string | null>((resolve) => {
      if (!transport.deliver(messages, resolve)) resolve(null);
    });
  return { sdk, tools, exchange, close };
}

describe('quick answers', () => {
  test('give the SDK Server’s replies byte for byte and the same recorded requests (1,500 seeded exchanges)', async () => {
    const sdkSide = await side(false);
    const quickSide = await side(true);
    const { types } = sdkSide.sdk;
    const next = random(7);
    let answeredQuickly = 0;
    const probe = quickAnswers(sdkSide.sdk, gateway());
    for (let i = 0; i < 1500; i += 1) {
      const raw = Array.from({ length: next() < 0.8 ? 1 : 3 }, () => request(next));
      const checked = raw.map((m) => types.JSONRPCMessageSchema.safeParse(m));
      if (checked.some((c) => !c.success)) continue;
      const messages = checked.map((c) => c.data as JSONRPCMessage);
      // What the quick side answers itself (the probe's gateway is its own: nothing is recorded twice here).
      const calls = messages.filter((m) => 'method' in m && m.method === 'tools/call');
      answeredQuickly += messages.filter((m) => !calls.includes(m) && probe(m) !== null).length;
      answeredQuickly += calls.filter((m) => types.CallToolRequestSchema.safeParse(m).success).length;
      const [expected, got] = await Promise.all([sdkSide.exchange(messages), quickSide.exchange(messages)]);
      expect(got, JSON.stringify(raw)).toBe(expected);
    }
    expect(JSON.stringify(quickSide.tools.requests)).toBe(JSON.stringify(sdkSide.tools.requests));
    // The seeded exchanges reach every kind: answered quickly, left to the Server, tools admitted and denied.
    expect(answeredQuickly).toBeGreaterThan(100);
    expect(sdkSide.tools.requests.filter((r) => r.admitted).length).toBeGreaterThan(20);
    expect(sdkSide.tools.requests.filter((r) => !r.admitted).length).toBeGreaterThan(5);
    await Promise.all([sdkSide.close(), quickSide.close()]);
  });

  test('answer ping, tools/list and a well-formed tools/call without the Server; leave the rest to it', async () => {
    const sdk = await loadMcpSdk();
    const tools = gateway();
    const quick = quickAnswers(sdk, tools);
    const ask = (message: Record<string, unknown>) => quick({ jsonrpc: '2.0', ...message } as JSONRPCMessage);
    expect(ask({ id: 1, method: 'ping' })).toEqual({ result: {}, jsonrpc: '2.0', id: 1 });
    expect(ask({ id: 2, method: 'tools/list' })).toMatchObject({ jsonrpc: '2.0', id: 2 });
    await expect(ask({ id: 3, method: 'tools/call', params: { name: 'text', arguments: {} } })).resolves.toEqual({
      result: { content: [{ type: 'text', text: 'plain text' }] },
      jsonrpc: '2.0',
      id: 3,
    });
    expect(ask({ id: 4, method: 'initialize', params: {} })).toBeNull();
    expect(ask({ id: 7, method: 'initialize', params: INITIALIZE })).toEqual({
      result: {
        protocolVersion: '2025-06-18',
        capabilities: { tools: {} },
        serverInfo: { name: 'riddle-tool-gateway', version: '1' },
      },
      jsonrpc: '2.0',
      id: 7,
    });
    // A tools/call the schema refuses is answered too, Invalid params on one line (the Server's own parse made it an
    // Internal error with zod's issues over many lines); without a tool's name there is no request to record.
    await expect(ask({ id: 5, method: 'tools/call', params: { arguments: {} } })).rejects.toMatchObject({
      code: -32602,
      message:
        'MCP error -32602: Invalid tools/call request: params.name: Invalid input: expected string, received undefined',
    });
    expect(ask({ id: 6, method: 'tools/call', params: { name: 'text', task: { ttl: 1 } } })).toBeNull();
    expect(ask({ method: 'notifications/initialized' })).toBeNull();
    expect(tools.requests.map((r) => r.tool)).toEqual(['text']);
  });

  test('make the Server only for a request left to it, and tell it the initializations answered before', async () => {
    const sdk = await loadMcpSdk();
    const tools = gateway();
    let server: ReturnType<typeof mcpServer> | null = null;
    const transport = new ExchangeTransport(quickAnswers(sdk, tools), (connecting) => {
      server = mcpServer(sdk, tools);
      void server.connect(connecting);
    });
    const exchange = (message: Record<string, unknown>) =>
      new Promise<string | null>((resolve) => {
        if (!transport.deliver([{ jsonrpc: '2.0', ...message } as JSONRPCMessage], resolve)) resolve(null);
      });
    // An agent's conversation: initialize, its notification, a listing, a call, a ping.
    await exchange({ id: 0, method: 'initialize', params: INITIALIZE });
    await exchange({ method: 'notifications/initialized' });
    await exchange({ id: 1, method: 'tools/list' });
    await exchange({ id: 2, method: 'tools/call', params: { name: 'text', arguments: {} } });
    await exchange({ id: 3, method: 'ping' });
    expect(server).toBeNull();
    // A request the quick answers leave: the Server is made, knows the client as its own would, and answers.
    expect(await exchange({ id: 4, method: 'resources/list' })).toBe(
      '{"jsonrpc":"2.0","id":4,"error":{"code":-32601,"message":"Method not found"}}',
    );
    // Its handlers run a few turns after the request arrives (Method not found is answered at once).
    await new Promise((resolve) => setImmediate(resolve));
    const made = server as ReturnType<typeof mcpServer> | null;
    expect(made?.getClientVersion()).toEqual(INITIALIZE.clientInfo);
    expect(made?.getClientCapabilities()).toEqual(INITIALIZE.capabilities);
    await made?.close();
  });

  test('take an object as it is only where zod’s record parse gives back the same members in the same order', async () => {
    const { z } = await import('zod');
    const record = z.record(z.string(), z.unknown());
    const same = [
      {},
      { a: 1, b: { c: [2] } },
      JSON.parse('{"2":"b","1":"a","z":0}'),
      { nested: JSON.parse('{"__proto__":1}') },
    ];
    for (const value of same) {
      expect(copiesAsIs(value)).toBe(true);
      expect(Object.entries(record.parse(value))).toEqual(Object.entries(value));
    }
    const left = [
      JSON.parse('{"__proto__":{"x":1},"n":1}'),
      { constructor: 'c' },
      { n: 1, [Symbol('s')]: 2 },
      Object.defineProperty({}, 'n', { get: () => 1, enumerable: true }),
      Object.defineProperty({ n: 1 }, 'h', { value: 2, enumerable: false }),
      Object.assign(Object.create(null), { n: 1 }),
      new (class Box {
        n = 1;
      })(),
      [1],
      null,
      'text',
    ];
    for (const [i, value] of left.entries()) expect(copiesAsIs(value), `case ${i}`).toBe(false);
  });
});

describe('a tools/call the schema refuses', () => {
  // As an agent sends it, parsed from its JSON (so a `__proto__` member is an own member).
  const call = (params: string) =>
    JSON.parse(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":${params}}`) as JSONRPCMessage;

  test.each([true, false])(
    'is Invalid params on one line and recorded as denied, answered quickly or by the Server (quick: %s)',
    async (quick) => {
      const { tools, exchange, close } = await side(quick);
      const reply = await exchange([call('{"name":"echo","arguments":["x"]}')]);
      const why = 'Invalid tools/call request: params.arguments: Invalid input: expected record, received array';
      expect(JSON.parse(reply ?? 'null')).toEqual({
        jsonrpc: '2.0',
        id: 1,
        error: { code: -32602, message: `MCP error -32602: ${why}` },
      });
      expect(tools.requests).toEqual([
        expect.objectContaining({ tool: 'echo', arguments: ['x'], effect: 'read', admitted: false, reason: why }),
      ]);
      // The gateway still answers the next, well-formed call.
      await exchange([call('{"name":"echo","arguments":{"path":"a"}}')]);
      expect(tools.requests.map((r) => r.admitted)).toEqual([false, true]);
      await close();
    },
  );

  test.each([true, false])(
    'an argument named __proto__ is kept as an own member of the recorded arguments (quick: %s)',
    async (quick) => {
      const { tools, exchange, close } = await side(quick);
      await exchange([call('{"name":"echo","arguments":{"__proto__":{"x":1},"n":1}}')]);
      const recorded = tools.requests[0]?.arguments as Record<string, unknown>;
      expect(Object.hasOwn(recorded, '__proto__')).toBe(true);
      expect(Object.getPrototypeOf(recorded)).toBe(Object.prototype);
      expect(JSON.stringify(recorded)).toBe('{"__proto__":{"x":1},"n":1}');
      await close();
    },
  );
});
