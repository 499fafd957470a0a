import { setImmediate } from 'node:timers';
import { closeSync, mkdirSync, openSync, readSync, renameSync, writeSync } from 'node:fs';
import path from 'node:path';
import { canonicalJson, Sha256List, type AttemptRecord, type WrittenMember } from '../model/index.js';
import { writeAtExit, writtenBeforeExit } from './exit-writes.js';
import { LeanAttempts } from './lean-attempts.js';
import { attemptDigest, attemptLine, attemptMember } from './outcome-id.js';

/** Lines gathered before each write when the file is put in order: few system calls, never the whole file. */
const CHUNK_BYTES = 1 << 20;

/** Members of an attempt a lean copy may hold as a shared value equal to the attempt's own (run/lean-attempts). */
const SHARED_MEMBERS: ReadonlySet<string> = new Set(['why', 'findings', 'criteria', 'claims', 'error', 'pressure']);

/**
 * Bytes of lines gathered before they are written: a write per line cost about a tenth of an attempt's CPU (10–30 µs
 * for a line of a kilobyte), one per 64 KiB almost nothing.
 */
const PENDING_BYTES = 1 << 16;

/** A line's end in UTF-8. */
const NEWLINE = 0x0a;

/** Bytes of an attempt's digest (a sha256, written as 64 hexadecimal digits). */
const DIGEST_BYTES = 32;

/**
 * Where each written attempt sits in the file, with its place and digest, in typed arrays: about 70 bytes an attempt
 * where an object per attempt with its key and digest texts took about 250, for a trial of 100,000 attempts or more.
 */
class WrittenLines {
  count = 0;
  private sequences = new Float64Array(1024);
  /** `index` of each attempt; its arm by position in `arms`. */
  private indices = new Float64Array(1024);
  private armAt = new Uint32Array(1024);
  private offsets = new Float64Array(1024);
  private lengths = new Float64Array(1024);
  /** attemptDigest of each record as written (run/outcome-id): the Outcome id is built from these. */
  private digests = Buffer.alloc(1024 * DIGEST_BYTES);
  private readonly arms: string[] = [];
  private readonly armIds = new Map<string, number>();

  add(record: AttemptRecord, offset: number, bytes: number, digest: string): void {
    if (this.count === this.sequences.length) this.grow();
    const i = this.count;
    let arm = this.armIds.get(record.arm);
    if (arm === undefined) {
      arm = this.arms.push(record.arm) - 1;
      this.armIds.set(record.arm, arm);
    }
    this.sequences[i] = record.sequence;
    this.indices[i] = record.index;
    this.armAt[i] = arm;
    this.offsets[i] = offset;
    this.lengths[i] = bytes;
    this.setDigest(i, digest);
    this.count += 1;
  }

  sequence(i: number): number {
    return this.sequences[i] as number;
  }
  offset(i: number): number {
    return this.offsets[i] as number;
  }
  length(i: number): number {
    return this.lengths[i] as number;
  }
  /** `arm#index`, the key amendments are given by. */
  key(i: number): string {
    return `${this.arms[this.armAt[i] as number]}#${this.indices[i]}`;
  }
  /** Every line's digest, in the order of the positions given (all lines in file order when none are). */
  digestsIn(order: Uint32Array | null): Sha256List {
    if (order === null) return new Sha256List(this.digests.subarray(0, this.count * DIGEST_BYTES));
    const bytes = Buffer.allocUnsafe(this.count * DIGEST_BYTES);
    for (let k = 0; k < this.count; k += 1) {
      const i = order[k] as number;
      this.digests.copy(bytes, k * DIGEST_BYTES, i * DIGEST_BYTES, (i + 1) * DIGEST_BYTES);
    }
    return new Sha256List(bytes);
  }
  setDigest(i: number, digest: string): void {
    if (this.digests.write(digest, i * DIGEST_BYTES, DIGEST_BYTES, 'hex') !== DIGEST_BYTES || digest.length !== 64)
      throw new Error(`riddle: an attempt digest must be 64 hexadecimal digits, not ${JSON.stringify(digest)}`);
  }

  /** Positions of the lines in `sequence` order. */
  inSequence(): Uint32Array {
    const positions = new Uint32Array(this.count);
    for (let i = 0; i < this.count; i += 1) positions[i] = i;
    return positions.sort((a, b) => (this.sequences[a] as number) - (this.sequences[b] as number));
  }

  private grow(): void {
    const wider = <T extends Float64Array | Uint32Array>(array: T, make: (size: number) => T): T => {
      const next = make(array.length * 2);
      next.set(array);
      return next;
    };
    this.sequences = wider(this.sequences, (n) => new Float64Array(n));
    this.indices = wider(this.indices, (n) => new Float64Array(n));
    this.armAt = wider(this.armAt, (n) => new Uint32Array(n));
    this.offsets = wider(this.offsets, (n) => new Float64Array(n));
    this.lengths = wider(this.lengths, (n) => new Float64Array(n));
    const digests = Buffer.alloc(this.digests.length * 2);
    this.digests.copy(digests);
    this.digests = digests;
  }
}

/** What a finished stream hands to the Outcome: its file and each attempt's digest, in `sequence` order. */
export interface StreamedAttempts {
  /** Absolute path of the JSON Lines file, one canonical AttemptRecord per line in `sequence` order. */
  file: string;
  count: number;
  /** Each attempt's digest (run/outcome-id attemptDigest), in `sequence` order. */
  digests: Sha256List;
}

/**
 * A trial's attempts written out as each one finishes, as JSON Lines, so the file can be read while the trial runs and
 * the trial keeps only lean copies (run/lean-attempts, alike parts shared) in memory, whatever its size. The file is created with the first
 * attempt (a trial that ran none writes nothing). When the trial ends, `finish` puts the lines in `sequence` order
 * (attempts finish out of order under concurrency) and applies late amendments (errors a subject raised after its
 * attempt returned), rewriting the file a chunk at a time only when either is needed.
 */
export class AttemptStream {
  private fd: number | null = null;
  private readonly lines = new WrittenLines();
  private offset = 0;
  private inOrder = true;
  private finished = false;
  private readonly lean = new LeanAttempts();
  /** Each shared value's written text (LeanAttempts keeps at most DISTINCT_SHARED of each part). */
  private readonly writtenMembers = new WeakMap<object, WrittenMember>();
  /** Lines added since the last write, `pendingBytes` of them, written at the event loop's next turn. */
  private pending: Buffer | null = null;
  private pendingBytes = 0;
  private writeScheduled = false;
  /** Why the last write at the event loop's turn failed (a full disk, say): thrown to the trial at once after. */
  private failure: unknown = null;

  constructor(readonly file: string) {}

  /** Write a finished attempt now; returns the lean copy to keep in its place. */
  add(record: AttemptRecord): AttemptRecord {
    if (this.finished) throw new Error(`riddle: attempt stream ${this.file} is finished; no attempt can be added`);
    if (this.fd === null) {
      mkdirSync(path.dirname(this.file), { recursive: true });
      // 'wx+': a stream never appends to a file another trial or an earlier run wrote; it reads its lines back to order them.
      this.fd = openSync(this.file, 'wx+');
    }
    const lean = this.lean.of(record);
    const { json, digest } = attemptLine(record, (key, member) => this.sharedMember(record, lean, key, member));
    const bytes = this.write(json);
    if (this.lines.count > 0 && this.lines.sequence(this.lines.count - 1) > record.sequence) this.inOrder = false;
    this.lines.add(record, this.offset, bytes, digest);
    this.offset += bytes;
    return lean;
  }

  /**
   * Write a line (`text` and a newline), or gather it with the lines before it (written together at the event loop's
   * next turn, when 64 KiB are gathered, when the stream ends, or when the process exits): a reader of the file finds
   * every attempt that finished before the event loop's last turn. Its bytes in UTF-8, the newline's included. The
   * newline is written after the text rather than appended to it: `${text}\n` is a new string that writing copies
   * whole once more (a kilobyte an attempt).
   */
  private write(text: string): number {
    if (this.failure !== null) throw this.failure;
    const fd = this.fd as number;
    // A UTF-16 code unit takes at most 3 bytes of UTF-8; and the newline.
    if (this.pendingBytes + text.length * 3 + 1 > PENDING_BYTES) {
      this.writePending();
      if (text.length * 3 + 1 > PENDING_BYTES) return writeSync(fd, text) + writeSync(fd, '\n');
    }
    if (this.pendingBytes === 0) writeAtExit(this, () => this.writePending());
    this.pending ??= Buffer.allocUnsafe(PENDING_BYTES);
    const bytes = this.pending.write(text, this.pendingBytes) + 1;
    this.pending[this.pendingBytes + bytes - 1] = NEWLINE;
    this.pendingBytes += bytes;
    if (!this.writeScheduled) {
      this.writeScheduled = true;
      setImmediate(() => {
        this.writeScheduled = false;
        // Thrown again by the next add or by finish, in the trial, rather than as an error of no test.
        try {
          this.writePending();
        } catch (error) {
          this.failure ??= error;
        }
      });
    }
    return bytes;
  }

  /** Write the lines gathered (see `write`). */
  writePending(): void {
    if (this.pendingBytes === 0 || this.fd === null || this.pending === null) return;
    let done = 0;
    while (done < this.pendingBytes) done += writeSync(this.fd, this.pending, done, this.pendingBytes - done);
    this.pendingBytes = 0;
    writtenBeforeExit(this);
  }

  /**
   * A member of `record` as written already, when its lean copy holds a shared value equal to it as data (so with the
   * same canonical JSON): most attempts of a trial share their findings, criteria, claims and reason, and each shared
   * value is written once. The lean copy's findings differ from the record's when a model judge's exchange was
   * dropped from them; those are written anew.
   */
  private sharedMember(
    record: AttemptRecord,
    lean: AttemptRecord,
    key: string,
    member: unknown,
  ): WrittenMember | undefined {
    if (!SHARED_MEMBERS.has(key)) return undefined;
    const shared = (lean as unknown as Record<string, unknown>)[key];
    if (!this.lean.isShared(shared)) return undefined;
    if (key === 'findings' && record.findings.some((finding) => finding.judge !== null)) return undefined;
    let written = this.writtenMembers.get(shared as object);
    if (written === undefined) {
      written = attemptMember(member);
      this.writtenMembers.set(shared as object, written);
    }
    return written;
  }

  /** How many attempts were written so far. */
  get written(): number {
    return this.lines.count;
  }

  /**
   * End the stream: amend the attempts named in `amend` (by `arm#index`), put every line in `sequence` order, close
   * the file. Null when no attempt was written.
   */
  finish(amend: ReadonlyMap<string, (record: AttemptRecord) => AttemptRecord> = new Map()): StreamedAttempts | null {
    if (this.finished) throw new Error(`riddle: attempt stream ${this.file} is already finished`);
    this.finished = true;
    const fd = this.fd;
    if (fd === null) return null;
    const lines = this.lines;
    let amended = false;
    for (let i = 0; i < lines.count && amend.size > 0 && !amended; i += 1) amended = amend.has(lines.key(i));
    let order: Uint32Array | null = null;
    try {
      // A write that failed at a turn of the event loop fails the trial here when no attempt came after it.
      if (this.failure !== null) throw this.failure;
      this.writePending();
      this.pending = null;
      if (!this.inOrder || amended) order = this.rewrite(fd, amend);
    } finally {
      writtenBeforeExit(this);
      closeSync(fd);
    }
    return { file: this.file, count: lines.count, digests: lines.digestsIn(order) };
  }

  /**
   * Copy the lines in `sequence` order into a file beside this one, amended, then put it in this one's place; returns
   * the lines' positions in that order.
   */
  private rewrite(fd: number, amend: ReadonlyMap<string, (record: AttemptRecord) => AttemptRecord>): Uint32Array {
    const lines = this.lines;
    const order = lines.inSequence();
    const temp = `${this.file}.${process.pid}.ordering`;
    const out = openSync(temp, 'w');
    try {
      let chunk: Buffer[] = [];
      let chunkBytes = 0;
      for (const i of order) {
        let bytes = Buffer.alloc(lines.length(i));
        readSync(fd, bytes, 0, bytes.length, lines.offset(i));
        const change = amend.size > 0 ? amend.get(lines.key(i)) : undefined;
        if (change) {
          const record = change(JSON.parse(bytes.toString('utf8')) as AttemptRecord);
          bytes = Buffer.from(`${canonicalJson(record)}\n`);
          lines.setDigest(i, attemptDigest(record));
        }
        chunk.push(bytes);
        chunkBytes += bytes.length;
        if (chunkBytes >= CHUNK_BYTES) {
          writeSync(out, Buffer.concat(chunk));
          chunk = [];
          chunkBytes = 0;
        }
      }
      if (chunk.length > 0) writeSync(out, Buffer.concat(chunk));
    } finally {
      closeSync(out);
    }
    renameSync(temp, this.file);
    return order;
  }
}
