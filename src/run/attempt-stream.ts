import { closeSync, mkdirSync, openSync, readSync, renameSync, writeSync } from 'node:fs';
import path from 'node:path';
import { canonicalJson, type AttemptRecord } from '../model/index.js';
import { LeanAttempts } from './lean-attempts.js';
import { attemptDigest, attemptLine } from './outcome-id.js';

/** Lines gathered before each write when the file is put in order: few system calls, never the whole file. */
const CHUNK_BYTES = 1 << 20;

/** Where one written attempt sits in the file. */
interface WrittenLine {
  sequence: number;
  /** `arm#index`, the key amendments are given by. */
  key: string;
  offset: number;
  bytes: number;
  /** attemptDigest of the record as written (run/outcome-id): the Outcome id is built from these. */
  digest: string;
}

/** What a finished stream hands to the Outcome: its file and each attempt's digest, in `sequence` order. */
export interface StreamedAttempts {
  /** Absolute path of the JSON Lines file, one canonical AttemptRecord per line in `sequence` order. */
  file: string;
  count: number;
  digests: string[];
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
  private readonly lines: WrittenLine[] = [];
  private offset = 0;
  private inOrder = true;
  private finished = false;
  private readonly lean = new LeanAttempts();

  constructor(readonly file: string) {}

  /** Write a finished attempt now; returns the lean copy to keep in its place. */
  add(record: AttemptRecord): AttemptRecord {
    if (this.finished) throw new Error(`riddle: attempt stream ${this.file} is finished; no attempt can be added`);
    if (this.fd === null) {
      mkdirSync(path.dirname(this.file), { recursive: true });
      // 'wx+': a stream never appends to a file another trial or an earlier run wrote; it reads its lines back to order them.
      this.fd = openSync(this.file, 'wx+');
    }
    const { json, digest } = attemptLine(record);
    const text = `${json}\n`;
    const bytes = Buffer.byteLength(text);
    writeSync(this.fd, text);
    const last = this.lines.at(-1);
    if (last && last.sequence > record.sequence) this.inOrder = false;
    this.lines.push({
      sequence: record.sequence,
      key: `${record.arm}#${record.index}`,
      offset: this.offset,
      bytes,
      digest,
    });
    this.offset += bytes;
    return this.lean.of(record);
  }

  /** How many attempts were written so far. */
  get written(): number {
    return this.lines.length;
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
    const amended = this.lines.some((line) => amend.has(line.key));
    try {
      if (!this.inOrder || amended) this.rewrite(fd, amend);
    } finally {
      closeSync(fd);
    }
    return { file: this.file, count: this.lines.length, digests: this.lines.map((line) => line.digest) };
  }

  /** Copy the lines in `sequence` order into a file beside this one, amended, then put it in this one's place. */
  private rewrite(fd: number, amend: ReadonlyMap<string, (record: AttemptRecord) => AttemptRecord>): void {
    this.lines.sort((a, b) => a.sequence - b.sequence);
    const temp = `${this.file}.${process.pid}.ordering`;
    const out = openSync(temp, 'w');
    try {
      let chunk: Buffer[] = [];
      let chunkBytes = 0;
      for (const line of this.lines) {
        let bytes = Buffer.alloc(line.bytes);
        readSync(fd, bytes, 0, line.bytes, line.offset);
        const change = amend.get(line.key);
        if (change) {
          const record = change(JSON.parse(bytes.toString('utf8')) as AttemptRecord);
          bytes = Buffer.from(`${canonicalJson(record)}\n`);
          line.digest = attemptDigest(record);
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
  }
}
