import { rm } from 'node:fs/promises';
import type { Agent } from 'undici';
import {
  RECORDING_SCHEMA,
  receiptCostUsd,
  type PriceTable,
  type ProviderRetry,
  type ProviderTraffic,
  type Receipt,
  type RecordedExchange,
} from '../../model/index.js';
import { receiptFromOpenAI } from '../receipts.js';
import { processSecretValues, redactData, redactText } from '../secrets.js';
import { parseBody, requestFingerprint, type ProviderRequest } from './request-key.js';
import { retryDelayMs, type RetryPolicy } from './retry.js';
import { RecordingProxy } from './proxy.js';
import { indexExchanges, readRecording, recordedAttempts, recordingsFingerprint, writeRecording } from './store.js';

export interface ProviderResponse {
  status: number;
  /** Header names in lower case. */
  headers: Record<string, string>;
  /** The whole body, decoded. */
  body: string;
}

/** Sends a request to the real provider (injectable so tests and proxies can stand in for the network). */
export type Forward = (request: ProviderRequest) => Promise<ProviderResponse>;

/** A provider whose traffic is recorded, replayed or passed through with retries. */
export interface ProviderOrigin {
  /** The provider's base URL as its SDK knows it, e.g. `https://api.openai.com/v1`. */
  baseUrl: string;
  /** Requests in flight to this origin at once, across attempts; null for no limit. */
  concurrency: number | null;
  /** The variable a command subject reads its base URL from (e.g. `OPENAI_BASE_URL`); pointed at the proxy. */
  variable: string | null;
}

export interface ProviderTrafficOptions {
  mode: ProviderTraffic['mode'];
  trial: string;
  /** Absolute folder of this trial's recordings. */
  folder: string;
  /** The same folder as written in the Outcome (relative to the project root). */
  label: string;
  origins: readonly ProviderOrigin[];
  /** Dotted body fields left out of the request fingerprint (ids, timestamps, user tags). */
  volatile: readonly string[];
  retry: RetryPolicy;
  prices: PriceTable;
  /** Record a receipt for every provider answer with an id, model and usage (default true). */
  receipts: boolean;
  sleep?: (ms: number) => Promise<void>;
  now?: () => number;
  forward?: Forward;
}

/** Headers worth keeping in a recording: none carries a credential. */
const KEPT_REQUEST_HEADERS = ['content-type', 'accept', 'anthropic-version', 'anthropic-beta', 'openai-beta'];
const KEPT_RESPONSE_HEADERS = ['content-type', 'request-id', 'x-request-id', 'retry-after'];
/** Headers that carry credentials: their values are stripped wherever they appear in what is stored. */
const CREDENTIAL_HEADERS = ['authorization', 'x-api-key', 'api-key', 'x-goog-api-key', 'proxy-authorization', 'cookie'];

const pick = (headers: Readonly<Record<string, string>>, names: readonly string[]) =>
  Object.fromEntries(names.filter((n) => headers[n] !== undefined).map((n) => [n, headers[n] as string]));

/** Credential values a request carries, bare and with their scheme (`Bearer …`), longest first. */
function requestSecrets(request: ProviderRequest): string[] {
  const found = new Set<string>();
  for (const name of CREDENTIAL_HEADERS) {
    const value = request.headers[name];
    if (value === undefined || value.length < 8) continue;
    found.add(value);
    const bare = value.replace(/^(Bearer|Basic|Token)\s+/i, '');
    if (bare.length >= 8) found.add(bare);
  }
  return [...found].sort((a, b) => b.length - a.length);
}

/** A receipt from a provider's JSON answer: OpenAI chat completions / responses, Anthropic messages. */
function receiptFromBody(body: string, latencyMs: number, prices: PriceTable): Receipt | null {
  const data = parseBody(body);
  if (data === null || typeof data !== 'object' || Array.isArray(data)) return null;
  const { id, model, usage, type } = data;
  if (typeof id !== 'string' || typeof model !== 'string' || usage === null || typeof usage !== 'object') return null;
  const counts = usage as Record<string, unknown>;
  const tokens = (key: string) => (typeof counts[key] === 'number' ? (counts[key] as number) : undefined);
  const receipt = receiptFromOpenAI(
    {
      id,
      model,
      usage: {
        prompt_tokens: tokens('prompt_tokens'),
        completion_tokens: tokens('completion_tokens'),
        input_tokens: tokens('input_tokens'),
        output_tokens: tokens('output_tokens'),
      },
    },
    { provider: type === 'message' ? 'anthropic' : 'openai', latencyMs },
  );
  return { ...receipt, costUsd: receiptCostUsd(receipt, prices) };
}

/** Why the harness failed an attempt's provider traffic: the status the attempt gets, and the message. */
export interface TrafficFailure {
  status: 'blocked' | 'harness_error';
  message: string;
}

/** One attempt's provider traffic: what was sent, replayed and retried, and receipts not yet handed over. */
export class AttemptTraffic {
  readonly retries: ProviderRetry[] = [];
  readonly exchanges: RecordedExchange[] = [];
  failure: TrafficFailure | null = null;
  total = 0;
  replayed = 0;
  private readonly occurrences = new Map<string, number>();
  private pending: Receipt[] = [];
  constructor(
    readonly arm: string,
    readonly attempt: number,
    readonly seed: number,
    /** The attempt's recorded exchanges by fingerprint and occurrence; null when the attempt has no recording. */
    readonly replay: Promise<Map<string, RecordedExchange> | null>,
  ) {}

  /** The next occurrence number of a fingerprint in this attempt. */
  occurrence(fingerprint: string): number {
    const n = this.occurrences.get(fingerprint) ?? 0;
    this.occurrences.set(fingerprint, n + 1);
    return n;
  }

  addReceipt(receipt: Receipt): void {
    this.pending.push(receipt);
  }

  /** Receipts gathered since the last call. */
  takeReceipts(): Receipt[] {
    const taken = this.pending;
    this.pending = [];
    return taken;
  }
}

/** Waits its turn for an origin with a declared concurrency. */
class Gate {
  private running = 0;
  private readonly waiting: (() => void)[] = [];
  constructor(private readonly limit: number) {}
  async run<T>(task: () => Promise<T>): Promise<T> {
    if (this.running >= this.limit) await new Promise<void>((resolve) => this.waiting.push(resolve));
    this.running += 1;
    try {
      return await task();
    } finally {
      this.running -= 1;
      this.waiting.shift()?.();
    }
  }
}

function forwardWith(agent: Agent): Forward {
  return async (request) => {
    const url = new URL(request.url);
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(request.headers)) {
      if (!['host', 'connection', 'content-length', 'accept-encoding', 'transfer-encoding'].includes(name))
        headers[name] = value;
    }
    // Stored bodies are plain text: ask for no compression.
    headers['accept-encoding'] = 'identity';
    const response = await agent.request({
      origin: url.origin,
      path: `${url.pathname}${url.search}`,
      method: request.method as 'POST',
      headers,
      body: request.body === '' ? null : request.body,
    });
    const flat: Record<string, string> = {};
    for (const [name, value] of Object.entries(response.headers)) {
      if (value !== undefined) flat[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
    }
    return { status: response.statusCode, headers: flat, body: await response.body.text() };
  };
}

/**
 * The provider traffic of one trial. `live`: requests go to the provider, with the declared retries and
 * concurrency; `record`: the same, and each attempt's exchanges are written (secrets stripped) to its recording;
 * `replay`: answers come from the recordings only, and a request with none is refused, the attempt `blocked`.
 */
export class ProviderGateway {
  private readonly gates = new Map<string, Gate>();
  private readonly attempts = new Map<string, AttemptTraffic>();
  private readonly sleep: (ms: number) => Promise<void>;
  private readonly now: () => number;
  private readonly forward: Forward;
  private agent: Agent | null = null;
  private cleared = false;
  private proxy: Promise<RecordingProxy> | null = null;

  constructor(readonly options: ProviderTrafficOptions) {
    this.sleep = options.sleep ?? ((ms) => new Promise((resolve) => setTimeout(resolve, ms)));
    this.now = options.now ?? Date.now;
    // Connections are opened only when a request is forwarded (never in replay).
    this.forward =
      options.forward ??
      (async (request) => {
        // undici is loaded with the first request forwarded: a worker that never forwards one does not hold it.
        const { Agent } = await import('undici');
        this.agent ??= new Agent();
        return forwardWith(this.agent)(request);
      });
    for (const origin of options.origins) {
      if (origin.concurrency !== null) this.gates.set(new URL(origin.baseUrl).origin, new Gate(origin.concurrency));
    }
  }

  /** Whether a URL belongs to a declared provider. */
  handles(url: string): boolean {
    const origin = new URL(url).origin;
    return this.options.origins.some((o) => new URL(o.baseUrl).origin === origin);
  }

  /** The traffic of an attempt; round 1 starts it afresh. */
  attempt(arm: string, attempt: number, seed: number, round: number): AttemptTraffic {
    const key = `${arm}#${attempt}`;
    const existing = this.attempts.get(key);
    if (existing && round > 1) return existing;
    const replay =
      this.options.mode === 'replay'
        ? readRecording(this.options.folder, arm, attempt).then((r) => (r === null ? null : indexExchanges(r)))
        : Promise.resolve(new Map<string, RecordedExchange>());
    // A missing or unreadable recording is found when a request looks it up; do not leave it unhandled.
    replay.catch(() => undefined);
    const traffic = new AttemptTraffic(arm, attempt, seed, replay);
    this.attempts.set(key, traffic);
    return traffic;
  }

  /** Answer one request of an attempt. Throws (as a network failure would) when replay has no answer. */
  async exchange(traffic: AttemptTraffic, request: ProviderRequest): Promise<ProviderResponse> {
    const fingerprint = requestFingerprint(request, this.options.volatile);
    const occurrence = traffic.occurrence(fingerprint);
    traffic.total += 1;
    if (this.options.mode === 'replay') {
      const recorded = await traffic.replay;
      const found = recorded?.get(`${fingerprint}#${occurrence}`);
      if (!found) {
        const unrecorded = `no recording of ${request.method} ${request.url} (request ${fingerprint.slice(7, 19)}, occurrence ${occurrence}) for ${traffic.arm}#${traffic.attempt} in ${this.options.label}`;
        const message =
          recorded === null
            ? `${unrecorded}: ${await this.coverage(traffic.arm)}`
            : `${unrecorded}; record it with RIDDLE_RECORD=1`;
        traffic.failure ??= { status: 'blocked', message };
        throw new Error(`riddle replay: ${message}`);
      }
      traffic.replayed += 1;
      this.noteReceipt(traffic, found.response, found.latencyMs);
      return { ...found.response };
    }
    const origin = new URL(request.url).origin;
    const gate = this.gates.get(origin);
    const started = this.now();
    const response = await (gate
      ? gate.run(() => this.withRetries(traffic, request))
      : this.withRetries(traffic, request));
    const latencyMs = this.now() - started;
    if (this.options.mode === 'record' && traffic.failure === null) {
      const secrets = [...requestSecrets(request), ...processSecretValues()];
      const stored = {
        status: response.status,
        headers: pick(response.headers, KEPT_RESPONSE_HEADERS),
        body: redactText(response.body, secrets),
      };
      traffic.exchanges.push({
        fingerprint,
        occurrence,
        request: redactData(
          {
            method: request.method.toUpperCase(),
            url: request.url,
            headers: pick(request.headers, KEPT_REQUEST_HEADERS),
            body: parseBody(request.body),
          },
          secrets,
        ),
        response: stored,
        latencyMs,
      });
      this.noteReceipt(traffic, stored, latencyMs);
      // The subject sees what a replay will give it, so recording and replaying observe the same attempt.
      return { ...response, body: stored.body };
    }
    this.noteReceipt(traffic, response, latencyMs);
    return response;
  }

  /**
   * How many attempts of an arm the recordings cover, and how to record more: replay is keyed by attempt index, so a
   * trial declaring more attempts than were recorded finds none for the extra ones.
   */
  private async coverage(arm: string): Promise<string> {
    const indices = await recordedAttempts(this.options.folder, arm);
    const where = `the recordings in ${this.options.label}`;
    if (indices.length === 0) return `${where} hold no attempt of arm "${arm}"; record them with RIDDLE_RECORD=1`;
    const which = indices.length === 1 ? `#${indices[0]}` : `#${indices[0]}–#${indices.at(-1)}`;
    return `${where} cover n = ${indices.length} attempt${indices.length === 1 ? '' : 's'} of arm "${arm}" (${which}); record more with RIDDLE_RECORD=1, which records every attempt of the declared repeat.n, or declare n ≤ ${indices.length}`;
  }

  private noteReceipt(traffic: AttemptTraffic, response: ProviderResponse, latencyMs: number): void {
    if (!this.options.receipts || response.status < 200 || response.status >= 300) return;
    const receipt = receiptFromBody(response.body, latencyMs, this.options.prices);
    if (receipt) traffic.addReceipt(receipt);
  }

  private async withRetries(traffic: AttemptTraffic, request: ProviderRequest): Promise<ProviderResponse> {
    const { retry } = this.options;
    for (let done = 0; ; done += 1) {
      const response = await this.forward(request);
      if (!retry.statuses.includes(response.status)) return response;
      if (done >= retry.maxRetries) {
        traffic.failure ??= {
          status: retry.onExhausted,
          message: `${request.method} ${request.url} still answered ${response.status} after ${retry.maxRetries} retries`,
        };
        return response;
      }
      const waitMs = retryDelayMs(response.headers, done + 1, retry, this.now());
      traffic.retries.push({ url: request.url, status: response.status, retry: done + 1, waitMs });
      await this.sleep(waitMs);
    }
  }

  /** Write an attempt's recording (record mode); the first write clears the trial's earlier recordings. */
  async save(traffic: AttemptTraffic): Promise<void> {
    if (this.options.mode !== 'record') return;
    if (!this.cleared) {
      this.cleared = true;
      await rm(this.options.folder, { recursive: true, force: true });
    }
    await writeRecording(this.options.folder, {
      schema: RECORDING_SCHEMA,
      trial: this.options.trial,
      arm: traffic.arm,
      attempt: traffic.attempt,
      seed: traffic.seed,
      exchanges: traffic.exchanges,
    });
  }

  /** The trial's traffic as the Outcome records it. */
  async record(): Promise<ProviderTraffic> {
    const attempts = [...this.attempts.values()]
      .map((t) => ({
        arm: t.arm,
        index: t.attempt,
        exchanges: t.total,
        replayed: t.replayed,
        retries: [...t.retries],
        failure: t.failure?.message ?? null,
      }))
      .sort((a, b) => (a.arm < b.arm ? -1 : a.arm > b.arm ? 1 : a.index - b.index));
    const recordings = this.options.mode === 'live' ? null : await recordingsFingerprint(this.options.folder);
    return {
      mode: this.options.mode,
      folder: this.options.label,
      recordings: recordings?.fingerprint ?? null,
      attempts,
    };
  }

  /** Variables pointing a command subject's providers at the loopback proxy (started on first use). */
  async commandVariables(traffic: AttemptTraffic): Promise<Record<string, string>> {
    if (!this.options.origins.some((o) => o.variable !== null)) return {};
    this.proxy ??= RecordingProxy.start(this);
    return (await this.proxy).variablesFor(traffic);
  }

  /** Release the connections and the proxy. */
  async close(): Promise<void> {
    await this.agent?.close();
    if (this.proxy) await (await this.proxy).close();
  }
}
