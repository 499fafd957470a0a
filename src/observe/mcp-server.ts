import { randomBytes, timingSafeEqual } from 'node:crypto';
import { chmodSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { createServer as createNetServer, type AddressInfo, type Server as NetServer, type Socket } from 'node:net';
import { isProxy } from 'node:util/types';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { CallToolResult, JSONRPCMessage, Tool } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { setOwnMember, type EffectClass, type JsonValue } from '../model/index.js';
import { findLightBridge, type StdioBridge, type StdioLaunch, writeStdioBridge } from './mcp-bridge.js';
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

/** Who the gateway's Server says it is, and what it offers (tools), in its `initialize` reply. */
const SERVER_INFO = { name: 'riddle-tool-gateway', version: '1' };
const serverCapabilities = () => ({ tools: {} });

/** The MCP SDK's parts the gateway serves with. */
export type McpSdk = Awaited<ReturnType<typeof importMcpSdk>>;

async function importMcpSdk() {
  const [{ Server }, { Protocol }, types, { isJsonContentType }, body, { AjvJsonSchemaValidator }] = await Promise.all([
    import('@modelcontextprotocol/sdk/server/index.js'),
    import('@modelcontextprotocol/sdk/shared/protocol.js'),
    import('@modelcontextprotocol/sdk/types.js'),
    import('@modelcontextprotocol/sdk/shared/mediaType.js'),
    import('@modelcontextprotocol/sdk/server/requestBody.js'),
    import('@modelcontextprotocol/sdk/validation/ajv'),
  ]);
  return {
    Server,
    Protocol,
    types,
    isJsonContentType,
    body,
    // Every SDK Server makes its own validator (a fresh Ajv, milliseconds to build) unless given one; the gateway's
    // servers never validate anything with it (it checks elicitation replies), so one serves them all.
    validator: new AjvJsonSchemaValidator(),
  };
}

// Loaded with the first attempt that serves tools over MCP: a worker whose trials never do does not hold the SDK
// (about 25 MB of its modules and their zod schemas).
let mcpSdk: Promise<McpSdk> | null = null;
export const loadMcpSdk = (): Promise<McpSdk> => {
  mcpSdk ??= importMcpSdk();
  return mcpSdk;
};

/** The gateway's tools as `tools/list` answers them (tools above the Case's effect class too: a request for one is
 * denied and kept as evidence). */
function listedTools(gateway: ToolGateway): { tools: Tool[] } {
  return {
    tools: gateway.tools.map(
      (tool): Tool => ({
        name: tool.name,
        description: tool.description,
        inputSchema: { ...tool.inputSchema, type: 'object' },
        annotations: annotations(tool.effect),
      }),
    ),
  };
}

/**
 * A tool called through the gateway, its answer as a `tools/call` result (members in CallToolResultSchema's order, so
 * that schema's parse gives them back in the same order); a tool's error is the result's.
 */
async function callTool(gateway: ToolGateway, name: string, args: { [key: string]: unknown } | undefined) {
  try {
    // Arguments arrive as parsed JSON.
    const result = await gateway.call(name, (args ?? {}) as { [key: string]: JsonValue });
    const structured = result !== null && typeof result === 'object' && !Array.isArray(result);
    return {
      content: [{ type: 'text', text: typeof result === 'string' ? result : JSON.stringify(result) }],
      ...(structured ? { structuredContent: result } : {}),
    } as CallToolResult;
  } catch (error) {
    return { content: [{ type: 'text', text: message(error) }], isError: true } as CallToolResult;
  }
}

/**
 * Whether zod's parse of `value` as `z.record(z.string(), z.unknown())` gives an object equal to it, member for member
 * and in the same order (so the same JSON and the same recorded arguments): a plain object of enumerable own data
 * members with string names, none of them `__proto__` (the parse leaves that out) or `constructor` (the parse's plain
 * object check reads it), and not a proxy. Anything else is left to the parse.
 */
export function copiesAsIs(value: unknown): value is { [key: string]: unknown } {
  // A proxy's traps see every look: only the parse may look at one, as many times as it does.
  if (value === null || typeof value !== 'object' || isProxy(value)) return false;
  if (Object.getPrototypeOf(value) !== Object.prototype) return false;
  if (Object.getOwnPropertySymbols(value).length > 0) return false;
  const names = Object.getOwnPropertyNames(value);
  for (const name of names) {
    if (name === '__proto__' || name === 'constructor') return false;
    const member = Object.getOwnPropertyDescriptor(value, name);
    if (member === undefined || !member.enumerable || !('value' in member)) return false;
  }
  return true;
}

/**
 * A `tools/call` whose params are only a name and arguments that CallToolRequestSchema's parse would give back as
 * they are: its name and arguments, else null (the parse decides).
 */
function plainCall(params: unknown): { name: string; args: { [key: string]: unknown } | undefined } | null {
  if (!copiesAsIs(params)) return null;
  const { name, arguments: args, ...rest } = params;
  for (const _ in rest) return null;
  if (typeof name !== 'string' || !(args === undefined || copiesAsIs(args))) return null;
  return { name, args };
}

/**
 * The arguments of a parsed `tools/call` as they were sent: zod's record parse leaves out a member named `__proto__`,
 * which a subject may send, and the recorded request must keep (as an own member, never a prototype).
 */
function sentArguments(
  sent: unknown,
  parsed: { [key: string]: unknown } | undefined,
): { [key: string]: unknown } | undefined {
  if (parsed === undefined || sent === null || typeof sent !== 'object' || isProxy(sent)) return parsed;
  if (!Object.hasOwn(sent, '__proto__')) return parsed;
  const kept: { [key: string]: unknown } = {};
  for (const name of Object.keys(sent))
    setOwnMember(kept, name, name === '__proto__' ? (sent as { [key: string]: unknown })[name] : parsed[name]);
  return kept;
}

/** At most this many of zod's issues are named when a `tools/call` is refused. */
const ISSUES_NAMED = 3;

/**
 * A `tools/call` that CallToolRequestSchema refuses (arguments that are not an object, a name that is not a string):
 * recorded by the gateway as denied when it names a tool, and answered Invalid params with the issues on one line, as
 * the SDK's Server means to (its own parse fails first, into an Internal error with zod's issues over many lines).
 */
function refusedCall(sdk: McpSdk, gateway: ToolGateway, params: unknown, issues: readonly ZodIssueLike[]): Error {
  const said = issues
    .slice(0, ISSUES_NAMED)
    .map((issue) => `${issue.path.map(String).join('.') || 'request'}: ${issue.message}`)
    .join('; ')
    .replace(/\s+/g, ' ');
  const why = `Invalid tools/call request: ${said}`;
  const { name, arguments: args } = (typeof params === 'object' && params !== null ? params : {}) as {
    name?: unknown;
    arguments?: unknown;
  };
  if (typeof name === 'string') gateway.deny(name, (args ?? {}) as JsonValue, why);
  return new sdk.types.McpError(sdk.types.ErrorCode.InvalidParams, why);
}

/** What of a zod issue a refusal names. */
interface ZodIssueLike {
  readonly path: readonly PropertyKey[];
  readonly message: string;
}

/**
 * A `tools/call` answered: its tool called through the gateway, the result checked against CallToolResultSchema as the
 * SDK's Server checks it (a failing check the same McpError); a request the schema refuses is `refusedCall`. Both the
 * quick answers and the Server answer with it, so the two give the same replies and record the same requests.
 */
function answerCall<T>(
  sdk: McpSdk,
  gateway: ToolGateway,
  request: JSONRPCMessage,
  answer: (result: CallToolResult) => T,
): Promise<T> {
  const { types } = sdk;
  const params = (request as { params?: unknown }).params;
  // Most calls are a name and plain arguments, which the Server's two parses would give back as they are.
  let call = plainCall(params);
  if (call === null) {
    const parsed = types.CallToolRequestSchema.safeParse(request);
    // Rejected rather than thrown: the quick answers hand what throws to the Server, which would record it again.
    if (!parsed.success) return Promise.reject(refusedCall(sdk, gateway, params, parsed.error.issues));
    const { name, arguments: args } = parsed.data.params;
    call = { name, args: sentArguments((params as { arguments?: unknown }).arguments, args) };
  }
  // One `then`, the answer made in it (not an async function, nor a `then` after): each promise more is one more of
  // the few an answer makes.
  return callTool(gateway, call.name, call.args).then((result) => {
    if (takenAsIs(result)) return answer(result);
    const checked = types.CallToolResultSchema.safeParse(result);
    if (checked.success) return answer(checked.data);
    throw new types.McpError(types.ErrorCode.InvalidParams, `Invalid tools/call result: ${checked.error.message}`);
  });
}

/** Whether a result is taken as it is: `plainResult`, which a tool's proxy may make throw (then the parse decides). */
function takenAsIs(result: CallToolResult): boolean {
  try {
    return plainResult(result);
  } catch {
    return false;
  }
}

/** Whether CallToolResultSchema's parse of a result `callTool` made gives it back as it is (the same JSON). */
function plainResult(result: CallToolResult): boolean {
  const [first, ...others] = result.content;
  return (
    others.length === 0 &&
    typeof (first as { text?: unknown } | undefined)?.text === 'string' &&
    (result.structuredContent === undefined || copiesAsIs(result.structuredContent))
  );
}

/** The attempt's SDK Server: it answers what `quickAnswer` leaves to it (malformed requests, unknown methods, tasks). */
export function mcpServer(sdk: McpSdk, gateway: ToolGateway): Server {
  const { Server, types } = sdk;
  const server = new Server(SERVER_INFO, { capabilities: serverCapabilities(), jsonSchemaValidator: sdk.validator });
  server.setRequestHandler(types.ListToolsRequestSchema, () => listedTools(gateway));
  // Protocol's registration rather than the Server's: the Server parses a tools/call with CallToolRequestSchema before
  // any handler, so a malformed one was an Internal error and never recorded. answerCall checks what it would.
  const toolsCall = z.looseObject({ method: z.literal('tools/call') });
  sdk.Protocol.prototype.setRequestHandler.call(server, toolsCall, (request) =>
    answerCall(sdk, gateway, request as JSONRPCMessage, (result) => result),
  );
  return server;
}

/** The reply the SDK's Protocol makes when a request's handler fails with `error`, member for member. */
function handlerErrorReply(request: JSONRPCMessage, error: unknown): JSONRPCMessage {
  const failed = (error ?? {}) as { code?: unknown; message?: unknown; data?: unknown };
  return {
    jsonrpc: '2.0',
    id: (request as { id: string | number }).id,
    error: {
      code: Number.isSafeInteger(failed.code) ? failed.code : INTERNAL_ERROR,
      message: failed.message ?? 'Internal error',
      ...(failed.data !== undefined && { data: failed.data }),
    },
  } as JSONRPCMessage;
}

/** JSON-RPC's internal error (the SDK's ErrorCode.InternalError). */
const INTERNAL_ERROR = -32603;

/** A request the transport answers itself: its reply, or null to hand it to the SDK Server. */
export type QuickAnswer = (request: JSONRPCMessage) => JSONRPCMessage | Promise<JSONRPCMessage> | null;

/**
 * The replies the SDK Server gives to `initialize`, `ping`, `tools/list` and `tools/call` (every request of an
 * agent), made without it: the Server answers each through a chain of promises, an AbortController and a
 * context object per request, a few milliseconds of the worker's CPU an attempt. Each request is checked with the
 * schema the Server checks it with, and only one it accepts is answered here, with the same handlers and the same
 * JSON-RPC reply (a `tools/call` answered by answerCall, as the Server answers it); everything else (a request the
 * schema refuses, but a `tools/call`; one asking for a task, which the Server refuses before its handler) goes to the
 * Server as before. The gateway sees the tool calls in the order they arrive on either path.
 */
export function quickAnswers(sdk: McpSdk, gateway: ToolGateway): QuickAnswer {
  const { types } = sdk;
  const reply = (id: string | number, result: unknown) => ({ result, jsonrpc: '2.0', id }) as JSONRPCMessage;
  return (request) => {
    if (!isCheckedRequest(request) || !('method' in request)) return null;
    const params = (request as { params?: { task?: unknown } }).params;
    // A task is refused by the Server before any handler; a tools/call's malformed `task` is not one (answerCall's).
    if (params?.task !== undefined && (request.method !== 'tools/call' || types.isTaskAugmentedRequestParams(params)))
      return null;
    switch (request.method) {
      case 'ping':
        return types.PingRequestSchema.safeParse(request).success ? reply(request.id, {}) : null;
      case 'initialize': {
        // As the Server's `_oninitialize`: the client's version when supported, else the latest; nothing else of
        // the request goes into the reply (its capabilities and name stay with the Server, made only if needed).
        const parsed = types.InitializeRequestSchema.safeParse(request);
        if (!parsed.success) return null;
        const asked = parsed.data.params.protocolVersion;
        const protocolVersion = types.SUPPORTED_PROTOCOL_VERSIONS.includes(asked)
          ? asked
          : types.LATEST_PROTOCOL_VERSION;
        return reply(request.id, { protocolVersion, capabilities: serverCapabilities(), serverInfo: SERVER_INFO });
      }
      case 'tools/list':
        return types.ListToolsRequestSchema.safeParse(request).success ? reply(request.id, listedTools(gateway)) : null;
      case 'tools/call':
        return answerCall(sdk, gateway, request, (result) => reply(request.id, result));
      default:
        return null;
    }
  };
}

/** riddle's own refusals (host, token, method). */
function refuse(res: ServerResponse, status: number, text: string): void {
  res
    .writeHead(status, { 'content-type': 'application/json' })
    .end(JSON.stringify({ jsonrpc: '2.0', id: null, error: { code: -32000, message: text } }));
}

/** One exchange's JSON-RPC requests (an HTTP request's, or a line's), waiting for their responses in their order. */
interface Exchange {
  readonly ids: number[];
  readonly responses: Map<number, JSONRPCMessage>;
  /** Give the client its replies (one, or a batch's); a client that went away meanwhile gets nothing. */
  readonly reply: (text: string) => void;
}

/**
 * Whether a message that passed `JSONRPCMessageSchema` is a request, as `isJSONRPCRequest` would say, without parsing it
 * again: of that union's strict members only the request has both a method and an id.
 */
export function isCheckedRequest(message: JSONRPCMessage): message is JSONRPCMessage & { id: string | number } {
  return 'method' in message && 'id' in message;
}

/**
 * The attempt's one SDK Server answers every HTTP request and bridge line through this transport, as the SDK's
 * stateless streamable HTTP transport in JSON mode would answer each request with a Server of its own (and a web
 * Request, Response and streams: most of the gateway's CPU). Request ids are made unique before the Server sees them,
 * and given back in its responses, so two clients of one attempt that use the same ids at once never get each other's
 * replies. What the Server sends that answers no request (notifications, requests of its own) has no stream to go to,
 * as in the stateless transport, and is dropped.
 */
export class ExchangeTransport implements Transport {
  onmessage?: Transport['onmessage'];
  onclose?: () => void;
  onerror?: (error: Error) => void;
  private next = 0;
  private readonly pending = new Map<number, { id: string | number; exchange: Exchange }>();
  /** The `initialize` requests answered quickly, given to a Server made later so that it knows what its own would. */
  private readonly initializes: JSONRPCMessage[] = [];

  /**
   * `quick` answers what it can of each exchange before the Server sees it (see quickAnswers). `connectServer`, when
   * given, connects the Server to this transport the first time a request is left to it (an agent that sends only
   * what the quick answers answer never has one made): until then no Server hears the notifications and responses,
   * none of which it would answer, and none of which it would act on but a cancellation of a request it handles.
   */
  constructor(
    private readonly quick: QuickAnswer | null = null,
    private connectServer: ((transport: ExchangeTransport) => void) | null = null,
  ) {}

  async start(): Promise<void> {}

  async close(): Promise<void> {
    this.connectServer = null;
    this.pending.clear();
    this.onclose?.();
  }

  /** Hand a message the quick answers left to the Server, connecting it first if it is made on first use. */
  private toServer(message: JSONRPCMessage): void {
    if (this.connectServer !== null) {
      if (!isCheckedRequest(message)) return;
      const connect = this.connectServer;
      this.connectServer = null;
      connect(this);
      // The Server hears the initializations it would have, under ids nobody waits for (its replies are dropped).
      for (const initialize of this.initializes) {
        this.next += 1;
        this.onmessage?.({ ...initialize, id: this.next } as JSONRPCMessage);
      }
    }
    this.onmessage?.(message);
  }

  async send(reply: JSONRPCMessage): Promise<void> {
    if (!('id' in reply) || typeof reply.id !== 'number' || !('result' in reply || 'error' in reply)) return;
    const waiting = this.pending.get(reply.id);
    if (waiting === undefined) return;
    this.pending.delete(reply.id);
    const { exchange } = waiting;
    exchange.responses.set(reply.id, { ...reply, id: waiting.id } as JSONRPCMessage);
    if (exchange.responses.size < exchange.ids.length) return;
    const replies = exchange.ids.map((id) => exchange.responses.get(id));
    exchange.reply(JSON.stringify(replies.length === 1 ? replies[0] : replies));
  }

  /**
   * Hand one exchange's messages (checked by `readMessages`) to the Server; `reply` is called once every request among
   * them has its response. Returns whether there was any request to answer.
   */
  deliver(messages: JSONRPCMessage[], reply: (text: string) => void) {
    const exchange: Exchange = { ids: [], responses: new Map(), reply };
    const delivered = messages.map((message) => {
      if (!isCheckedRequest(message) || message.id === undefined) return message;
      this.next += 1;
      exchange.ids.push(this.next);
      this.pending.set(this.next, { id: message.id, exchange });
      return { ...message, id: this.next } as JSONRPCMessage;
    });
    for (const message of delivered) {
      let answered: ReturnType<QuickAnswer> = null;
      try {
        answered = this.quick?.(message) ?? null;
      } catch {
        // Nothing was called yet: the Server answers it (its handler fails the same way, into an error reply).
      }
      if (answered === null) {
        this.toServer(message);
        continue;
      }
      if ((message as { method?: unknown }).method === 'initialize') this.initializes.push(message);
      // Replied to a turn later, as the Server does: an exchange's replies are all sent once all are in. A failure
      // becomes the error reply the Server makes of a handler's exception.
      void Promise.resolve(answered)
        .catch((error: unknown) => handlerErrorReply(message, error))
        .then((reply) => this.send(reply));
    }
    return exchange.ids.length > 0;
  }
}

/**
 * An attempt's transport: the quick answers, and its SDK Server made only when a request is left to it. `close` ends
 * the Server when there is one, else the transport.
 */
export function attemptTransport(
  sdk: McpSdk,
  gateway: ToolGateway,
): { transport: ExchangeTransport; close: () => Promise<void> } {
  let server: Server | null = null;
  const transport = new ExchangeTransport(quickAnswers(sdk, gateway), (connecting) => {
    server = mcpServer(sdk, gateway);
    // Protocol.connect takes the transport's handlers before its first await, so the Server hears the next message.
    void server.connect(connecting);
  });
  return { transport, close: () => (server === null ? transport.close() : server.close()) };
}

/** Why a message (or batch) is refused: the HTTP status and the JSON-RPC error the SDK's transport answers with. */
interface Refusal {
  status: number;
  code: number;
  text: string;
}

const refusal = (status: number, text: string, code = -32000): Refusal => ({ status, code, text });
/** The refusal's body, byte for byte as the SDK's transport writes it. */
const refusalJson = (r: Refusal) =>
  JSON.stringify({ jsonrpc: '2.0', error: { code: r.code, message: r.text }, id: null });
const refuseLikeSdk = (res: ServerResponse, r: Refusal): void => {
  res.writeHead(r.status, { 'content-type': 'application/json' }).end(refusalJson(r));
};

/** The only members JSONRPCMessageSchema's request and notification (both strict) have, in their order. */
const MESSAGE_MEMBERS = new Set(['jsonrpc', 'id', 'method', 'params']);

/**
 * A request or notification as JSONRPCMessageSchema's parse gives it, without the parse, for a message of the common
 * shape (a plain object of `jsonrpc` "2.0", a string or safe-integer `id` or none, a string `method`, and `params` a
 * plain object without `_meta`, or none): the same members in the parse's order (`params` a shallow copy, its members
 * in their order and the same values). Null for anything else, which the parse decides (about a tenth of a millisecond
 * a message in a worker, where the parse seldom gets hot).
 */
export function plainMessage(raw: unknown): JSONRPCMessage | null {
  if (!copiesAsIs(raw)) return null;
  for (const name in raw) if (!MESSAGE_MEMBERS.has(name)) return null;
  const { jsonrpc, id, method, params } = raw;
  if (jsonrpc !== '2.0' || typeof method !== 'string') return null;
  if (!(id === undefined || typeof id === 'string' || Number.isSafeInteger(id))) return null;
  if (!(params === undefined || (copiesAsIs(params) && !('_meta' in params)))) return null;
  const message: { [key: string]: unknown } = id === undefined ? { jsonrpc, method } : { jsonrpc, id, method };
  if (params !== undefined) message.params = { ...params };
  return message as JSONRPCMessage;
}

/** A body's (or line's) messages, checked as the SDK's streamable HTTP transport checks them, in the same order. */
function readMessages(sdk: McpSdk, text: string, protocolVersion: string | undefined): JSONRPCMessage[] | Refusal {
  const { types } = sdk;
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    return refusal(400, 'Parse error: Invalid JSON', -32700);
  }
  if (Array.isArray(raw) && raw.length > sdk.body.MAX_BATCH_SIZE)
    return refusal(400, `Invalid Request: Batch must not exceed ${sdk.body.MAX_BATCH_SIZE} messages`, -32600);
  let messages: JSONRPCMessage[];
  try {
    messages = (Array.isArray(raw) ? raw : [raw]).map((m) => plainMessage(m) ?? types.JSONRPCMessageSchema.parse(m));
  } catch {
    return refusal(400, 'Parse error: Invalid JSON-RPC message', -32700);
  }
  // Only a message whose method is `initialize` can be an initialize request: the rest skip its (failing) parse.
  if (messages.some((m) => 'method' in m && m.method === 'initialize' && types.isInitializeRequest(m))) {
    if (messages.length > 1) return refusal(400, 'Invalid Request: Only one initialization request is allowed', -32600);
  } else if (protocolVersion !== undefined && !types.SUPPORTED_PROTOCOL_VERSIONS.includes(protocolVersion)) {
    const supported = types.SUPPORTED_PROTOCOL_VERSIONS.join(', ');
    return refusal(
      400,
      `Bad Request: Unsupported protocol version: ${protocolVersion} (supported versions: ${supported})`,
    );
  }
  return messages;
}

/**
 * Read the body, then call `done` with its text, null when its declared length is over `maxBytes`, or an error when
 * it ended early. A body that grows past `maxBytes` as it arrives is destroyed, and ends early (as with `for await`,
 * which this replaced: the iterator makes promises per chunk and at its end, and every promise in a worker is tracked
 * by the async context).
 */
function readBody(req: IncomingMessage, maxBytes: number, done: (body: string | null | Error) => void): void {
  if (Number(req.headers['content-length']) > maxBytes) return done(null);
  const chunks: Buffer[] = [];
  let received = 0;
  let settled = false;
  const settle = (body: string | null | Error) => {
    if (settled) return;
    settled = true;
    done(body);
  };
  req.on('data', (chunk: Buffer) => {
    if (settled) return;
    received += chunk.length;
    if (received <= maxBytes) return void chunks.push(chunk);
    settle(new Error(`the body went past ${maxBytes} bytes`));
    req.destroy();
  });
  req.on('end', () => settle(Buffer.concat(chunks).toString('utf8')));
  req.on('error', (error) => settle(error));
  // Destroyed without an error (the client went away): the body ended early, as `for await` reports it.
  req.on('close', () => settle(new Error('the request closed before its body ended')));
}

/**
 * Answer one POST as the SDK's stateless streamable HTTP transport with JSON responses does (same checks, statuses
 * and JSON-RPC errors, in the same order), through the attempt's one Server.
 */
function answer(sdk: McpSdk, transport: ExchangeTransport, req: IncomingMessage, res: ServerResponse): void {
  const accept = req.headers.accept;
  if (!accept?.includes('application/json') || !accept.includes('text/event-stream'))
    return refuseLikeSdk(
      res,
      refusal(406, 'Not Acceptable: Client must accept both application/json and text/event-stream'),
    );
  if (!sdk.isJsonContentType(req.headers['content-type']))
    return refuseLikeSdk(res, refusal(415, 'Unsupported Media Type: Content-Type must be application/json'));
  const maxBytes = sdk.body.DEFAULT_MAX_REQUEST_BODY_SIZE;
  readBody(req, maxBytes, (text) => {
    try {
      if (text instanceof Error) return refuseLikeSdk(res, refusal(400, 'Parse error: Invalid JSON', -32700));
      if (text === null) return refuseLikeSdk(res, refusal(413, sdk.body.requestBodyTooLargeMessage(maxBytes)));
      const version = req.headers['mcp-protocol-version'];
      const messages = readMessages(sdk, text, typeof version === 'string' ? version : undefined);
      if (!Array.isArray(messages)) return refuseLikeSdk(res, messages);
      const answered = transport.deliver(messages, (replies) => {
        // A client that went away meanwhile gets nothing; its requests were handled (and recorded) all the same.
        if (!res.writableEnded && !res.destroyed)
          res.writeHead(200, { 'content-type': 'application/json' }).end(replies);
      });
      // Only notifications (or responses): accepted, nothing to answer.
      if (!answered) res.writeHead(202).end();
    } catch (error) {
      serverError(res, error);
    }
  });
}

/** What riddle answers when answering a request failed on its side. */
function serverError(res: ServerResponse, error: unknown): void {
  if (!res.headersSent) refuse(res, 500, message(error));
}

/**
 * Serve the light stdio bridge's connection: its first line must be the attempt's token (else it is dropped unread);
 * then every line is a message, or a batch, answered with one line in the order its requests complete. A refused line
 * is answered with the JSON-RPC error an HTTP client would get in the body (id null), as the Node bridge relays it.
 */
function serveLines(sdk: McpSdk, transport: ExchangeTransport, connection: Socket, token: string): void {
  const maxBytes = sdk.body.DEFAULT_MAX_REQUEST_BODY_SIZE;
  let buffered = '';
  let admitted = false;
  const write = (text: string) => {
    if (!connection.destroyed && connection.writable) connection.write(`${text}\n`);
  };
  connection.setEncoding('utf8');
  connection.on('error', () => connection.destroy());
  connection.on('data', (chunk: string) => {
    buffered += chunk;
    for (let end = buffered.indexOf('\n'); end >= 0; end = buffered.indexOf('\n')) {
      const line = buffered.slice(0, end).trim();
      buffered = buffered.slice(end + 1);
      if (!admitted) {
        if (!sameSecret(line, token)) return void connection.destroy();
        admitted = true;
        continue;
      }
      if (line === '') continue;
      const messages = readMessages(sdk, line, undefined);
      if (!Array.isArray(messages)) write(refusalJson(messages));
      else transport.deliver(messages, write);
    }
    if (Buffer.byteLength(buffered) > maxBytes) {
      write(refusalJson(refusal(413, sdk.body.requestBodyTooLargeMessage(maxBytes))));
      connection.destroy();
    }
  });
}

/** Two secrets compared in constant time: a process that does not know one learns nothing by trying. */
function sameSecret(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** The attempt's token in a URL path (`/mcp/<token>`). */
const holdsToken = (pathname: string, token: string): boolean => sameSecret(pathname, `/mcp/${token}`);

/** Connections each of an attempt's MCP servers (HTTP, unix socket, the light bridge's lines) holds at most. */
export const MAX_CONNECTIONS = 256;

/** What serving an attempt's tools over MCP may leave for later. */
export interface McpServeOptions {
  /**
   * When the Node bridge's folder and unix socket are made: `now` (default), or `when-read`, the first time
   * `endpoints.stdioOverSocket` or `endpoints.folder` is read (or `stdio`, where this machine has no light bridge).
   * Only a subject that is isolated (or not riddle's command subject) reads them; making them costs every attempt
   * about a millisecond of CPU.
   */
  socketBridge?: 'now' | 'when-read';
}

const launchOf = (bridge: StdioBridge): StdioLaunch => ({
  command: bridge.command,
  args: bridge.args,
  env: bridge.env,
});

const SOCKET_BRIDGE = Symbol('riddle.socketBridge');
type LazyEndpoints = McpEndpoints & { [SOCKET_BRIDGE]: () => StdioBridge };

// Getters shared by every attempt's endpoints (V8 reuses a hidden class with an accessor only for the same function).
function readStdioOverSocket(this: LazyEndpoints): StdioLaunch {
  return launchOf(this[SOCKET_BRIDGE]());
}
function readFolder(this: LazyEndpoints): string {
  return this[SOCKET_BRIDGE]().folder;
}

/**
 * Serve an attempt's tool gateway over MCP streamable HTTP on 127.0.0.1 (a free port), stateless with JSON
 * responses, plus stdio bridges for clients that launch servers as commands. The gateway belongs to one attempt:
 * its URL carries a fresh unguessable token (`/mcp/<token>`), and a request without it is refused (401), so a
 * process of another trial or attempt that finds the port cannot list or call this attempt's tools, nor have its
 * requests recorded as this attempt's. Requests whose Host is not this loopback address are refused too, so a web
 * page cannot reach the tools through DNS rebinding. The light stdio bridge (bash, where it opens `/dev/tcp`) reaches
 * a loopback line port that first asks for the same token; the Node bridge reaches the same gateway over a unix
 * socket in its folder, which an isolated subject without a network can still use.
 */
export async function serveToolsOverMcp(gateway: ToolGateway, options: McpServeOptions = {}): Promise<McpToolServer> {
  const [sdk, light] = await Promise.all([loadMcpSdk(), findLightBridge()]);
  let port = 0;
  const token = randomBytes(32).toString('base64url');
  const { transport, close: closeTransport } = attemptTransport(sdk, gateway);
  const listener = (req: IncomingMessage, res: ServerResponse) => {
    try {
      if (req.headers.host !== `127.0.0.1:${port}` && req.headers.host !== `localhost:${port}`)
        return refuse(res, 403, 'host not allowed');
      if (!holdsToken(new URL(req.url ?? '/', 'http://127.0.0.1').pathname, token))
        return refuse(res, 401, "not this attempt's tool gateway: the URL must carry its token (RIDDLE_MCP_URL)");
      // Stateless: there is no server-initiated stream to open, and no session to end.
      if (req.method !== 'POST') return refuse(res, 405, 'method not allowed');
      answer(sdk, transport, req, res);
    } catch (error) {
      serverError(res, error);
    }
  };
  const http = createServer(listener);
  const local = createServer(listener);
  // The bridge connections still open when the attempt ends (a bridge the subject left running) are cut, as the HTTP
  // servers' are: a line server closes only once its last connection has.
  const bridgeConnections = new Set<Socket>();
  const lines =
    light === null
      ? null
      : createNetServer((socket) => {
          bridgeConnections.add(socket);
          socket.on('close', () => bridgeConnections.delete(socket));
          serveLines(sdk, transport, socket, token);
        });
  // An agent holds a few connections; a subject opening thousands would take the worker's file descriptors from every
  // other attempt and file of the worker until its own attempt ended. Past the bound new ones are closed at once.
  for (const listening of [http, local, lines]) if (listening !== null) listening.maxConnections = MAX_CONNECTIONS;
  /** Listen on a loopback port (`at` a number) or a unix socket (`at` a path). */
  const listen = (listening: NetServer, at: number | string) =>
    new Promise<void>((resolve, reject) => {
      listening.once('error', reject);
      if (typeof at === 'number') listening.listen(at, '127.0.0.1', () => resolve());
      else listening.listen(at, () => resolve());
    });
  await listen(http, 0);
  port = (http.address() as AddressInfo).port;
  const url = `http://127.0.0.1:${port}/mcp/${token}`;
  let bridge: StdioBridge | null = null;
  let closed = false;
  const stop = async () => {
    closed = true;
    for (const listening of [http, local]) listening.closeAllConnections();
    for (const connection of bridgeConnections) connection.destroy();
    for (const listening of [http, local, lines])
      if (listening?.listening) await new Promise<void>((resolve) => listening.close(() => resolve()));
    await closeTransport();
    bridge?.remove();
  };
  /**
   * The Node bridge and the unix socket it reaches, made on first use. A unix socket binds at once (Node listens on
   * it synchronously), so the bridge can connect as soon as this returns.
   */
  const socketBridge = (): StdioBridge => {
    if (bridge !== null) return bridge;
    if (closed) throw new Error("the attempt's MCP tool gateway is closed: its Node bridge can no longer be made");
    const made = writeStdioBridge(url);
    try {
      local.once('error', () => {});
      local.listen(made.socket);
      if (!local.listening) throw new Error(`could not listen on the unix socket ${made.socket}`);
      chmodSync(made.socket, 0o600);
    } catch (error) {
      made.remove();
      throw error;
    }
    bridge = made;
    return made;
  };
  try {
    if (lines !== null) await listen(lines, 0);
    if (options.socketBridge !== 'when-read' || light === null) socketBridge();
  } catch (error) {
    await stop();
    throw error;
  }
  const linePort = lines === null ? null : (lines.address() as AddressInfo).port;
  const endpoints = { url, [SOCKET_BRIDGE]: socketBridge } as LazyEndpoints;
  Object.defineProperty(endpoints, 'stdio', {
    value: light === null || linePort === null ? launchOf(socketBridge()) : light(linePort, token),
    enumerable: true,
  });
  Object.defineProperty(endpoints, 'stdioOverSocket', { get: readStdioOverSocket, enumerable: true });
  Object.defineProperty(endpoints, 'folder', { get: readFolder, enumerable: true });
  return {
    endpoints,
    close: stop,
  };
}
