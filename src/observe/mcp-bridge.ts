import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { leftovers } from './leftovers.js';

/**
 * A stdio MCP server that relays newline-delimited JSON-RPC to riddle's streamable HTTP gateway, for agents that
 * only launch MCP servers as commands. It is plain JavaScript on Node built-ins so it runs with `node` whether
 * riddle runs from its build or its sources; it is written out per attempt rather than shipped as a file.
 */
const BRIDGE_SOURCE = `// riddle MCP stdio bridge: relays JSON-RPC between stdio and riddle's tool gateway at RIDDLE_MCP_URL.
import { createInterface } from 'node:readline';
const url = process.env.RIDDLE_MCP_URL;
if (!url) {
  process.stderr.write('riddle MCP bridge: RIDDLE_MCP_URL is not set\\n');
  process.exit(2);
}
let session = null;
let protocol = null;
const write = (message) => process.stdout.write(JSON.stringify(message) + '\\n');
async function relay(line) {
  let message;
  try {
    message = JSON.parse(line);
  } catch {
    write({ jsonrpc: '2.0', id: null, error: { code: -32700, message: 'riddle MCP bridge: not JSON' } });
    return;
  }
  const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
  if (session) headers['mcp-session-id'] = session;
  if (protocol) headers['mcp-protocol-version'] = protocol;
  try {
    const response = await fetch(url, { method: 'POST', headers, body: line });
    session = response.headers.get('mcp-session-id') ?? session;
    const body = await response.text();
    const replies = (response.headers.get('content-type') ?? '').includes('text/event-stream')
      ? body.split(/\\r?\\n/).filter((l) => l.startsWith('data:')).map((l) => l.slice(5).trim()).filter(Boolean)
      : body.trim() ? [body] : [];
    for (const reply of replies) {
      const parsed = JSON.parse(reply);
      if (message.method === 'initialize' && parsed.result && parsed.result.protocolVersion) protocol = parsed.result.protocolVersion;
      write(parsed);
    }
  } catch (error) {
    if (message.id !== undefined) write({ jsonrpc: '2.0', id: message.id, error: { code: -32603, message: 'riddle MCP bridge: ' + error.message } });
  }
}
let queue = Promise.resolve();
const lines = createInterface({ input: process.stdin });
lines.on('line', (line) => {
  if (line.trim()) queue = queue.then(() => relay(line));
});
lines.on('close', () => {
  queue.then(() => process.exit(0));
});
`;

export interface StdioBridge {
  command: string;
  args: string[];
  env: Record<string, string>;
  remove(): Promise<void>;
}

/** Write the bridge into a fresh temporary folder and say how to launch it against `url`. */
export async function writeStdioBridge(url: string): Promise<StdioBridge> {
  const folder = await mkdtemp(path.join(os.tmpdir(), 'riddle-mcp-'));
  leftovers.holdFolder(folder);
  const file = path.join(folder, 'riddle-mcp-bridge.mjs');
  await writeFile(file, BRIDGE_SOURCE);
  return {
    command: process.execPath,
    args: [file],
    env: { RIDDLE_MCP_URL: url },
    async remove() {
      await rm(folder, { recursive: true, force: true });
      leftovers.releaseFolder(folder);
    },
  };
}
