import path from 'node:path';
import { z } from 'zod';
import { Claim, Receipt, type JsonValue, type SubjectIdentity, lazySchema } from '../model/index.js';
import { nonEmpty, optional, optionsChecker, recordOf, text } from '../model/options-check.js';
import { resolveRevision, type RevisionSource } from './revision.js';
import { attemptSecretValues, jsonParseProblem, redactText, secretValues } from './secrets.js';
import type { Subject, SubjectResponse } from './subject.js';

export interface HttpSubjectOptions {
  name: string;
  /** The endpoint the service answers on; each round is one POST to it. */
  url: string;
  /** Declared, or read from `sourceDir` (`git`: commit + dirty hash; `package`: name@version). */
  revision: RevisionSource;
  /** Folder the revision is read from (default: the current folder). */
  sourceDir?: string;
  /** Extra request headers (e.g. authorization; they are sent, never recorded). */
  headers?: Readonly<Record<string, string>>;
}

/** What the service may answer: `{ reply, claims?, receipts? }`, or any other JSON value as the reply. */
const ServiceReply = lazySchema(() =>
  z.object({
    reply: z.unknown(),
    claims: z.array(Claim.pick({ action: true, target: true, text: true })).optional(),
    receipts: z.array(z.unknown()).optional(),
  }),
);

/** How much of a failed answer's text the failure's message quotes, in characters. */
const QUOTED_ANSWER_CHARS = 300;
/** Errors of a failed request's cause chain named (fetch's own, undici's, the socket's…), and characters of each. */
const CAUSES_NAMED = 4;
const CAUSE_CHARS = 200;

/**
 * Why a request failed, through its causes: fetch says only `fetch failed` or `terminated`, and what went wrong
 * (`redirect count exceeded`, `read ECONNRESET`, `other side closed`) is its `cause`. Each on one line, scrubbed of
 * secrets before it is cut, at most CAUSES_NAMED of them.
 */
function failureChain(error: unknown, secrets: readonly string[]): string {
  const said: string[] = [];
  let current: unknown = error;
  while (current !== undefined && current !== null && said.length < CAUSES_NAMED) {
    const found = current as { message?: unknown; code?: unknown; cause?: unknown; errors?: unknown };
    const text = typeof current !== 'object' ? String(current) : typeof found.message === 'string' ? found.message : '';
    const code = typeof found.code === 'string' && !text.includes(found.code) ? ` (${found.code})` : '';
    const line = redactText(`${text}${code}`, secrets).replace(/\s+/g, ' ').trim();
    const part = line.length > CAUSE_CHARS ? `${line.slice(0, CAUSE_CHARS)}…` : line;
    if (part !== '' && said.at(-1) !== part) said.push(part);
    // An AggregateError (each address of a host tried) has no message of its own: its first error says why.
    current = found.cause ?? (Array.isArray(found.errors) ? found.errors[0] : undefined);
  }
  return said.join(': ');
}

/** Most of a service's answer riddle reads, in bytes: a larger one, or one that never ends, is not read on. */
const MAX_ANSWER_BYTES = 16 * 1024 * 1024;

/** The answer's text, read up to `maxBytes`; null when the service sent more (the rest is not read). */
async function answerText(response: Response, maxBytes: number): Promise<string | null> {
  const reader = response.body?.getReader();
  if (reader === undefined) return '';
  const chunks: Uint8Array[] = [];
  let bytes = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    bytes += value.byteLength;
    if (bytes > maxBytes) {
      await reader.cancel();
      return null;
    }
    chunks.push(value);
  }
  // As Response#text decodes: UTF-8, a byte-order mark dropped.
  return new TextDecoder().decode(Buffer.concat(chunks));
}

const checkOptions = optionsChecker<HttpSubjectOptions>(
  'httpSubject',
  {
    name: nonEmpty,
    url: nonEmpty,
    revision: nonEmpty,
    sourceDir: optional(text),
    headers: optional(recordOf(text, 'an object of header values (strings) by name')),
  },
  'name',
);

/**
 * A subject that is a service the user already runs. Each round POSTs JSON
 * `{ input, round, arm, attempt, seed, history: [{ input, reply }], workspace, mcpUrl }` to `url`; `mcpUrl` is the
 * attempt's tools over MCP streamable HTTP (null when none are offered). A 2xx JSON answer `{ reply, claims?,
 * receipts? }` is taken apart; any other JSON or text body is the reply. A non-2xx answer, or no answer, is a
 * subject error.
 */
/** The URL's query parameters by name (`?api_key=…`); none when it does not parse (fetch then says why). */
function queryParameters(url: string): Record<string, string> {
  try {
    return Object.fromEntries(new URL(url).searchParams);
  } catch {
    return {};
  }
}

export function httpSubject(options: HttpSubjectOptions): Subject {
  checkOptions(options);
  const sourceDir = path.resolve(options.sourceDir ?? process.cwd());
  // Headers and query parameters secret by the rule process.env's variables are (authorization, cookie, *key*,
  // *token*… or by shape): the URL is quoted in every failure message.
  const declaredSecrets = secretValues({ ...queryParameters(options.url), ...(options.headers ?? {}) });
  let identity: Promise<SubjectIdentity> | undefined;
  return {
    kind: 'http',
    name: options.name,
    secrets: declaredSecrets,
    identify() {
      identity ??= resolveRevision('http', options.name, options.revision, sourceDir);
      return identity;
    },
    async respond(input, context): Promise<SubjectResponse> {
      const body = {
        input,
        round: context.round,
        arm: context.arm,
        attempt: context.attempt,
        seed: context.seed,
        history: context.history.map((round) => ({ input: round.input, reply: round.reply })),
        workspace: context.workspace,
        mcpUrl: context.mcp?.url ?? null,
      };
      const secrets = context.secrets ?? attemptSecretValues(declaredSecrets);
      let response: Response;
      let text: string;
      try {
        response = await fetch(options.url, {
          method: 'POST',
          headers: { 'content-type': 'application/json', accept: 'application/json, text/plain', ...options.headers },
          body: JSON.stringify(body),
          signal: context.signal,
        });
        const read = await answerText(response, MAX_ANSWER_BYTES);
        if (read === null)
          return {
            reply: null,
            failure: {
              status: 'subject_error',
              message: `${options.url} answered more than ${MAX_ANSWER_BYTES} bytes, the most riddle reads of an answer: the rest was not read`,
            },
          };
        text = read;
      } catch (error) {
        const why = context.signal.aborted
          ? `stopped at the attempt's budget`
          : `no answer from ${options.url}: ${failureChain(error, secrets)}`;
        return { reply: null, failure: { status: 'subject_error', message: why } };
      }
      if (!response.ok)
        return {
          reply: text,
          failure: {
            status: 'subject_error',
            // Scrubbed before it is cut: a secret cut through would no longer be found.
            message: `${options.url} answered HTTP ${response.status}: ${redactText(text, secrets).slice(0, QUOTED_ANSWER_CHARS)}`,
          },
        };
      if (!(response.headers.get('content-type') ?? '').includes('json')) return { reply: text };
      let data: JsonValue;
      try {
        data = JSON.parse(text) as JsonValue;
      } catch (error) {
        return {
          reply: text,
          failure: { status: 'subject_error', message: `${options.url} sent invalid JSON: ${jsonParseProblem(error)}` },
        };
      }
      if (data === null || typeof data !== 'object' || Array.isArray(data) || !('reply' in data))
        return { reply: data };
      const parsed = ServiceReply.safeParse(data);
      if (!parsed.success) {
        const issue = parsed.error.issues[0];
        return {
          reply: data,
          failure: {
            status: 'subject_error',
            message: `answer is malformed at ${issue?.path.join('.') ?? '?'}: ${issue?.message ?? 'invalid'}`,
          },
        };
      }
      const notes: string[] = [];
      for (const [index, candidate] of (parsed.data.receipts ?? []).entries()) {
        const receipt = Receipt.safeParse(candidate);
        if (receipt.success) context.recordReceipt(receipt.data);
        else
          notes.push(
            `receipt ${index + 1} from ${options.name} ignored: ${receipt.error.issues[0]?.message ?? 'invalid'}`,
          );
      }
      return {
        reply: data.reply ?? null,
        ...(parsed.data.claims ? { claims: parsed.data.claims } : {}),
        ...(notes.length > 0 ? { notes } : {}),
      };
    },
  };
}
