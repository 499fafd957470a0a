import path from 'node:path';
import type { Budget, Dependency, PriceTable, ProviderTraffic } from '../model/index.js';
import {
  DEFAULT_RETRY,
  ProviderGateway,
  recordingsFingerprint,
  slug,
  withProviderTraffic,
  type ProviderOrigin,
  type RetryPolicy,
  type Subject,
} from '../observe/index.js';

/** A provider as declared: its base URL, or the URL with a concurrency and the variable a command reads it from. */
export type ProviderDeclaration = string | { baseUrl: string; concurrency?: number; variable?: string };

/** Providers whose HTTP traffic the harness records, replays, or passes through with retries. */
export interface ProvidersDeclaration {
  hosts: ProviderDeclaration[];
  /**
   * `replay` (default): answers come from the committed recordings, never the network; `record`: call the
   * providers and write the recordings (also forced by RIDDLE_RECORD=1); `live`: call them, record nothing.
   */
  mode?: ProviderTraffic['mode'];
  /** Recordings folder relative to the project root (default `recordings`); each trial has a folder inside. */
  recordings?: string;
  /** Dotted request body fields left out of the request fingerprint (ids, timestamps, user tags). */
  volatile?: string[];
  /** Retries of 429 and transient 5xx answers; `onExhausted: 'blocked'` for a declared quota. */
  retry?: Partial<RetryPolicy>;
  /** Record a receipt for each provider answer with an id, model and usage (default true). */
  receipts?: boolean;
}

/** What the spending options of a declaration resolve to. */
export interface ResolvedSpending {
  /** Declared limits, or null when none was declared. */
  spendingBudget: Budget | null;
  prices: PriceTable;
  providerSetup: ResolvedProviders | null;
}

export interface ResolvedProviders {
  origins: ProviderOrigin[];
  mode: ProviderTraffic['mode'] | null;
  /** This trial's recordings folder, relative to the project root. */
  folder: string;
  volatile: string[];
  retry: RetryPolicy;
  receipts: boolean;
}

type Fail = (field: string, problem: string) => Error;

const positive = (value: number | undefined, field: string, fail: Fail, whole = false): number | null => {
  if (value === undefined) return null;
  if (!(value > 0) || (whole && !Number.isInteger(value)))
    throw fail(field, `must be a positive ${whole ? 'whole number' : 'number'}, got ${value}`);
  return value;
};

function resolveOrigin(declared: ProviderDeclaration, field: string, fail: Fail): ProviderOrigin {
  const spec = typeof declared === 'string' ? { baseUrl: declared } : declared;
  const withScheme = /^[a-z]+:\/\//i.test(spec.baseUrl) ? spec.baseUrl : `https://${spec.baseUrl}`;
  try {
    new URL(withScheme);
  } catch {
    throw fail(
      `${field}.baseUrl`,
      `"${spec.baseUrl}" is not a URL; give the provider's base URL, e.g. https://api.openai.com/v1`,
    );
  }
  return {
    baseUrl: withScheme,
    concurrency: positive(spec.concurrency, `${field}.concurrency`, fail, true),
    variable: spec.variable ?? null,
  };
}

/** Resolve a trial's budget, price table and providers, failing early with the field to fix. */
export function resolveSpending(
  declared: {
    budget?: { usd?: number; tokens?: number; wallMs?: number };
    prices?: PriceTable;
    providers?: ProvidersDeclaration;
  },
  trial: { name: string; file: string },
  fail: Fail,
): ResolvedSpending {
  const limits: Budget = {
    usd: positive(declared.budget?.usd, 'budget.usd', fail),
    tokens: positive(declared.budget?.tokens, 'budget.tokens', fail, true),
    wallMs: positive(declared.budget?.wallMs, 'budget.wallMs', fail),
  };
  const prices = declared.prices ?? {};
  for (const [model, price] of Object.entries(prices)) {
    if (!(price.inputPerMillionUsd >= 0 && price.outputPerMillionUsd >= 0))
      throw fail(`prices.${model}`, 'give inputPerMillionUsd and outputPerMillionUsd, both ≥ 0');
  }
  const spendingBudget = Object.values(limits).some((v) => v !== null) ? limits : null;
  const providers = declared.providers;
  if (!providers) return { spendingBudget, prices, providerSetup: null };
  if (!Array.isArray(providers.hosts) || providers.hosts.length === 0)
    throw fail('providers.hosts', 'list at least one provider base URL, e.g. https://api.openai.com/v1');
  if (providers.mode !== undefined && !['live', 'record', 'replay'].includes(providers.mode))
    throw fail('providers.mode', `must be live, record or replay, got "${String(providers.mode)}"`);
  const retry = { ...DEFAULT_RETRY, ...providers.retry };
  if (!(Number.isInteger(retry.maxRetries) && retry.maxRetries >= 0))
    throw fail('providers.retry.maxRetries', `must be a whole number ≥ 0, got ${retry.maxRetries}`);
  const file = trial.file.replace(/\.(test|spec)\.[cm]?[jt]sx?$/, '');
  return {
    spendingBudget,
    prices,
    providerSetup: {
      origins: providers.hosts.map((h, i) => resolveOrigin(h, `providers.hosts[${i}]`, fail)),
      mode: providers.mode ?? null,
      folder: path.posix.join(providers.recordings ?? 'recordings', slug(file), slug(trial.name)),
      volatile: providers.volatile ?? [],
      retry,
      receipts: providers.receipts ?? true,
    },
  };
}

/** A trial's provider traffic, ready to run: the wrapped subject and what the Environment must pin. */
export interface PreparedProviders {
  gateway: ProviderGateway;
  subject: Subject;
  /** Recorded in the Environment's dependencies, so new recordings give a new Environment and Outcome. */
  dependency: { dependency: Dependency; available: boolean; detail: string };
  /** Replayed attempts repeat a recording: they are not independent samples. */
  independent: boolean;
}

/**
 * Set up a trial's provider traffic: the mode (RIDDLE_RECORD=1 records, else the declared mode, else replay), the
 * gateway and the subject wrapped to go through it, and the recordings' fingerprint for the Environment.
 */
export async function prepareProviders(
  resolved: ResolvedProviders,
  subject: Subject,
  context: { root: string; trial: string; prices: PriceTable; record: boolean },
): Promise<PreparedProviders> {
  const mode = context.record ? 'record' : (resolved.mode ?? 'replay');
  const folder = path.resolve(context.root, resolved.folder);
  const gateway = new ProviderGateway({
    mode,
    trial: context.trial,
    folder,
    label: resolved.folder,
    origins: resolved.origins,
    volatile: resolved.volatile,
    retry: resolved.retry,
    prices: context.prices,
    receipts: resolved.receipts,
  });
  const found = mode === 'replay' ? await recordingsFingerprint(folder) : null;
  const detail =
    mode === 'replay'
      ? found
        ? `replaying ${found.files} recorded attempts, ${found.fingerprint}`
        : `no recordings in ${resolved.folder}: record them with RIDDLE_RECORD=1`
      : `${mode}: provider traffic ${mode === 'record' ? `recorded to ${resolved.folder}` : 'not recorded'}`;
  return {
    gateway,
    subject: withProviderTraffic(subject, gateway),
    dependency: {
      dependency: {
        name: `recordings ${resolved.folder}`,
        kind: 'file',
        onUnavailable: 'blocked',
        description: null,
      },
      available: true,
      detail,
    },
    independent: mode !== 'replay',
  };
}
