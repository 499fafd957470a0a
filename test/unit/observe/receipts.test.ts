import { execFileSync } from 'node:child_process';
import { mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { receiptFromOpenAI, receiptsFromAiSdk } from '../../../src/observe/index.js';
import { readReceiptsFile } from '../../../src/observe/receipts.js';

describe('receipt adapters', () => {
  test('an openai result without usage keeps the tokens and cost unknown, never 0', () => {
    expect(
      receiptFromOpenAI(
        { id: 'c1', model: 'm', usage: null },
        { pricing: { inputPerMillionUsd: 1, outputPerMillionUsd: 1 } },
      ),
    ).toEqual({
      provider: 'openai',
      id: 'c1',
      model: 'm',
      inputTokens: null,
      outputTokens: null,
      costUsd: null,
      latencyMs: null,
    });
  });

  test('an AI SDK result with several steps gives one receipt per step, latency unknown per step', () => {
    const step = (id: string, inputTokens: number | undefined) => ({
      model: { provider: 'acme.chat', modelId: 'acme-1' },
      response: { id, modelId: 'acme-1-0501' },
      usage: { inputTokens, outputTokens: 2 },
    });
    expect(
      receiptsFromAiSdk(
        { steps: [step('s1', 10), step('s2', undefined)] },
        { latencyMs: 99, pricing: { inputPerMillionUsd: 1_000_000, outputPerMillionUsd: 0 } },
      ),
    ).toEqual([
      {
        provider: 'acme.chat',
        id: 's1',
        model: 'acme-1-0501',
        inputTokens: 10,
        outputTokens: 2,
        costUsd: 10,
        latencyMs: null,
      },
      {
        provider: 'acme.chat',
        id: 's2',
        model: 'acme-1-0501',
        inputTokens: null,
        outputTokens: 2,
        costUsd: null,
        latencyMs: null,
      },
    ]);
  });
});

describe('the receipts file a command subject writes', () => {
  const folder = () => mkdtempSync(path.join(os.tmpdir(), 'riddle-receipts-'));
  const line = (id: string) =>
    `${JSON.stringify({ provider: 'openai', id, model: 'm', inputTokens: 1, outputTokens: 2, costUsd: null, latencyMs: null })}\n`;

  test('its receipts are read, a line that is not a receipt named in a note, and a missing file means none', async () => {
    const dir = folder();
    const file = path.join(dir, 'receipts.jsonl');
    writeFileSync(file, `${line('a')}not json\n${JSON.stringify({ id: 'b' })}\n${line('c')}`);
    const read = await readReceiptsFile(file);
    expect(read.receipts.map((r) => r.id)).toEqual(['a', 'c']);
    expect(read.notes).toEqual([
      'receipts line 2 ignored: not JSON',
      expect.stringMatching(/^receipts line 3 ignored: /),
    ]);
    expect(await readReceiptsFile(path.join(dir, 'none.jsonl'))).toEqual({ receipts: [], notes: [] });
  });

  test('a FIFO put in its place is not waited on: nothing writes to it once the subject has exited', async () => {
    const dir = folder();
    const file = path.join(dir, 'receipts.jsonl');
    execFileSync('mkfifo', [file]);
    // Opened for reading without O_NONBLOCK, a FIFO with no writer blocks the reading thread for good.
    expect(await readReceiptsFile(file)).toEqual({
      receipts: [],
      notes: ['the receipts file is not a regular file (a FIFO or a device, say): no receipt read'],
    });
  });

  test('a symbolic link put in its place is not followed', async () => {
    const dir = folder();
    const target = path.join(dir, 'elsewhere.jsonl');
    writeFileSync(target, line('secret'));
    const file = path.join(dir, 'receipts.jsonl');
    symlinkSync(target, file);
    expect(await readReceiptsFile(file)).toEqual({
      receipts: [],
      notes: ['the receipts file was replaced by a symbolic link: not followed, no receipt read'],
    });
  });

  test('a file larger than the bound is read up to it, the cut line and the rest named', async () => {
    const dir = folder();
    const file = path.join(dir, 'receipts.jsonl');
    const text = line('a').repeat(1000);
    writeFileSync(file, text);
    const bound = line('a').length * 10 + 5;
    const read = await readReceiptsFile(file, bound);
    expect(read.receipts).toHaveLength(10);
    expect(read.notes).toEqual([
      `the receipts file holds ${text.length} bytes: only the first ${bound} were read`,
      'receipts line 11 ignored: not JSON',
    ]);
  });

  test('a file past the synchronous read is read whole, without blocking', async () => {
    const dir = folder();
    const file = path.join(dir, 'receipts.jsonl');
    const one = line('a');
    const count = Math.ceil((512 * 1024) / one.length);
    writeFileSync(file, one.repeat(count));
    const read = await readReceiptsFile(file);
    expect(read.receipts).toHaveLength(count);
    expect(read.notes).toEqual([]);
  });
});
