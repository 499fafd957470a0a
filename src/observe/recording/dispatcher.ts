import { AsyncLocalStorage } from 'node:async_hooks';
import type { Dispatcher } from 'undici';
import type { AttemptTraffic, ProviderGateway } from './gateway.js';
import type { ProviderRequest } from './request-key.js';

interface Current {
  gateway: ProviderGateway;
  traffic: AttemptTraffic;
}

/** The attempt whose subject is running: requests are attributed to it wherever in its async flow they start. */
const current = new AsyncLocalStorage<Current>();

type Handler = Dispatcher.DispatchHandlers;

function headerRecord(headers: Dispatcher.DispatchOptions['headers']): Record<string, string> {
  const out: Record<string, string> = {};
  if (!headers) return out;
  if (Array.isArray(headers)) {
    for (let i = 0; i + 1 < headers.length; i += 2) out[String(headers[i]).toLowerCase()] = String(headers[i + 1]);
    return out;
  }
  for (const [name, value] of Object.entries(headers as Record<string, string | string[] | undefined>)) {
    if (value !== undefined) out[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
  }
  return out;
}

async function bodyText(body: Dispatcher.DispatchOptions['body']): Promise<string> {
  if (body === null || body === undefined) return '';
  if (typeof body === 'string') return body;
  if (body instanceof Uint8Array) return Buffer.from(body).toString('utf8');
  const chunks: Buffer[] = [];
  for await (const chunk of body as AsyncIterable<Uint8Array | string>) chunks.push(Buffer.from(chunk));
  return Buffer.concat(chunks).toString('utf8');
}

async function serve(
  { gateway, traffic }: Current,
  request: Omit<ProviderRequest, 'body'>,
  body: Dispatcher.DispatchOptions['body'],
  handler: Handler,
): Promise<void> {
  let aborted = false;
  try {
    handler.onConnect?.(() => {
      aborted = true;
    });
    const response = await gateway.exchange(traffic, { ...request, body: await bodyText(body) });
    if (aborted) return;
    const raw: Buffer[] = [];
    for (const [name, value] of Object.entries(response.headers)) {
      // The body handed back is whole and decoded: its original framing and encoding no longer apply.
      if (['content-encoding', 'content-length', 'transfer-encoding', 'connection'].includes(name)) continue;
      raw.push(Buffer.from(name), Buffer.from(value));
    }
    handler.onHeaders?.(response.status, raw, () => undefined, '');
    handler.onData?.(Buffer.from(response.body));
    handler.onComplete?.([]);
  } catch (error) {
    if (!aborted) handler.onError?.(error instanceof Error ? error : new Error(String(error)));
  }
}

/** What of undici the dispatcher needs. */
interface Undici {
  Dispatcher: typeof Dispatcher;
  getGlobalDispatcher: () => Dispatcher;
  setGlobalDispatcher: (dispatcher: Dispatcher) => void;
}

/** Sends requests to declared providers through the running attempt's gateway, and everything else on as before. */
interface ProviderDispatcher extends Dispatcher {
  readonly previous: Dispatcher;
}

/** The dispatcher class, made once undici is loaded (it extends undici's Dispatcher). */
function providerDispatcherClass(undici: Undici): new (previous: Dispatcher) => ProviderDispatcher {
  return class extends undici.Dispatcher implements ProviderDispatcher {
    constructor(readonly previous: Dispatcher) {
      super();
    }
    override dispatch(options: Dispatcher.DispatchOptions, handler: Handler): boolean {
      const running = current.getStore();
      const url = new URL(options.path, options.origin ?? undefined).href;
      if (!running || !running.gateway.handles(url)) return this.previous.dispatch(options, handler);
      void serve(
        running,
        { method: options.method, url, headers: headerRecord(options.headers) },
        options.body,
        handler,
      );
      return true;
    }
    override close(): Promise<void> {
      return Promise.resolve();
    }
    override destroy(): Promise<void> {
      return Promise.resolve();
    }
  };
}

// undici is loaded with the first attempt whose providers are declared: a worker whose trials declare none does not
// hold it.
let loaded: Promise<{ undici: Undici; Provider: new (previous: Dispatcher) => ProviderDispatcher }> | null = null;
const loadUndici = () => {
  loaded ??= import('undici').then(({ Dispatcher, getGlobalDispatcher, setGlobalDispatcher }) => {
    const undici: Undici = { Dispatcher, getGlobalDispatcher, setGlobalDispatcher };
    return { undici, Provider: providerDispatcherClass(undici) };
  });
  return loaded;
};

let installed: { dispatcher: ProviderDispatcher; users: number } | null = null;

/**
 * Run part of an attempt with its provider requests (from `fetch`, or any client on undici's global dispatcher)
 * going through the gateway. The dispatcher is in place only while some attempt runs, and sends requests made
 * outside any attempt (an evaluator's own model calls) on unchanged.
 */
export async function withProviderDispatcher<T>(
  gateway: ProviderGateway,
  traffic: AttemptTraffic,
  run: () => Promise<T>,
): Promise<T> {
  const { undici, Provider } = await loadUndici();
  if (installed === null) {
    installed = { dispatcher: new Provider(undici.getGlobalDispatcher()), users: 0 };
    undici.setGlobalDispatcher(installed.dispatcher);
  }
  installed.users += 1;
  try {
    return await current.run({ gateway, traffic }, run);
  } finally {
    installed.users -= 1;
    if (installed.users === 0) {
      undici.setGlobalDispatcher(installed.dispatcher.previous);
      installed = null;
    }
  }
}
