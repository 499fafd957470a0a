import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { AttemptTraffic, ProviderGateway } from './gateway.js';

/**
 * A reverse proxy on 127.0.0.1 for command subjects: a command reads its provider's base URL from a variable
 * (`OPENAI_BASE_URL`, `ANTHROPIC_BASE_URL`), pointed at `http://127.0.0.1:<port>/<attempt token>/<origin>/<path>`,
 * so each request reaches the gateway attributed to its attempt, even with attempts running at once. TLS to the
 * provider stays riddle's (an HTTPS_PROXY would need a trusted certificate of riddle's own to see the traffic).
 */
export class RecordingProxy {
  private readonly tokens = new Map<string, AttemptTraffic>();
  private constructor(
    private readonly server: Server,
    private readonly gateway: ProviderGateway,
    readonly port: number,
  ) {}

  static async start(gateway: ProviderGateway): Promise<RecordingProxy> {
    let proxy: RecordingProxy | null = null;
    const server = createServer((request, response) => {
      if (!proxy) return void response.writeHead(503).end();
      proxy.handle(request).then(
        ({ status, headers, body }) => response.writeHead(status, headers).end(body),
        (error: unknown) =>
          response
            .writeHead(502, { 'content-type': 'application/json' })
            .end(JSON.stringify({ error: { message: error instanceof Error ? error.message : String(error) } })),
      );
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(0, '127.0.0.1', resolve);
    });
    server.unref();
    proxy = new RecordingProxy(server, gateway, (server.address() as AddressInfo).port);
    return proxy;
  }

  /** The variables pointing an attempt's command at the proxy, one per declared origin with a variable. */
  variablesFor(traffic: AttemptTraffic): Record<string, string> {
    const token = `${encodeURIComponent(traffic.arm)}.${traffic.attempt}`;
    this.tokens.set(token, traffic);
    const variables: Record<string, string> = {};
    for (const [i, origin] of this.gateway.options.origins.entries()) {
      if (origin.variable === null) continue;
      const base = new URL(origin.baseUrl);
      variables[origin.variable] = `http://127.0.0.1:${this.port}/${token}/${i}${base.pathname.replace(/\/$/, '')}`;
    }
    return variables;
  }

  private async handle(request: IncomingMessage) {
    const [, token = '', index = '', ...rest] = (request.url ?? '/').split('/');
    const traffic = this.tokens.get(token);
    const origin = this.gateway.options.origins[Number(index)];
    if (!traffic || !origin || !/^\d+$/.test(index)) {
      return { status: 404, headers: {}, body: `riddle proxy: unknown attempt or provider in ${request.url ?? ''}` };
    }
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(request.headers)) {
      if (value !== undefined) headers[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
    }
    const response = await this.gateway.exchange(traffic, {
      method: request.method ?? 'GET',
      url: `${new URL(origin.baseUrl).origin}/${rest.join('/')}`,
      headers,
      body: Buffer.concat(chunks).toString('utf8'),
    });
    const out: Record<string, string> = {};
    for (const [name, value] of Object.entries(response.headers)) {
      if (!['content-encoding', 'content-length', 'transfer-encoding', 'connection'].includes(name)) out[name] = value;
    }
    return { status: response.status, headers: out, body: response.body };
  }

  close(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}
