import { clearTimeout, setTimeout } from 'node:timers';
import type { AttemptRecord } from '../model/index.js';
import { INLINE_ATTEMPTS, INLINE_BYTES } from '../report/outcome-files.js';
import type { AttemptStream, StreamedAttempts } from './attempt-stream.js';
import { writeAtExit, writtenBeforeExit } from './exit-writes.js';

/** Where runTrial hands each finished attempt: an AttemptStream, or HeldAttempts in front of one. */
export interface AttemptSink {
  /** Take a finished attempt; returns what the trial keeps in its place. */
  add(record: AttemptRecord): AttemptRecord;
  /** End it: the written file and digests, or null when the attempts stay in the Outcome. */
  finish(amend?: ReadonlyMap<string, (record: AttemptRecord) => AttemptRecord>): StreamedAttempts | null;
}

/** How long an attempt may wait in memory before it is written out (the attempts file is readable while trials run). */
export const HELD_AT_MOST_MS = 1000;

/**
 * About how many bytes `value`'s JSON takes (strings by their length, names and punctuation roughly), counted no
 * further than past `limit`: a held attempt with a large reply is written out rather than kept whole.
 */
function approximateBytes(value: unknown, limit: number): number {
  let bytes = 0;
  const stack: unknown[] = [value];
  while (stack.length > 0 && bytes <= limit) {
    const item = stack.pop();
    if (typeof item === 'string') bytes += item.length + 2;
    else if (Array.isArray(item))
      for (let i = 0; i < item.length && bytes <= limit; i += 1) {
        bytes += 1;
        stack.push(item[i]);
      }
    else if (item !== null && typeof item === 'object')
      for (const name in item) {
        if (bytes > limit) break;
        bytes += name.length + 4;
        stack.push((item as Record<string, unknown>)[name]);
      }
    else bytes += 8;
  }
  return bytes;
}

/** Timers HeldAttempts uses (injected in tests). */
export interface HoldTimer {
  set(callback: () => void, ms: number): unknown;
  clear(handle: unknown): void;
}

const systemTimer: HoldTimer = {
  set: (callback, ms) => setTimeout(callback, ms).unref(),
  clear: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
};

/**
 * A trial's attempts kept in memory while they are few, small and recent, written to an attempts file (`open`, created
 * only then) once there are more than INLINE_ATTEMPTS, they hold more than about INLINE_BYTES, or the first has waited
 * HELD_AT_MOST_MS. A small trial that ends
 * first never creates its file: its attempts stay in its Outcome (`attemptsFile` null), which is stored whole. Creating
 * a file was the dearest part of a one-attempt trial's fixed cost (0.2–1.5 ms of the worker's CPU, and the main process
 * read it back and moved it). What is recorded is the same either way; the Outcome's id does not depend on where its
 * attempts are.
 */
export class HeldAttempts implements AttemptSink {
  private stream: AttemptStream | null = null;
  private held: AttemptRecord[] = [];
  private timer: unknown = null;
  private heldBytes = 0;
  private finished = false;
  /** Why writing out failed when the timer did it: thrown to the trial at its next attempt or its end. */
  private failure: unknown = null;

  constructor(
    private readonly open: () => AttemptStream,
    private readonly timers: HoldTimer = systemTimer,
  ) {}

  add(record: AttemptRecord): AttemptRecord {
    if (this.finished) throw new Error('riddle: the trial’s attempts are finished; no attempt can be added');
    if (this.failure !== null) throw this.failure;
    if (this.stream !== null) return this.stream.add(record);
    if (this.held.length < INLINE_ATTEMPTS) this.heldBytes += approximateBytes(record, INLINE_BYTES - this.heldBytes);
    if (this.held.length < INLINE_ATTEMPTS && this.heldBytes <= INLINE_BYTES) {
      this.held.push(record);
      if (this.held.length === 1) writeAtExit(this, () => this.writeOutNow());
      this.timer ??= this.timers.set(() => {
        try {
          this.writeOut();
        } catch (error) {
          this.failure = error;
        }
      }, HELD_AT_MOST_MS);
      // The whole record is kept: the trial keeps at most INLINE_ATTEMPTS of them before they are written out.
      return record;
    }
    return this.writeOut().add(record);
  }

  /**
   * Write the held attempts out and the stream's gathered lines with them, now (the process is exiting): the attempts
   * file then holds every attempt that finished, as it would have without holding them.
   */
  writeOutNow(): void {
    if (this.finished) return;
    this.writeOut().writePending();
  }

  /** Create the attempts file and write the held attempts into it, in the order they were taken. */
  private writeOut(): AttemptStream {
    writtenBeforeExit(this);
    if (this.timer !== null) this.timers.clear(this.timer);
    this.timer = null;
    if (this.stream !== null) return this.stream;
    const stream = this.open();
    this.stream = stream;
    // Their lean copies are not needed: the trial keeps the whole records it was given for them.
    for (const record of this.held) stream.add(record);
    this.held = [];
    return stream;
  }

  finish(amend?: ReadonlyMap<string, (record: AttemptRecord) => AttemptRecord>): StreamedAttempts | null {
    if (this.finished) throw new Error('riddle: the trial’s attempts are already finished');
    this.finished = true;
    writtenBeforeExit(this);
    if (this.timer !== null) this.timers.clear(this.timer);
    this.timer = null;
    this.held = [];
    if (this.failure !== null) throw this.failure;
    return this.stream?.finish(amend) ?? null;
  }
}
