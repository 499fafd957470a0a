import {
  isInitializeRequest,
  isJSONRPCRequest,
  JSONRPCMessageSchema,
  type JSONRPCMessage,
} from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, test } from 'vitest';
import { isCheckedRequest, plainMessage } from '../../../src/observe/mcp-server.js';

// The gateway tells requests apart without parsing each message again: the answer must be the SDK's for every
// message that passed JSONRPCMessageSchema, and the initialize shortcut must never miss an initialize request.
function random(seed: number) {
  let state = seed;
  return () => {
    state = (state * 1103515245 + 12345) % 2147483648;
    return state / 2147483648;
  };
}

const pieces = {
  jsonrpc: ['2.0', '2.0', '2.0', '2.0', '2.0', '2.0', '1.0', 2],
  id: [1, 0, -3, 'a', '', 1.5, null, true, undefined, { n: 1 }],
  method: ['tools/call', 'initialize', 'notifications/initialized', '', 7, undefined],
  params: [
    {},
    { name: 'x', arguments: {} },
    { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'c', version: '1' } },
    { _meta: { progressToken: 1 } },
    { _meta: { progressToken: 1.5 } },
    [],
    null,
    undefined,
  ],
  result: [{}, { content: [] }, null, 'x', undefined],
  error: [{ code: 1, message: 'm' }, { code: 1.5, message: 'm' }, { message: 'm' }, null, undefined],
  extra: [undefined, undefined, undefined, 'x'],
} as const;

function message(next: () => number): Record<string, unknown> {
  const built: Record<string, unknown> = {};
  for (const [key, values] of Object.entries(pieces)) {
    const value = values[Math.floor(next() * values.length)];
    if (value !== undefined && (key === 'jsonrpc' ? next() < 0.95 : next() < 0.5)) built[key] = value;
  }
  return built;
}

describe('isCheckedRequest', () => {
  test('says what isJSONRPCRequest says of every message JSONRPCMessageSchema accepts (known and 20,000 seeded messages)', () => {
    const next = random(12);
    let accepted = 0;
    let requests = 0;
    let initializes = 0;
    const initialize = { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'c', version: '1' } };
    const known: Record<string, unknown>[] = [
      { jsonrpc: '2.0', id: 0, method: 'initialize', params: initialize },
      { jsonrpc: '2.0', id: 'x', method: 'initialize', params: initialize },
      { jsonrpc: '2.0', method: 'initialize', params: initialize },
      { jsonrpc: '2.0', id: 1, method: 'initialize' },
      { jsonrpc: '2.0', id: 1, method: 'tools/list' },
      { jsonrpc: '2.0', method: 'notifications/initialized' },
      { jsonrpc: '2.0', id: 1, result: {} },
      { jsonrpc: '2.0', error: { code: -1, message: 'm' } },
    ];
    const drawn = Array.from({ length: 20_000 }, () => message(next));
    for (const raw of [...known, ...drawn]) {
      const parsed = JSONRPCMessageSchema.safeParse(JSON.parse(JSON.stringify(raw)));
      if (!parsed.success) continue;
      accepted += 1;
      const m: JSONRPCMessage = parsed.data;
      expect(isCheckedRequest(m), JSON.stringify(m)).toBe(isJSONRPCRequest(m));
      if (isCheckedRequest(m)) requests += 1;
      // The shortcut before isInitializeRequest: a method other than `initialize` is never an initialize request.
      if (isInitializeRequest(m)) {
        initializes += 1;
        expect('method' in m && m.method === 'initialize').toBe(true);
      }
    }
    // The draw reaches every kind.
    expect(accepted).toBeGreaterThan(500);
    expect(requests).toBeGreaterThan(100);
    expect(accepted - requests).toBeGreaterThan(100);
    expect(initializes).toBeGreaterThan(2);
  });
});

/** Every member's name in order, at every depth: the parse and the shortcut must build the same objects. */
function shape(value: unknown): unknown {
  if (value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map(shape);
  return Object.entries(value).map(([name, member]) => [name, shape(member)]);
}

describe('plainMessage', () => {
  test('gives what JSONRPCMessageSchema’s parse gives, member for member and in order, or leaves the message to it (30,000 seeded messages)', () => {
    const next = random(31);
    const pick = <T>(values: readonly T[]): T => values[Math.floor(next() * values.length)] as T;
    const texts = [
      '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"__proto__":{"x":1},"name":"a"}}',
      '{"__proto__":{},"jsonrpc":"2.0","id":1,"method":"m"}',
      '{"jsonrpc":"2.0","id":1,"method":"m","params":{"2":"b","name":"a","1":"c"}}',
      '{"method":"m","params":{"b":1,"a":2},"id":"x","jsonrpc":"2.0"}',
      '{"jsonrpc":"2.0","id":-0,"method":"m"}',
      '{"jsonrpc":"2.0","id":9007199254740993,"method":"m"}',
      '{"jsonrpc":"2.0","id":1,"method":"m","params":{"_meta":{"progressToken":1},"b":1}}',
    ];
    const members = {
      jsonrpc: ['2.0', '2.0', '2.0', '2.0', '1.0', 2, null],
      id: [1, 0, -3, 'a', '', 1.5, 2 ** 53, null, true, { n: 1 }],
      method: ['tools/call', 'initialize', 'notifications/initialized', '', 7, null],
      params: [
        {},
        { name: 'x', arguments: { path: 'a', deep: [1, { b: 2 }] } },
        { arguments: {}, name: 'x' },
        { 10: 'ten', 2: 'two', name: 'x' },
        { _meta: { progressToken: 1 }, name: 'x' },
        { name: 'x', _meta: {} },
        { task: { ttl: 1 } },
        [],
        null,
        'text',
      ],
      result: [{}, { content: [] }],
      error: [{ code: 1, message: 'm' }],
      extra: ['x', 1, null],
    } as const;
    const drawn = Array.from({ length: 30_000 }, () => {
      const built: Record<string, unknown> = {};
      // Members in any order, each present or not (mostly a well-formed request or notification).
      const names = Object.keys(members).sort(() => next() - 0.5);
      for (const name of names) {
        const wanted = ['jsonrpc', 'method'].includes(name) ? 0.95 : ['id', 'params'].includes(name) ? 0.6 : 0.05;
        if (next() < wanted) built[name] = pick(members[name as keyof typeof members]);
      }
      return JSON.stringify(built);
    });
    let taken = 0;
    let left = 0;
    for (const text of [...texts, ...drawn]) {
      const parsed = JSONRPCMessageSchema.safeParse(JSON.parse(text));
      const raw = JSON.parse(text);
      const quick = plainMessage(raw);
      if (quick === null) {
        left += 1;
        continue;
      }
      taken += 1;
      expect(parsed.success, text).toBe(true);
      expect(shape(quick), text).toEqual(shape(parsed.data));
      expect(JSON.stringify(quick), text).toBe(JSON.stringify(parsed.data));
      // The same values under params (a tool's arguments are recorded as they came).
      const params = (quick as { params?: Record<string, unknown> }).params;
      for (const [name, value] of Object.entries(params ?? {})) expect(value).toBe(raw.params[name]);
    }
    // The draw reaches both: taken as it is, and left to the parse.
    expect(taken).toBeGreaterThan(3000);
    expect(left).toBeGreaterThan(3000);
  });
});
