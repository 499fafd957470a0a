import { randomBytes } from 'node:crypto';
import {
  closeSync,
  existsSync,
  mkdirSync,
  openSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  unlinkSync,
  writeSync,
} from 'node:fs';
import { mkdir, open, rename } from 'node:fs/promises';
import path from 'node:path';
import { canonicalJson, migrate, RecordError, type Outcome } from '../model/index.js';
import { LineReader } from './line-reader.js';
import { prettyJsonChunks } from './pretty-json.js';

/** Characters read at a time from a JSON Lines file. */
const CHUNK_CHARS = 1 << 20;

/**
 * Text gathered before each write: few system calls, and never the whole file in memory at once. Kept small because a
 * piece lives until its write returns: pieces of a megabyte outlived young-generation collections and filled the old
 * generation with garbage (a 50,000-row suite's reporter peaked at 0.8-1.0 GB writing its artifacts, 0.5 GB with these).
 */
const WRITE_CHARS = 1 << 16;

/** The attempts file beside an Outcome file: `<name>.json` → `<name>.attempts.jsonl`. */
export function attemptsFileName(outcomeFile: string): string {
  return `${path.basename(outcomeFile, '.json')}.attempts.jsonl`;
}

function temporary(file: string): string {
  return path.join(path.dirname(file), `.${path.basename(file)}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`);
}

/**
 * Write `file` whole or not at all: `write` fills a temporary file beside it, which is then renamed into place, or
 * removed when writing failed (a full disk left half-written temporary files in the run folder).
 */
export function writeThroughTemporary(file: string, write: (temp: string) => void): void {
  const temp = temporary(file);
  try {
    write(temp);
    renameSync(temp, file);
  } catch (error) {
    rmSync(temp, { force: true });
    throw error;
  }
}

/** `writeThroughTemporary` for an asynchronous `write`. */
export async function writeThroughTemporaryAsync(file: string, write: (temp: string) => Promise<void>): Promise<void> {
  const temp = temporary(file);
  try {
    await write(temp);
    await rename(temp, file);
  } catch (error) {
    rmSync(temp, { force: true });
    throw error;
  }
}

/**
 * Attempts at most an Outcome holds inline when it is stored (`attemptsFile` null, no attempts file beside it): a trial
 * this small keeps them in memory while it runs (run/held-attempts), and a file created, read back and moved for each
 * one-attempt trial was the dearest part of its fixed cost.
 */
export const INLINE_ATTEMPTS = 16;
/** Bytes of attempts (as JSON Lines) at most an Outcome holds inline: large replies stay in their own file. */
export const INLINE_BYTES = 1 << 20;

/**
 * The Outcome as stored whole, its attempts inline (each as its canonical JSON, as a line of an attempts file would
 * hold it, whether it comes from memory or from the file the trial wrote), or null when it has more than
 * INLINE_ATTEMPTS attempts or their lines more than INLINE_BYTES.
 */
function storedWhole(outcome: Outcome, streamedFrom: string | null): Outcome | null {
  const count = streamedFrom === null ? outcome.attempts.length : outcome.execution.order.length;
  if (count > INLINE_ATTEMPTS) return null;
  const attempts: Outcome['attempts'] = [];
  if (streamedFrom === null) {
    let bytes = 0;
    for (const attempt of outcome.attempts) {
      const line = canonicalJson(attempt);
      bytes += line.length;
      if (bytes > INLINE_BYTES) return null;
      attempts.push(JSON.parse(line));
    }
  } else {
    if (statSync(streamedFrom).size > INLINE_BYTES) return null;
    forEachJsonLine(streamedFrom, (line) => attempts.push(line as Outcome['attempts'][number]));
  }
  if (attempts.length > INLINE_ATTEMPTS) return null;
  return { ...outcome, attempts, attemptsFile: null };
}

/**
 * Write an Outcome as two files, each whole or not at all: its attempts as JSON Lines (one canonical AttemptRecord
 * per line, in the order run), written a chunk at a time, and beside it the compact Outcome (`attempts` [] and
 * `attemptsFile` naming the lines), so no single string holds every attempt. See docs/ARCHITECTURE.md. When the
 * attempts were already written while the trial ran (`streamedFrom`, run/attempt-stream), that file is moved into
 * place instead and `outcome.attempts` is not written. An Outcome of at most INLINE_ATTEMPTS attempts is one file
 * holding them (`attemptsFile` null), wherever they were: its streamed file, if any, is read and removed.
 */
export function writeOutcomeFiles(file: string, outcome: Outcome, streamedFrom: string | null = null): void {
  mkdirSync(path.dirname(file), { recursive: true });
  const whole = storedWhole(outcome, streamedFrom);
  if (whole !== null) {
    writeAtomically(file, `${JSON.stringify(whole, null, 2)}\n`);
    if (streamedFrom !== null) unlinkSync(streamedFrom);
    return;
  }
  const linesName = attemptsFileName(file);
  const lines = path.join(path.dirname(file), linesName);
  if (streamedFrom !== null) renameSync(streamedFrom, lines);
  else writeAtomically(lines, attemptLines(outcome));
  const compact: Outcome = { ...outcome, attempts: [], attemptsFile: linesName };
  // A few attempts' compact Outcome is a few kilobytes: JSON.stringify writes the same text in half the time.
  writeAtomically(file, fewAttempts(outcome) ? `${JSON.stringify(compact, null, 2)}\n` : prettyJsonLines(compact));
}

/** The pretty JSON text of a value a chunk at a time, ending with a newline: never the whole text as one string. */
function* prettyJsonLines(value: unknown): Generator<string, void, undefined> {
  yield* prettyJsonChunks(value);
  yield '\n';
}

/**
 * Write a file whole or not at all: into a temporary beside it, then renamed into place. Text given in chunks is
 * written as it is made, gathered into pieces of about WRITE_CHARS (never the whole text at once).
 */
export function writeAtomically(file: string, text: string | Iterable<string>): void {
  writeThroughTemporary(file, (temp) => {
    const out = openSync(temp, 'w');
    try {
      for (const piece of pieces(text)) writeSync(out, piece);
    } finally {
      closeSync(out);
    }
  });
}

/**
 * `writeAtomically` without blocking the event loop. Each asynchronous write is a round trip through the thread pool,
 * so chunks are gathered first: a page of hundreds of trials comes in thousands of small chunks.
 */
export async function writeAtomicallyAsync(file: string, text: string | Iterable<string>): Promise<void> {
  await writeThroughTemporaryAsync(file, async (temp) => {
    const handle = await open(temp, 'w');
    try {
      for (const piece of pieces(text)) await handle.write(piece);
    } finally {
      await handle.close();
    }
  });
}

/** A text as it is, or chunks joined into pieces of about WRITE_CHARS characters. */
function* pieces(text: string | Iterable<string>): Generator<string, void, undefined> {
  if (typeof text === 'string') {
    yield text;
    return;
  }
  let piece = '';
  for (const chunk of text) {
    piece += chunk;
    if (piece.length >= WRITE_CHARS) {
      yield piece;
      piece = '';
    }
  }
  if (piece !== '') yield piece;
}

/**
 * Attempts at most in an Outcome that `writeOutcomeFilesAsync` writes with synchronous calls: its two files are a few
 * kilobytes each, written in microseconds, where each of the ten or so asynchronous calls cost a round trip through
 * the thread pool (about 0.05 ms of CPU each on the machine measured, for every one-attempt trial).
 */
const WRITTEN_AT_ONCE_ATTEMPTS = 100;

/** An Outcome whose files are small enough to be written at once (see WRITTEN_AT_ONCE_ATTEMPTS). */
const fewAttempts = (outcome: Outcome) =>
  Math.max(outcome.attempts.length, outcome.execution.order.length) <= WRITTEN_AT_ONCE_ATTEMPTS;

/**
 * `writeOutcomeFiles` without blocking the event loop: the same two files, the attempts written a chunk at a time
 * with a turn of the loop between chunks. An Outcome of a few attempts is written at once (`writeOutcomeFiles`).
 */
export async function writeOutcomeFilesAsync(
  file: string,
  outcome: Outcome,
  streamedFrom: string | null = null,
): Promise<void> {
  if (fewAttempts(outcome)) return writeOutcomeFiles(file, outcome, streamedFrom);
  await mkdir(path.dirname(file), { recursive: true });
  const linesName = attemptsFileName(file);
  const lines = path.join(path.dirname(file), linesName);
  if (streamedFrom !== null) await rename(streamedFrom, lines);
  else await writeAtomicallyAsync(lines, attemptLines(outcome));
  const compact: Outcome = { ...outcome, attempts: [], attemptsFile: linesName };
  // A chunk at a time: the compact Outcome of 100,000 attempts is still megabytes of text (cost rows, order run).
  await writeAtomicallyAsync(file, prettyJsonLines(compact));
}

/** An Outcome's attempts as JSON Lines (one canonical AttemptRecord a line), a line at a time. */
function* attemptLines(outcome: Outcome): Generator<string, void, undefined> {
  for (const attempt of outcome.attempts) yield `${canonicalJson(attempt)}\n`;
}

/**
 * Each line of a JSON Lines file, parsed, in order, read a chunk at a time (never the whole file as one string).
 * A line that is not JSON fails with the file and line number.
 */
export function forEachJsonLine(file: string, each: (value: unknown) => void): void {
  const fd = openSync(file, 'r');
  try {
    let line = 0;
    const take = (text: string) => {
      line += 1;
      if (text !== '') each(parseJson(text, `${file}:${line}`));
    };
    const lines = new LineReader(fd, CHUNK_CHARS, CHUNK_CHARS);
    while (lines.next(take));
  } finally {
    closeSync(fd);
  }
}

function parseJson(text: string, place: string): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new RecordError(
      place,
      `not valid JSON (${error instanceof Error ? error.message : String(error)}); the file may be truncated or corrupt`,
    );
  }
}

/**
 * Read an Outcome file, migrated to the current version, with its attempts: from the record itself, or, when it
 * names an `attemptsFile`, from that JSON Lines file beside it (the result then holds them inline, `attemptsFile`
 * null). A missing or corrupt file fails with its path (and line).
 */
export function readOutcomeFile(file: string): Outcome {
  if (!existsSync(file)) throw new RecordError(file, 'no such file');
  const data = parseJson(readFileSync(file, 'utf8'), file);
  const named =
    typeof data === 'object' && data !== null ? (data as { attemptsFile?: unknown }).attemptsFile : undefined;
  if (typeof named !== 'string') return migrate('outcome', data, file);
  // Only a file beside the Outcome: a record must not send its reader anywhere else on the disk.
  if (named !== path.basename(named) || named === '..')
    throw new RecordError(file, `attemptsFile must name a file beside the Outcome, got ${JSON.stringify(named)}`);
  const linesFile = path.join(path.dirname(file), named);
  if (!existsSync(linesFile))
    throw new RecordError(file, `its attempts file ${linesFile} is missing; copy it along with the Outcome`);
  const attempts = readFileSync(linesFile, 'utf8')
    .split('\n')
    .flatMap((line, i) => (line === '' ? [] : [parseJson(line, `${linesFile}:${i + 1}`)]));
  const outcome = migrate('outcome', { ...(data as Record<string, unknown>), attempts, attemptsFile: null }, file);
  // The Outcome lists every attempt run, in the file's order: a file cut short or with lines put in would otherwise be
  // read, summarised and re-judged as the whole trial.
  const { order } = outcome.execution;
  if (outcome.attempts.length !== order.length)
    throw new RecordError(
      linesFile,
      `holds ${outcome.attempts.length} attempts where its Outcome ran ${order.length}; the file is cut short or altered`,
    );
  outcome.attempts.forEach((attempt, i) => {
    if (order[i] !== `${attempt.arm}#${attempt.index}`)
      throw new RecordError(
        `${linesFile}:${i + 1}`,
        `is attempt ${attempt.arm}#${attempt.index} where its Outcome ran ${order[i]}; the file is altered`,
      );
  });
  return outcome;
}
