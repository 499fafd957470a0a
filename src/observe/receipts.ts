import { closeSync, fstatSync, openSync, read, readSync } from 'node:fs';
import { Receipt } from '../model/index.js';
import { SUBJECT_FILE_FLAGS } from './file-snapshot.js';

/** What a receipt adapter needs besides the provider's result. */
export interface ReceiptOptions {
  /** Provider name recorded on the receipt (default: `openai` for the openai SDK, the AI SDK's provider id). */
  provider?: string;
  /** Wall time of the call as the caller measured it, in milliseconds. */
  latencyMs?: number;
  /** Prices in USD per million tokens; without them the cost stays unknown (null), never 0. */
  pricing?: { inputPerMillionUsd: number; outputPerMillionUsd: number };
}

/**
 * The parts of an `openai` SDK result a receipt needs: a Chat Completion (`usage.prompt_tokens`) or a Responses
 * API response (`usage.input_tokens`). Structural, so riddle does not depend on the SDK.
 */
export interface OpenAIResult {
  id: string;
  model: string;
  usage?: {
    prompt_tokens?: number;
    completion_tokens?: number;
    input_tokens?: number;
    output_tokens?: number;
  } | null;
}

/** The parts of an AI SDK (`ai`) `generateText` result a receipt needs: one provider call per step. */
export interface AiSdkResult {
  steps: readonly {
    model: { provider: string; modelId: string };
    response: { id: string; modelId: string };
    usage: { inputTokens: number | undefined; outputTokens: number | undefined };
  }[];
}

function cost(input: number | null, output: number | null, pricing: ReceiptOptions['pricing']): number | null {
  if (pricing === undefined || input === null || output === null) return null;
  return (input * pricing.inputPerMillionUsd + output * pricing.outputPerMillionUsd) / 1_000_000;
}

/** A receipt from an `openai` SDK Chat Completion or Responses API response. */
export function receiptFromOpenAI(result: OpenAIResult, options: ReceiptOptions = {}): Receipt {
  const inputTokens = result.usage?.prompt_tokens ?? result.usage?.input_tokens ?? null;
  const outputTokens = result.usage?.completion_tokens ?? result.usage?.output_tokens ?? null;
  return {
    provider: options.provider ?? 'openai',
    id: result.id,
    model: result.model,
    inputTokens,
    outputTokens,
    costUsd: cost(inputTokens, outputTokens, options.pricing),
    latencyMs: options.latencyMs ?? null,
  };
}

/**
 * Receipts from an AI SDK `generateText` result, one per step (each step is one provider call). The measured
 * latency covers the whole call, so it is recorded only when there was a single step.
 */
export function receiptsFromAiSdk(result: AiSdkResult, options: ReceiptOptions = {}): Receipt[] {
  return result.steps.map((step) => {
    const inputTokens = step.usage.inputTokens ?? null;
    const outputTokens = step.usage.outputTokens ?? null;
    return {
      provider: options.provider ?? step.model.provider,
      id: step.response.id,
      model: step.response.modelId,
      inputTokens,
      outputTokens,
      costUsd: cost(inputTokens, outputTokens, options.pricing),
      latencyMs: result.steps.length === 1 ? (options.latencyMs ?? null) : null,
    };
  });
}

/** Most of a receipts file riddle reads: a subject that writes more is broken or hostile, and the rest is not read. */
const RECEIPTS_MAX_BYTES = 16 * 1024 * 1024;
/** Receipts files up to this size are read with synchronous calls: a promise-based read costs several times more. */
const SYNC_READ_BYTES = 256 * 1024;

const describeError = (error: unknown) => (error instanceof Error ? error.message : String(error));

/** The receipts file's text, up to `maxBytes`, and what kept any of it from being read. */
async function receiptsText(file: string, maxBytes: number): Promise<{ text: string; notes: string[] }> {
  let fd: number;
  try {
    // The receipts file is the subject's to write, and so to replace.
    fd = openSync(file, SUBJECT_FILE_FLAGS);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    // Most commands write no receipts.
    if (code === 'ENOENT') return { text: '', notes: [] };
    if (code === 'ELOOP')
      return { text: '', notes: ['the receipts file was replaced by a symbolic link: not followed, no receipt read'] };
    return { text: '', notes: [`the receipts file could not be opened: ${describeError(error)}`] };
  }
  try {
    const info = fstatSync(fd);
    if (!info.isFile())
      return {
        text: '',
        notes: ['the receipts file is not a regular file (a FIFO or a device, say): no receipt read'],
      };
    const notes =
      info.size > maxBytes ? [`the receipts file holds ${info.size} bytes: only the first ${maxBytes} were read`] : [];
    const bytes = Math.min(info.size, maxBytes);
    const buffer = Buffer.allocUnsafe(bytes);
    let done = 0;
    while (done < bytes) {
      const got =
        bytes <= SYNC_READ_BYTES
          ? readSync(fd, buffer, done, bytes - done, done)
          : await new Promise<number>((resolve, reject) =>
              read(fd, buffer, done, bytes - done, done, (error, n) => (error ? reject(error) : resolve(n))),
            );
      // The file shrank since its stat: what is there is what was written.
      if (got === 0) break;
      done += got;
    }
    return { text: buffer.toString('utf8', 0, done), notes };
  } catch (error) {
    return { text: '', notes: [`the receipts file could not be read: ${describeError(error)}`] };
  } finally {
    closeSync(fd);
  }
}

/**
 * Read the receipts a command subject appended to its receipts file (one JSON Receipt per line). A line that is
 * not a valid Receipt is left out and named in a note; a missing file means none were recorded.
 */
export async function readReceiptsFile(
  file: string,
  maxBytes = RECEIPTS_MAX_BYTES,
): Promise<{ receipts: Receipt[]; notes: string[] }> {
  const { text, notes } = await receiptsText(file, maxBytes);
  const receipts: Receipt[] = [];
  for (const [index, line] of text.split('\n').entries()) {
    if (line.trim() === '') continue;
    let data: unknown;
    try {
      data = JSON.parse(line);
    } catch {
      notes.push(`receipts line ${index + 1} ignored: not JSON`);
      continue;
    }
    const parsed = Receipt.safeParse(data);
    if (parsed.success) receipts.push(parsed.data);
    else
      notes.push(
        `receipts line ${index + 1} ignored: ${parsed.error.issues[0]?.path.join('.') || '(root)'} ${parsed.error.issues[0]?.message ?? 'invalid'}`,
      );
  }
  return { receipts, notes };
}
