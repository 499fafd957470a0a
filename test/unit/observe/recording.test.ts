import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CASE_SCHEMA, systemClock, type Case, type JsonValue, type Observation } from '../../../src/model/index.js';
import {
  commandSubject,
  DEFAULT_RETRY,
  functionSubject,
  observeAttempt,
  ProviderGateway,
  requestFingerprint,
  retryDelayMs,
  withProviderTraffic,
  type ProviderTrafficOptions,
  type Subject,
} from '../../../src/observe/index.js';
import { startProviderServer, type ProviderServer } from '../../support/provider-server.js';

const OPENAI_KEY = 'sk-proj-abcdefghijklmnopqrstuvwxyz0123456789';
const ANTHROPIC_KEY = 'anthropic-test-credential-0123456789';

let server: ProviderServer;
let root: string;
beforeAll(async () => {
  server = await startProviderServer();
  root = await mkdtemp(path.join(tmpdir(), 'riddle-recordings-'));
});
afterAll(async () => {
  await server.close();
  await rm(root, { recursive: true, force: true });
});

function testCase(input: JsonValue): Case {
  return {
    schema: CASE_SCHEMA,
    id: 'case',
    input,
    followUps: [],
    fixtures: null,
    expect: [],
    forbid: [],
    oracle: null,
    effectClass: 'read',
    stop: { timeoutMs: 20_000, maxOutputBytes: 64 * 1024, maxRounds: 1 },
    dependencies: [],
    sealed: false,
    tags: {},
    pressure: null,
    trap: null,
  };
}

/** Asks through the openai SDK, then through a raw fetch in Anthropic's wire format. */
const twoProviders = functionSubject({
  name: 'two providers',
  revision: 'r1',
  async run(input) {
    const openai = new OpenAI({ apiKey: OPENAI_KEY, baseURL: `${server.origin}/v1`, maxRetries: 0 });
    const completion = await openai.chat.completions.create({
      model: 'gpt-test',
      messages: [{ role: 'user', content: String(input) }],
      user: `volatile-${Math.random()}`,
    });
    const answer = await fetch(`${server.origin}/v1/messages`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': ANTHROPIC_KEY, 'anthropic-version': '2023-06-01' },
      body: JSON.stringify({
        model: 'claude-test',
        max_tokens: 64,
        messages: [{ role: 'user', content: `${String(input)} (key ${ANTHROPIC_KEY})` }],
      }),
    });
    const message = (await answer.json()) as { content: { text: string }[] };
    return `${completion.choices[0]?.message.content ?? ''} | ${message.content[0]?.text ?? ''}`;
  },
});

function gateway(mode: ProviderTrafficOptions['mode'], folder: string, extra: Partial<ProviderTrafficOptions> = {}) {
  return new ProviderGateway({
    mode,
    trial: 'recording test',
    folder,
    label: path.relative(root, folder),
    origins: [{ baseUrl: `${server.origin}/v1`, concurrency: null, variable: 'OPENAI_BASE_URL' }],
    volatile: ['user'],
    retry: { ...DEFAULT_RETRY, baseDelayMs: 1 },
    prices: { 'gpt-test': { inputPerMillionUsd: 1_000_000, outputPerMillionUsd: 2_000_000 } },
    receipts: true,
    ...extra,
  });
}

async function observe(subject: Subject, input: JsonValue, attempt = 0) {
  return observeAttempt({
    arm: 'case',
    attempt,
    seed: 7,
    case: testCase(input),
    subject,
    tools: [],
    clock: systemClock,
  });
}

/** The Observation without wall times, which no replay can reproduce. */
function timeless(observation: Observation | null) {
  if (!observation) return null;
  const { resources: _resources, ...rest } = observation;
  return { ...rest, rounds: rest.rounds.map(({ durationMs: _d, ...round }) => round) };
}

async function filesUnder(folder: string): Promise<string[]> {
  const entries = await readdir(folder, { recursive: true, withFileTypes: true });
  return entries.filter((e) => e.isFile()).map((e) => path.join(e.parentPath, e.name));
}

describe('recording and replaying provider traffic', () => {
  it('replays a recorded attempt into the same Observation, without reaching the provider', async () => {
    const folder = path.join(root, 'same');
    const recorder = gateway('record', folder);
    const recorded = await observe(withProviderTraffic(twoProviders, recorder), 'hello there');
    await recorder.close();
    expect(recorded.status).toBe('completed');
    expect(recorded.observation?.rounds[0]?.reply).toBe('echo: hello there | echo: hello there (key [redacted])');
    expect(recorded.observation?.receipts.map((r) => [r.provider, r.model, r.inputTokens, r.outputTokens])).toEqual([
      ['openai', 'gpt-test', 2, 3],
      ['anthropic', 'claude-test', 4, 5],
    ]);
    // Priced from the declared table where the receipt has no cost of its own: 2 × $1 + 3 × $2.
    expect(recorded.observation?.receipts[0]?.costUsd).toBe(8);

    const seenBefore = server.seen.length;
    const player = gateway('replay', folder);
    const replayed = await observe(withProviderTraffic(twoProviders, player), 'hello there');
    expect(server.seen.length).toBe(seenBefore);
    expect(replayed.status).toBe('completed');
    expect(timeless(replayed.observation)).toEqual(timeless(recorded.observation));
    const traffic = await player.record();
    expect(traffic.mode).toBe('replay');
    expect(traffic.recordings).toMatch(/^sha256:/);
    expect(traffic.attempts).toEqual([
      { arm: 'case', index: 0, exchanges: 2, replayed: 2, retries: [], failure: null },
    ]);
  });

  it('blocks an attempt whose request was never recorded, naming the request, and sends nothing', async () => {
    const folder = path.join(root, 'missing');
    const recorder = gateway('record', folder);
    await observe(withProviderTraffic(twoProviders, recorder), 'recorded question');
    const seenBefore = server.seen.length;
    const player = gateway('replay', folder);
    const other = await observe(withProviderTraffic(twoProviders, player), 'another question');
    expect(server.seen.length).toBe(seenBefore);
    expect(other.status).toBe('blocked');
    expect(other.error?.message).toMatch(
      /no recording of POST http:\/\/127\.0\.0\.1:\d+\/v1\/chat\/completions \(request [0-9a-f]{12}, occurrence 0\) for case#0/,
    );
    // Replay is keyed by attempt index: an attempt past those recorded is blocked, saying how many are and what to do.
    const unrecordedAttempt = await observe(withProviderTraffic(twoProviders, player), 'recorded question', 3);
    expect(unrecordedAttempt.status).toBe('blocked');
    expect(unrecordedAttempt.error?.message).toMatch(
      /no recording of POST .* for case#3 in missing: the recordings in missing cover n = 1 attempt of arm "case" \(#0\); record more with RIDDLE_RECORD=1, which records every attempt of the declared repeat\.n, or declare n ≤ 1$/,
    );
  });

  it('keeps credentials from headers and bodies out of the recordings folder', async () => {
    const folder = path.join(root, 'secrets');
    const recorder = gateway('record', folder);
    const result = await observe(withProviderTraffic(twoProviders, recorder), `my key is ${OPENAI_KEY}`);
    expect(result.status).toBe('completed');
    const files = await filesUnder(folder);
    expect(files.map((f) => path.relative(folder, f))).toEqual([path.join('case', 'attempt-0.json')]);
    for (const file of files) {
      const text = await readFile(file, 'utf8');
      expect(text).not.toContain(OPENAI_KEY);
      expect(text).not.toContain(ANTHROPIC_KEY);
      expect(text).not.toMatch(/authorization|x-api-key/i);
      expect(text).toContain('[redacted]');
    }
    // The server did get the key: it was stripped from what is stored, not from what is sent.
    expect(server.seen.at(-1)?.headers['x-api-key']).toBe(ANTHROPIC_KEY);
  });

  it('retries 429 and 503 answers after their retry-after, records the waits, and does not blame the subject', async () => {
    const waits: number[] = [];
    const live = gateway('live', path.join(root, 'unused'), {
      sleep: async (ms) => {
        waits.push(ms);
      },
    });
    server.failures.push({ status: 429, retryAfter: '0' }, { status: 503, retryAfter: '2' });
    const result = await observe(withProviderTraffic(twoProviders, live), 'busy');
    expect(result.status).toBe('completed');
    expect(waits).toEqual([0, 2000]);
    const traffic = await live.record();
    expect(traffic.recordings).toBeNull();
    expect(traffic.attempts[0]?.retries).toEqual([
      { url: `${server.origin}/v1/chat/completions`, status: 429, retry: 1, waitMs: 0 },
      { url: `${server.origin}/v1/chat/completions`, status: 503, retry: 2, waitMs: 2000 },
    ]);
  });

  it('makes an attempt whose retries ran out a harness error, or blocked under a declared quota', async () => {
    const sleep = async () => undefined;
    const exhausted = gateway('live', path.join(root, 'unused'), { sleep });
    server.failures.push(...Array.from({ length: 4 }, () => ({ status: 429, retryAfter: '1' })));
    const result = await observe(withProviderTraffic(twoProviders, exhausted), 'busy');
    expect(result.status).toBe('harness_error');
    expect(result.error?.message).toMatch(/still answered 429 after 3 retries/);
    expect((await exhausted.record()).attempts[0]?.retries).toHaveLength(3);

    const quota = gateway('live', path.join(root, 'unused'), {
      sleep,
      retry: { ...DEFAULT_RETRY, maxRetries: 1, onExhausted: 'blocked' },
    });
    server.failures.push({ status: 429 }, { status: 429 });
    expect((await observe(withProviderTraffic(twoProviders, quota), 'busy')).status).toBe('blocked');
  });

  it('holds requests to a provider to its declared concurrency across attempts', async () => {
    let inFlight = 0;
    let most = 0;
    const limited = gateway('live', path.join(root, 'unused'), {
      origins: [{ baseUrl: `${server.origin}/v1`, concurrency: 1, variable: null }],
      forward: async () => {
        inFlight += 1;
        most = Math.max(most, inFlight);
        await new Promise((resolve) => setTimeout(resolve, 5));
        inFlight -= 1;
        return { status: 200, headers: { 'content-type': 'application/json' }, body: '{"content":[{"text":"x"}]}' };
      },
    });
    const asker = functionSubject({
      name: 'asker',
      revision: 'r1',
      run: async () => (await fetch(`${server.origin}/v1/messages`, { method: 'POST', body: '{}' })).status,
    });
    const subject = withProviderTraffic(asker, limited);
    const results = await Promise.all([0, 1, 2, 3].map((i) => observe(subject, 'x', i)));
    expect(results.map((r) => r.status)).toEqual(['completed', 'completed', 'completed', 'completed']);
    expect(most).toBe(1);
  });

  it('records and replays a command subject through the loopback proxy its base URL points at', async () => {
    const folder = path.join(root, 'command');
    const command = commandSubject({
      name: 'openai command',
      command: process.execPath,
      args: [path.resolve('test/support/openai-command.mjs')],
      revision: 'c1',
    });
    const recorder = gateway('record', folder);
    const recorded = await observe(withProviderTraffic(command, recorder), 'from a command');
    await recorder.close();
    expect(recorded.status).toBe('completed');
    expect(recorded.observation?.rounds[0]?.reply).toBe('echo: from a command');
    expect(recorded.observation?.receipts).toHaveLength(1);
    const text = await readFile(path.join(folder, 'case', 'attempt-0.json'), 'utf8');
    expect(text).not.toContain('sk-command-key');

    const seenBefore = server.seen.length;
    const player = gateway('replay', folder);
    const replayed = await observe(withProviderTraffic(command, player), 'from a command');
    await player.close();
    expect(server.seen.length).toBe(seenBefore);
    expect(replayed.status).toBe('completed');
    expect(replayed.observation?.rounds[0]?.reply).toBe('echo: from a command');
  });
});

describe('request fingerprints and retry waits', () => {
  const request = (body: unknown, url = 'https://api.openai.com/v1/chat/completions?b=2&a=1') => ({
    method: 'post',
    url,
    headers: { authorization: `Bearer ${OPENAI_KEY}` },
    body: JSON.stringify(body),
  });

  it('ignores declared volatile fields and headers, and nothing else', () => {
    const base = requestFingerprint(request({ model: 'm', user: 'u1', metadata: { id: 1, keep: 2 } }), [
      'user',
      'metadata.id',
    ]);
    expect(
      requestFingerprint(
        {
          ...request(
            { metadata: { keep: 2, id: 9 }, user: 'u2', model: 'm' },
            'https://API.openai.com/v1/chat/completions?a=1&b=2',
          ),
          headers: {},
        },
        ['user', 'metadata.id'],
      ),
    ).toBe(base);
    expect(
      requestFingerprint(request({ model: 'm', user: 'u1', metadata: { id: 1, keep: 3 } }), ['user', 'metadata.id']),
    ).not.toBe(base);
    expect(requestFingerprint(request({ model: 'm', user: 'u1', metadata: { id: 1, keep: 2 } }), [])).not.toBe(base);
  });

  it('waits as retry-after says (seconds, milliseconds or a date), else backs off, never past the cap', () => {
    const policy = { ...DEFAULT_RETRY, baseDelayMs: 100, maxDelayMs: 5_000 };
    expect(retryDelayMs({ 'retry-after': '2' }, 1, policy, 0)).toBe(2_000);
    expect(retryDelayMs({ 'retry-after-ms': '250', 'retry-after': '9' }, 1, policy, 0)).toBe(250);
    expect(retryDelayMs({ 'retry-after': new Date(3_000).toUTCString() }, 1, policy, 1_000)).toBe(2_000);
    expect(retryDelayMs({}, 3, policy, 0)).toBe(400);
    expect(retryDelayMs({ 'retry-after': '60' }, 1, policy, 0)).toBe(5_000);
  });
});
