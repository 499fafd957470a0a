import { createHash, type Hash } from 'node:crypto';
import { sha256, type CapturedOutput } from '../model/index.js';
import { redactCutEnd } from './secrets.js';

/**
 * One output stream, kept up to a cap. Every byte read is hashed, so a cut stream still carries the fingerprint of
 * all it said; `bytes` counts every byte read, kept or not.
 */
export class OutputCapture {
  private readonly kept: Buffer[] = [];
  private keptBytes = 0;
  private total = 0;
  /**
   * Made only once the stream goes past its cap: until then every byte is kept, and the kept bytes are hashed in one
   * call when the stream ends. Most subjects say little, and a Hash object cost more than the hashing (a command
   * attempt captures two streams).
   */
  private hash: Hash | null = null;

  constructor(private readonly capBytes: number) {}

  /** Add a chunk; true once the stream has gone past the cap. */
  push(chunk: Buffer): boolean {
    this.total += chunk.length;
    if (this.hash === null && this.total > this.capBytes) {
      this.hash = createHash('sha256');
      for (const part of this.kept) this.hash.update(part);
    }
    if (this.hash !== null) this.hash.update(chunk);
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
    const kept = Buffer.concat(this.kept);
    return {
      // A cut may split a multi-byte character: it decodes to U+FFFD rather than failing.
      text: kept.toString('utf8'),
      bytes: this.total,
      truncated: this.total > this.capBytes,
      sha256: this.hash === null ? sha256(kept) : this.hash.digest('hex'),
    };
  }
}

/**
 * A stream as it may be kept: one cut at its cap (on raw bytes, which its hash is over) may end with part of a secret,
 * which redacting the whole values later no longer finds; that part is scrubbed here (see redactCutEnd).
 */
export function scrubbedCut(output: CapturedOutput, secrets: readonly string[]): CapturedOutput {
  return output.truncated ? { ...output, text: redactCutEnd(output.text, secrets) } : output;
}
