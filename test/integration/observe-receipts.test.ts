import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import { generateText } from 'ai';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import {
  commandSubject,
  functionSubject,
  observeAttempt,
  receiptFromOpenAI,
  receiptsFromAiSdk,
} from '../../src/observe/index.js';
import { plan, SCRIPTED } from './observe-support.js';

// A small OpenAI-compatible server on loopback: the real SDK clients talk to it over HTTP, nothing is mocked.
let server: Server;
let baseURL = '';
const seen: string[] = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk));
    req.on('end', () => {
      seen.push(`${req.method} ${req.url}`);
      const model = (JSON.parse(body || '{}') as { model?: string }).model ?? 'unknown';
      res.setHeader('content-type', 'application/json');
      if (req.url === '/v1/chat/completions') {
        res.end(
          JSON.stringify({
            id: 'chatcmpl-local-1',
            object: 'chat.completion',
            created: 1_700_000_000,
            model: `${model}-2025-01-01`,
            choices: [
              {
                index: 0,
                message: { role: 'assistant', content: 'hello there' },
                finish_reason: 'stop',
                logprobs: null,
              },
            ],
            usage: { prompt_tokens: 11, completion_tokens: 3, total_tokens: 14 },
          }),
        );
      } else if (req.url === '/v1/responses') {
        res.end(
          JSON.stringify({
            id: 'resp_local_1',
            object: 'response',
            created_at: 1_700_000_000,
            model,
            status: 'completed',
            output: [
              {
                type: 'message',
                id: 'msg_1',
                status: 'completed',
                role: 'assistant',
                content: [{ type: 'output_text', text: 'hi', annotations: [] }],
              },
            ],
            usage: {
              input_tokens: 7,
              output_tokens: 2,
              total_tokens: 9,
              input_tokens_details: { cached_tokens: 0 },
              output_tokens_details: { reasoning_tokens: 0 },
            },
          }),
        );
      } else {
        res.statusCode = 404;
        res.end('{}');
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseURL = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const pricing = { inputPerMillionUsd: 2, outputPerMillionUsd: 8 };

describe('provider receipts', () => {
  test('from the openai SDK: a Chat Completion and a Responses API response', async () => {
    const openai = new OpenAI({ apiKey: 'sk-local-test-key-not-real', baseURL, maxRetries: 0 });
    const completion = await openai.chat.completions.create({
      model: 'gpt-test',
      messages: [{ role: 'user', content: 'hi' }],
    });
    expect(receiptFromOpenAI(completion, { latencyMs: 12, pricing })).toEqual({
      provider: 'openai',
      id: 'chatcmpl-local-1',
      model: 'gpt-test-2025-01-01',
      inputTokens: 11,
      outputTokens: 3,
      costUsd: (11 * 2 + 3 * 8) / 1_000_000,
      latencyMs: 12,
    });
    const response = await openai.responses.create({ model: 'gpt-test', input: 'hi' });
    expect(receiptFromOpenAI(response, { provider: 'local' })).toEqual({
      provider: 'local',
      id: 'resp_local_1',
      model: 'gpt-test',
      inputTokens: 7,
      outputTokens: 2,
      costUsd: null,
      latencyMs: null,
    });
  });

  test('from the AI SDK: one receipt per step', async () => {
    const local = createOpenAICompatible({ name: 'local', baseURL, apiKey: 'not-a-real-key' });
    const result = await generateText({ model: local('gpt-test'), prompt: 'hi', maxRetries: 0 });
    expect(receiptsFromAiSdk(result, { latencyMs: 5 })).toEqual([
      {
        provider: 'local.chat',
        id: 'chatcmpl-local-1',
        model: 'gpt-test-2025-01-01',
        inputTokens: 11,
        outputTokens: 3,
        costUsd: null,
        latencyMs: 5,
      },
    ]);
    expect(seen).toContain('POST /v1/chat/completions');
  });

  test('a function subject records receipts through its context; malformed ones are noted, not kept', async () => {
    const subject = functionSubject({
      name: 'calls-a-model',
      revision: '1',
      run: async (_input, context) => {
        const openai = new OpenAI({ apiKey: 'sk-local-test-key-not-real', baseURL, maxRetries: 0 });
        const started = performance.now();
        const completion = await openai.chat.completions.create({
          model: 'gpt-test',
          messages: [{ role: 'user', content: 'hi' }],
        });
        context.recordReceipt(receiptFromOpenAI(completion, { latencyMs: performance.now() - started }));
        context.recordReceipt({ provider: 'x', id: 'y' } as never);
        return completion.choices[0]?.message.content ?? '';
      },
    });
    const observed = await observeAttempt(plan(subject, 'hi'));
    expect(observed.status).toBe('completed');
    expect(observed.observation?.receipts).toMatchObject([
      { provider: 'openai', id: 'chatcmpl-local-1', inputTokens: 11 },
    ]);
    expect(observed.observation?.receipts[0]?.latencyMs).toBeGreaterThan(0);
    expect(observed.observation?.notes?.some((n) => n.startsWith('receipt ignored'))).toBe(true);
  });

  test('a command subject appends receipts to RIDDLE_RECEIPTS; invalid lines are named in the notes', async () => {
    const receipt = {
      provider: 'p',
      id: 'r1',
      model: 'm',
      inputTokens: 1,
      outputTokens: 2,
      costUsd: 0.5,
      latencyMs: 3,
    };
    const subject = commandSubject({ name: 'scripted', command: process.execPath, args: [SCRIPTED] });
    const steps = [
      ['receipt', receipt],
      ['receipt-line', 'not json'],
      ['receipt', { id: 'missing fields' }],
    ];
    const observed = await observeAttempt(plan(subject, JSON.stringify(steps)));
    expect(observed.status).toBe('completed');
    expect(observed.observation?.receipts).toEqual([receipt]);
    expect(observed.observation?.notes).toEqual(
      expect.arrayContaining([
        'receipts line 2 ignored: not JSON',
        expect.stringMatching(/^receipts line 3 ignored: provider/),
      ]),
    );
  });

  test('a command subject that leaves a FIFO as its receipts file is not waited on: the attempt ends, and says so', async () => {
    const subject = commandSubject({ name: 'scripted', command: process.execPath, args: [SCRIPTED] });
    const steps = [['receipts-fifo'], ['stdout', 'done']];
    const observed = await observeAttempt(plan(subject, JSON.stringify(steps)));
    expect(observed.status).toBe('completed');
    expect(observed.observation?.rounds[0]?.reply).toBe('done');
    expect(observed.observation?.receipts).toEqual([]);
    expect(observed.observation?.notes).toContain(
      'the receipts file is not a regular file (a FIFO or a device, say): no receipt read',
    );
  });
});
