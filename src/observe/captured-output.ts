import { createHash } from 'node:crypto';
import type { CapturedOutput } from '../model/index.js';

/**
 * One output stream, kept up to a cap. Every byte read is hashed, so a cut stream still carries the fingerprint of
 * all it said; `bytes` counts every byte read, kept or not.
 */
export class OutputCapture {
  private readonly kept: Buffer[] = [];
  private keptBytes = 0;
  private total = 0;
  private readonly hash = createHash('sha256');

  constructor(private readonly capBytes: number) {}

  /** Add a chunk; true once the stream has gone past the cap. */
  push(chunk: Buffer): boolean {
    this.hash.update(chunk);
    this.total += chunk.length;
    const room = this.capBytes - this.keptBytes;
    if (room > 0) {
      const part = chunk.length <= room ? chunk : chunk.subarray(0, room);
      this.kept.push(part);
      this.keptBytes += part.length;
    }
    return this.total > this.capBytes;
  }

  get overCap(): boolean {
    return this.total > this.capBytes;
  }

  /** The retained record; call once, when the stream has ended. */
  finish(): CapturedOutput {
    return {
      // A cut may split a multi-byte character: it decodes to U+FFFD rather than failing.
      text: Buffer.concat(this.kept).toString('utf8'),
      bytes: this.total,
      truncated: this.total > this.capBytes,
      sha256: this.hash.digest('hex'),
    };
  }
}
