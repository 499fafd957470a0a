import { randomBytes, timingSafeEqual } from 'node:crypto';
import { chmod } from 'node:fs/promises';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { CallToolResult, Tool } from '@modelcontextprotocol/sdk/types.js';
import type { EffectClass, JsonValue } from '../model/index.js';
import { writeStdioBridge, type StdioBridge } from './mcp-bridge.js';
import type { McpEndpoints } from './subject.js';
import type { ToolGateway } from './tool-gateway.js';

/** An attempt's tools served over MCP on loopback. */
export interface McpToolServer {
  readonly endpoints: McpEndpoints;
  close(): Promise<void>;
}

const message = (error: unknown) => (error instanceof Error ? error.message : String(error));

/** MCP's behaviour hints, read off the effect class; the class itself gates admission. */
function annotations(effect: EffectClass): NonNullable<Tool['annotations']> {
  return {
    readOnlyHint: effect === 'none' || effect === 'read',
    destructiveHint: effect === 'irreversible',
    openWorldHint: effect === 'external' || effect === 'irreversible',
  };
}

/** The MCP SDK's parts the gateway serves with. */
type McpSdk = Awaited<ReturnType<typeof importMcpSdk>>;

async function importMcpSdk() {
  const [{ Server }, { StreamableHTTPServerTransport }, { CallToolRequestSchema, ListToolsRequestSchema }] =
    await Promise.all([
      import('@modelcontextprotocol/sdk/server/index.js'),
      import('@modelcontextprotocol/sdk/server/streamableHttp.js'),
      import('@modelcontextprotocol/sdk/types.js'),
    ]);
  return { Server, StreamableHTTPServerTransport, CallToolRequestSchema, ListToolsRequestSchema };
}

// Loaded with the first attempt that serves tools over MCP: a worker whose trials never do does not hold the SDK
// (about 25 MB of its modules and their zod schemas).
let mcpSdk: Promise<McpSdk> | null = null;
const loadMcpSdk = (): Promise<McpSdk> => {
  mcpSdk ??= importMcpSdk();
  return mcpSdk;
};

function mcpServer(sdk: McpSdk, gateway: ToolGateway): Server {
  const { Server, CallToolRequestSchema, ListToolsRequestSchema } = sdk;
  const server = new Server({ name: 'riddle-tool-gateway', version: '1' }, { capabilities: { tools: {} } });
  server.setRequestHandler(ListToolsRequestSchema, () => ({
    // Tools above the Case's effect class are listed too: a request for one is denied and kept as evidence.
    tools: gateway.tools.map(
      (tool): Tool => ({
        name: tool.name,
        description: tool.description,
        inputSchema: { ...tool.inputSchema, type: 'object' },
        annotations: annotations(tool.effect),
      }),
    ),
  }));
  server.setRequestHandler(CallToolRequestSchema, async (request): Promise<CallToolResult> => {
    try {
      // Arguments arrive as parsed JSON.
      const result = await gateway.call(
        request.params.name,
        (request.params.arguments ?? {}) as { [key: string]: JsonValue },
      );
      const structured = result !== null && typeof result === 'object' && !Array.isArray(result);
      return {
        content: [{ type: 'text', text: typeof result === 'string' ? result : JSON.stringify(result) }],
        ...(structured ? { structuredContent: result } : {}),
      };
    } catch (error) {
      return { isError: true, content: [{ type: 'text', text: message(error) }] };
    }
  });
  return server;
}

function refuse(res: ServerResponse, status: number, text: string): void {
  res
    .writeHead(status, { 'content-type': 'application/json' })
    .end(JSON.stringify({ jsonrpc: '2.0', id: null, error: { code: -32000, message: text } }));
}

/** The attempt's token, compared in constant time: a process that does not know it learns nothing by trying. */
function holdsToken(pathname: string, token: string): boolean {
  const expected = Buffer.from(`/mcp/${token}`);
  const given = Buffer.from(pathname);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/**
 * Serve an attempt's tool gateway over MCP streamable HTTP on 127.0.0.1 (a free port), stateless with JSON
 * responses, plus a stdio bridge for clients that launch servers as commands. The gateway belongs to one attempt:
 * its URL carries a fresh unguessable token (`/mcp/<token>`), and a request without it is refused (401), so a
 * process of another trial or attempt that finds the port cannot list or call this attempt's tools, nor have its
 * requests recorded as this attempt's. Requests whose Host is not this loopback address are refused too, so a web
 * page cannot reach the tools through DNS rebinding. The same server answers on a unix socket beside the bridge,
 * which an isolated subject without a network reaches through the bridge.
 */
export async function serveToolsOverMcp(gateway: ToolGateway): Promise<McpToolServer> {
  const sdk = await loadMcpSdk();
  let port = 0;
  const token = randomBytes(32).toString('base64url');
  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    if (req.headers.host !== `127.0.0.1:${port}` && req.headers.host !== `localhost:${port}`)
      return refuse(res, 403, 'host not allowed');
    if (!holdsToken(new URL(req.url ?? '/', 'http://127.0.0.1').pathname, token))
      return refuse(res, 401, "not this attempt's tool gateway: the URL must carry its token (RIDDLE_MCP_URL)");
    // Stateless: there is no server-initiated stream to open, and no session to end.
    if (req.method !== 'POST') return refuse(res, 405, 'method not allowed');
    const server = mcpServer(sdk, gateway);
    const transport = new sdk.StreamableHTTPServerTransport({
      sessionIdGenerator: undefined,
      enableJsonResponse: true,
    });
    res.on('close', () => {
      void transport.close();
      void server.close();
    });
    await server.connect(transport);
    await transport.handleRequest(req, res);
  };
  const listener = (req: IncomingMessage, res: ServerResponse) => {
    handle(req, res).catch((error: unknown) => {
      if (!res.headersSent) refuse(res, 500, message(error));
    });
  };
  const http = createServer(listener);
  const local = createServer(listener);
  await new Promise<void>((resolve, reject) => {
    http.once('error', reject);
    http.listen(0, '127.0.0.1', () => resolve());
  });
  port = (http.address() as AddressInfo).port;
  const url = `http://127.0.0.1:${port}/mcp/${token}`;
  const stop = async () => {
    for (const server of [http, local]) {
      server.closeAllConnections();
      if (server.listening) await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  };
  let bridge: StdioBridge | undefined;
  try {
    bridge = await writeStdioBridge(url);
    const socket = bridge.socket;
    await new Promise<void>((resolve, reject) => {
      local.once('error', reject);
      local.listen(socket, () => resolve());
    });
    await chmod(socket, 0o600);
  } catch (error) {
    await stop();
    await bridge?.remove();
    throw error;
  }
  const opened = bridge;
  return {
    endpoints: {
      url,
      stdio: { command: opened.command, args: opened.args, env: opened.env },
      folder: opened.folder,
    },
    async close() {
      await stop();
      await opened.remove();
    },
  };
}
