import { isAscii } from 'node:buffer';
import { readSync } from 'node:fs';

const LINE_FEED = 0x0a;

/**
 * The lines of an open file, read a chunk at a time. Line ends are found in the bytes and each line is decoded on its
 * own (a copy as Latin-1 when the chunk is all ASCII, else as UTF-8: a line feed is never part of a multi-byte
 * character, so no character is cut), so a chunk never becomes one string to be searched and cut again: decoding a
 * megabyte chunk with a StringDecoder and slicing its lines out of the text cost ten times what finding them in the
 * bytes does (20,000 attempt lines of 1.1 KB: 160 against 15 ms on the machine measured).
 */
export class LineReader {
  private buffer: Buffer;
  /** Bytes at the buffer's start not given yet: the start of a line the last read cut. */
  private held = 0;
  private ended = false;
  /** Whether the last read filled all the room it had: more of the file is likely to follow at once. */
  full = false;

  constructor(
    private readonly fd: number,
    /** Room of the first read: most files read this way are small, and a large zero-free buffer still costs. */
    firstBytes: number,
    /** Room of later reads, once a read has filled the first. */
    private readonly chunkBytes: number,
  ) {
    // Only the bytes read are ever looked at, so the buffer need not be zero-filled.
    this.buffer = Buffer.allocUnsafe(firstBytes);
  }

  /**
   * Read on: `each` gets every whole line read (without its line feed), and at the file's end the text after its
   * last line feed (empty when the file ends with one). False once the file has ended.
   */
  next(each: (text: string) => void): boolean {
    if (this.ended) return false;
    // A line longer than the buffer, or a file past its first read: more room, keeping the bytes held.
    const room = this.held === this.buffer.length ? this.buffer.length * 2 : this.full ? this.chunkBytes : 0;
    if (room > this.buffer.length) {
      const larger = Buffer.allocUnsafe(room);
      this.buffer.copy(larger, 0, 0, this.held);
      this.buffer = larger;
    }
    const wanted = this.buffer.length - this.held;
    const read = readSync(this.fd, this.buffer, this.held, wanted, null);
    this.full = read === wanted;
    const bytes = this.buffer.subarray(0, this.held + read);
    const encoding = isAscii(bytes) ? 'latin1' : 'utf8';
    if (read === 0) {
      this.ended = true;
      each(bytes.toString(encoding));
      return false;
    }
    let start = 0;
    for (let end = bytes.indexOf(LINE_FEED); end !== -1; end = bytes.indexOf(LINE_FEED, start)) {
      each(bytes.toString(encoding, start, end));
      start = end + 1;
    }
    this.held = bytes.length - start;
    this.buffer.copy(this.buffer, 0, start, bytes.length);
    return true;
  }
}
