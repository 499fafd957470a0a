import { existsSync } from 'node:fs';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { describe, expect, test, vi } from 'vitest';
import * as bridgeModule from '../../src/observe/mcp-bridge.js';
import {
  createToolGateway,
  type IsolationEngine,
  observeAttempt,
  serveToolsOverMcp,
  type ToolDefinition,
} from '../../src/observe/index.js';
import { mcpConfigReader, passThroughIsolation, plan } from './observe-support.js';

// Counts the Node bridges made (each a folder, a script and a unix socket) while keeping what they do.
vi.mock('../../src/observe/mcp-bridge.js', async (original) => {
  const actual = await original<typeof bridgeModule>();
  return { ...actual, writeStdioBridge: vi.fn(actual.writeStdioBridge) };
});
const made = vi.mocked(bridgeModule.writeStdioBridge);

const echo: ToolDefinition = {
  name: 'echo',
  description: 'Echo a word',
  effect: 'none',
  inputSchema: { type: 'object', properties: { word: { type: 'string' } } },
  run: (args) => String((args as { word?: string }).word),
};

const gateway = () =>
  createToolGateway({
    tools: [echo],
    maxEffect: 'write',
    context: { workspace: null, signal: new AbortController().signal },
    elapsedMs: () => 0,
  });

const lightBridge = process.platform === 'linux' && existsSync('/bin/bash');

describe("the Node bridge's folder and socket", () => {
  test.runIf(lightBridge)(
    'are made when first read (`when-read`), once, reach the tools, and go with the gateway',
    async () => {
      made.mockClear();
      const server = await serveToolsOverMcp(gateway(), { socketBridge: 'when-read' });
      try {
        expect(made).not.toHaveBeenCalled();
        expect(server.endpoints.stdio.command).toMatch(/\/bash$/);
        expect(made).not.toHaveBeenCalled();
        const folder = server.endpoints.folder;
        expect(made).toHaveBeenCalledTimes(1);
        expect(existsSync(folder)).toBe(true);
        const { command, args, env } = server.endpoints.stdioOverSocket;
        expect({ ...server.endpoints }.folder).toBe(folder);
        expect(made).toHaveBeenCalledTimes(1);
        const client = new Client({ name: 'test-client', version: '1.0.0' });
        await client.connect(new StdioClientTransport({ command, args, env }));
        const result = await client.callTool({ name: 'echo', arguments: { word: 'over the socket' } });
        expect(result.content).toEqual([{ type: 'text', text: 'over the socket' }]);
        await client.close();
        await server.close();
        expect(existsSync(folder)).toBe(false);
      } finally {
        await server.close();
      }
    },
  );

  test.runIf(lightBridge)('are never made after the gateway closed', async () => {
    made.mockClear();
    const server = await serveToolsOverMcp(gateway(), { socketBridge: 'when-read' });
    await server.close();
    expect(() => server.endpoints.folder).toThrow(/closed/);
    expect(made).not.toHaveBeenCalled();
  });

  test('are made at once by default, as for any subject that may read them', async () => {
    made.mockClear();
    const server = await serveToolsOverMcp(gateway());
    try {
      expect(made).toHaveBeenCalledTimes(1);
      expect(existsSync(server.endpoints.folder)).toBe(true);
    } finally {
      await server.close();
    }
  });

  test.runIf(lightBridge)(
    'are not made for an unisolated command subject (it reaches the gateway over loopback); an isolated one gets them',
    async () => {
      const bridges = async (isolation: IsolationEngine | null) => {
        made.mockClear();
        const subject = mcpConfigReader(isolation ? { engine: isolation } : undefined);
        const observed = await observeAttempt(plan(subject, 'go', { tools: [echo] }));
        expect(observed.status, observed.error?.message).toBe('completed');
        const config = observed.observation?.rounds[0]?.reply as { mcpServers: { riddle: { command: string } } };
        return { made: made.mock.calls.length, command: config.mcpServers.riddle.command };
      };
      expect(await bridges(null)).toEqual({ made: 0, command: expect.stringMatching(/\/bash$/) });
      expect(await bridges(passThroughIsolation)).toEqual({ made: 1, command: process.execPath });
    },
  );
});
