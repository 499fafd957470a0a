import { closeSync, mkdtempSync, openSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { LineReader } from '../../../src/report/line-reader.js';
import { seededRandom } from '../../../src/statistics/index.js';

const folder = mkdtempSync(path.join(os.tmpdir(), 'riddle-line-reader-'));
let files = 0;

/** Every text a LineReader gives for a file holding `bytes`, with the reads that filled their room. */
function readAll(bytes: Buffer, firstBytes: number, chunkBytes: number): { lines: string[]; fullReads: number } {
  const file = path.join(folder, `lines-${(files += 1)}`);
  writeFileSync(file, bytes);
  const fd = openSync(file, 'r');
  try {
    const reader = new LineReader(fd, firstBytes, chunkBytes);
    const lines: string[] = [];
    let fullReads = 0;
    while (reader.next((text) => lines.push(text))) if (reader.full) fullReads += 1;
    // Done: reading on gives nothing more.
    expect(reader.next((text) => lines.push(`after the end: ${text}`))).toBe(false);
    return { lines, fullReads };
  } finally {
    closeSync(fd);
  }
}

/** What splitting the whole file's text at its line feeds gives: what the reader must give, line by line. */
const expected = (bytes: Buffer) => bytes.toString('utf8').split('\n');

// ASCII, two-, three- and four-byte characters, and JSON's own punctuation.
const PIECES = ['a', 'Z', '7', ' ', '"', '\\', '{', '}', ',', 'é', 'ß', '€', '中', '😀', '\r', '\t'];

describe('a line reader', () => {
  it('gives the lines of files of every shape as splitting the whole text would, whatever its chunk sizes', () => {
    // Seeded, so a failure reproduces.
    const next = seededRandom(20261202);
    for (let file = 0; file < 300; file += 1) {
      const ascii = next() < 0.4;
      const lines = Array.from({ length: Math.floor(next() * 12) }, () =>
        Array.from({ length: Math.floor(next() ** 2 * 90) }, () => {
          const piece = PIECES[Math.floor(next() * PIECES.length)] as string;
          return ascii && piece.charCodeAt(0) > 127 ? 'x' : piece;
        }).join(''),
      );
      const text = lines.join('\n') + (next() < 0.5 ? '\n' : '');
      const bytes = Buffer.from(text, 'utf8');
      // Rooms from a few bytes (a character and a line cut by every read) to more than the file.
      const firstBytes = 1 + Math.floor(next() * 40);
      const chunkBytes = firstBytes + Math.floor(next() * 200);
      expect(readAll(bytes, firstBytes, chunkBytes).lines, JSON.stringify({ text, firstBytes, chunkBytes })).toEqual(
        expected(bytes),
      );
    }
  });

  it('gives an empty file as one empty text, and a file ending in a line feed with an empty text last', () => {
    expect(readAll(Buffer.alloc(0), 16, 64).lines).toEqual(['']);
    expect(readAll(Buffer.from('{"a":1}\n'), 16, 64).lines).toEqual(['{"a":1}', '']);
    expect(readAll(Buffer.from('{"a":1}\n{"b":2}'), 16, 64).lines).toEqual(['{"a":1}', '{"b":2}']);
  });

  it('grows its room for a line longer than it, and says which reads filled their room', () => {
    const long = 'x'.repeat(10_000);
    const bytes = Buffer.from(`short\n${long}\nlast\n`);
    const { lines, fullReads } = readAll(bytes, 8, 32);
    expect(lines).toEqual(['short', long, 'last', '']);
    expect(fullReads).toBeGreaterThan(8);
  });

  it('reads bytes that are not UTF-8 as StringDecoder does, a replacement character for each bad sequence', () => {
    const bytes = Buffer.concat([Buffer.from('ok\n'), Buffer.from([0xff, 0xfe, 0x41]), Buffer.from('\nend')]);
    expect(readAll(bytes, 4, 4).lines).toEqual(['ok', '\ufffd\ufffdA', 'end']);
    expect(readAll(bytes, 64, 64).lines).toEqual(expected(bytes));
  });

  it('reads a real attempts file line by line as the whole text splits', () => {
    const lines = Array.from({ length: 200 }, (_, i) =>
      JSON.stringify({ arm: 'case', index: i, reply: i % 7 === 0 ? `réponse ${i} — ok 😀` : `reply ${i}` }),
    );
    const bytes = Buffer.from(`${lines.join('\n')}\n`);
    const file = path.join(folder, 'attempts.jsonl');
    writeFileSync(file, bytes);
    const read = readAll(readFileSync(file), 1 << 10, 1 << 12).lines;
    expect(read.slice(0, -1).map((line) => JSON.parse(line))).toEqual(lines.map((line) => JSON.parse(line)));
  });
});
