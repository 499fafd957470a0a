import { execFile } from 'node:child_process';
import { accessSync, constants, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { leftovers } from './leftovers.js';

/** How a client launches a stdio MCP server. */
export interface StdioLaunch {
  command: string;
  args: string[];
  env: Record<string, string>;
}

/**
 * A stdio MCP server that relays newline-delimited JSON-RPC to riddle's streamable HTTP gateway, for agents that
 * only launch MCP servers as commands. It is plain JavaScript on Node built-ins so it runs with `node` whether
 * riddle runs from its build or its sources; it is written out per attempt rather than shipped as a file.
 */
const BRIDGE_SOURCE = `// riddle MCP stdio bridge: relays JSON-RPC between stdio and riddle's tool gateway at RIDDLE_MCP_URL,
// through the unix socket RIDDLE_MCP_SOCKET when that is set (an isolated subject may have no network).
import { request } from 'node:http';
import { createInterface } from 'node:readline';
const url = process.env.RIDDLE_MCP_URL;
const socketPath = process.env.RIDDLE_MCP_SOCKET;
if (!url) {
  process.stderr.write('riddle MCP bridge: RIDDLE_MCP_URL is not set\\n');
  process.exit(2);
}
const target = new URL(url);
let session = null;
let protocol = null;
const write = (message) => process.stdout.write(JSON.stringify(message) + '\\n');
function post(headers, body) {
  return new Promise((resolve, reject) => {
    const options = { method: 'POST', path: target.pathname, headers: { ...headers, host: target.host } };
    if (socketPath) options.socketPath = socketPath;
    else Object.assign(options, { hostname: target.hostname, port: target.port });
    const req = request(options, (res) => {
      const chunks = [];
      res.on('data', (chunk) => chunks.push(chunk));
      res.on('end', () => resolve({ headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body);
  });
}
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
    const response = await post(headers, line);
    session = response.headers['mcp-session-id'] ?? session;
    const body = response.body;
    const replies = (response.headers['content-type'] ?? '').includes('text/event-stream')
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

/** The Node bridge written into its folder, with the unix socket the gateway answers on beside it. */
export interface StdioBridge extends StdioLaunch {
  /** The folder holding the bridge and its socket: an isolated subject needs it mounted to reach the tools. */
  folder: string;
  /** Where the gateway also listens, for the bridge (a unix socket in `folder`). */
  socket: string;
  remove(): void;
}

/**
 * Write the bridge into a fresh temporary folder and say how to launch it against `url` (or the socket beside it).
 * Synchronous: two small calls, made at most once an attempt.
 */
export function writeStdioBridge(url: string): StdioBridge {
  const folder = mkdtempSync(path.join(os.tmpdir(), 'riddle-mcp-'));
  leftovers.holdFolder(folder);
  const file = path.join(folder, 'riddle-mcp-bridge.mjs');
  const socket = path.join(folder, 'mcp.sock');
  const remove = () => {
    rmSync(folder, { recursive: true, force: true });
    leftovers.releaseFolder(folder);
  };
  try {
    writeFileSync(file, BRIDGE_SOURCE);
  } catch (error) {
    remove();
    throw error;
  }
  return {
    command: process.execPath,
    args: [file],
    env: { RIDDLE_MCP_URL: url, RIDDLE_MCP_SOCKET: socket },
    folder,
    socket,
    remove,
  };
}

/**
 * The light stdio bridge: bash connects to the gateway's line port on loopback (`/dev/tcp`), sends the attempt's token
 * as its first line, and two `cat`s copy lines between stdio and the connection (no interpreter to load: a few
 * milliseconds of CPU where a Node process takes about a hundred). When the client closes stdin the copy towards the
 * gateway ends and the copy back is stopped, which closes the connection.
 */
function lightBridgeScript(cat: string): string {
  return [
    'exec 3<>"/dev/tcp/127.0.0.1/$RIDDLE_MCP_PORT" || exit 2',
    'printf \'%s\\n\' "$RIDDLE_MCP_TOKEN" >&3',
    `${cat} <&3 &`,
    `${cat} >&3`,
    'kill $! 2>/dev/null',
  ].join('\n');
}

/**
 * No start-up files and nothing from the environment: Node gives a child its stdio over socket pairs, and bash taking
 * a socket on stdin for a remote shell's would read ~/.bashrc (a hundred milliseconds and more, here); `-p` also
 * leaves BASH_ENV and ENV unread and functions exported by the agent's environment (a `printf`, say) unimported.
 */
const BASH_FLAGS = ['--norc', '--noprofile', '-p'];

/** The first executable file of that name in the usual system folders, or null. */
function systemExecutable(name: string): string | null {
  for (const folder of ['/bin', '/usr/bin']) {
    const file = path.join(folder, name);
    try {
      accessSync(file, constants.X_OK);
      return file;
    } catch {
      // not there
    }
  }
  return null;
}

/** Whether bash at `bash` opens `/dev/tcp` connections (some builds leave them out): tried once against a listener. */
function opensTcp(bash: string): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = createServer((socket) => socket.destroy());
    probe.once('error', () => resolve(false));
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      const port = typeof address === 'object' && address !== null ? address.port : 0;
      execFile(
        bash,
        [...BASH_FLAGS, '-c', `exec 3<>/dev/tcp/127.0.0.1/${port}`],
        { env: {}, timeout: 10_000 },
        (error) => {
          probe.close();
          resolve(error === null);
        },
      );
    });
  });
}

let lightBridge: Promise<((port: number, token: string) => StdioLaunch) | null> | null = null;

/**
 * The light bridge's launch for a gateway line port and token, when this machine has bash (with `/dev/tcp`) and cat
 * in /bin or /usr/bin; null otherwise (then the Node bridge serves). Found out once per process.
 */
export function findLightBridge(): Promise<((port: number, token: string) => StdioLaunch) | null> {
  lightBridge ??= (async () => {
    const bash = systemExecutable('bash');
    const cat = systemExecutable('cat');
    if (process.platform === 'win32' || bash === null || cat === null || !(await opensTcp(bash))) return null;
    const script = lightBridgeScript(cat);
    return (port, token) => ({
      command: bash,
      args: [...BASH_FLAGS, '-c', script],
      env: { RIDDLE_MCP_PORT: String(port), RIDDLE_MCP_TOKEN: token },
    });
  })();
  return lightBridge;
}
