import {
  isInitializeRequest,
  isJSONRPCRequest,
  JSONRPCMessageSchema,
  type JSONRPCMessage,
} from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, test } from 'vitest';
import { isCheckedRequest } from '../../../src/observe/mcp-server.js';

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
