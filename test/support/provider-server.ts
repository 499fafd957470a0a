import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A request the fake provider received. */
export interface SeenRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
}

/** A canned failure answered before the normal replies: a status and optional retry-after (seconds). */
export interface ScriptedFailure {
  status: number;
  retryAfter?: string;
}

export interface ProviderServer {
  /** `http://127.0.0.1:<port>` */
  origin: string;
  seen: SeenRequest[];
  /** Failures answered, in order, before the next normal replies. */
  failures: ScriptedFailure[];
  close(): Promise<void>;
}

const words = (text: string) => text.split(/\s+/).filter(Boolean).length;

function lastUserText(body: unknown): string {
  const messages = (body as { messages?: { role: string; content: unknown }[] }).messages ?? [];
  const last = [...messages].reverse().find((m) => m.role === 'user');
  if (typeof last?.content === 'string') return last.content;
  if (Array.isArray(last?.content)) return last.content.map((p: { text?: string }) => p.text ?? '').join(' ');
  return '';
}

/**
 * A loopback stand-in for two providers' wire formats: OpenAI chat completions (`POST /v1/chat/completions`) and
 * Anthropic messages (`POST /v1/messages`). It answers "echo: <last user message>" with usage counted in words,
 * and deterministic ids, so recorded and live answers can be compared exactly. No network is involved.
 */
export async function startProviderServer(): Promise<ProviderServer> {
  const seen: SeenRequest[] = [];
  const failures: ScriptedFailure[] = [];
  let served = 0;
  const server = createServer((request, response) => {
    let text = '';
    request.on('data', (chunk: Buffer) => {
      text += chunk.toString('utf8');
    });
    request.on('end', () => {
      seen.push({ method: request.method ?? '', path: request.url ?? '', headers: request.headers, body: text });
      const failure = failures.shift();
      if (failure) {
        const headers: Record<string, string> = { 'content-type': 'application/json' };
        if (failure.retryAfter !== undefined) headers['retry-after'] = failure.retryAfter;
        response.writeHead(failure.status, headers).end(JSON.stringify({ error: { message: 'slow down' } }));
        return;
      }
      const body = JSON.parse(text || '{}') as { model?: string };
      const input = lastUserText(body);
      const reply = `echo: ${input}`;
      served += 1;
      const model = body.model ?? 'unknown';
      const json =
        request.url === '/v1/messages'
          ? {
              id: `msg_${served}`,
              type: 'message',
              role: 'assistant',
              model,
              content: [{ type: 'text', text: reply }],
              stop_reason: 'end_turn',
              usage: { input_tokens: words(input), output_tokens: words(reply) },
            }
          : {
              id: `chatcmpl-${served}`,
              object: 'chat.completion',
              created: 1_700_000_000,
              model,
              choices: [{ index: 0, message: { role: 'assistant', content: reply }, finish_reason: 'stop' }],
              usage: { prompt_tokens: words(input), completion_tokens: words(reply), total_tokens: 0 },
            };
      response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(json));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    seen,
    failures,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
