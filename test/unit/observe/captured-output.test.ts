import { createHash } from 'node:crypto';
import { describe, expect, test } from 'vitest';
import { OutputCapture } from '../../../src/observe/captured-output.js';

const sha = (text: string) => createHash('sha256').update(text).digest('hex');

describe('OutputCapture', () => {
  test('keeps a stream under the cap whole', () => {
    const capture = new OutputCapture(10);
    expect(capture.push(Buffer.from('hello'))).toBe(false);
    expect(capture.push(Buffer.from(' you'))).toBe(false);
    expect(capture.finish()).toEqual({ text: 'hello you', bytes: 9, truncated: false, sha256: sha('hello you') });
  });

  test('a stream exactly at the cap is not cut', () => {
    const capture = new OutputCapture(5);
    expect(capture.push(Buffer.from('12345'))).toBe(false);
    expect(capture.finish().truncated).toBe(false);
  });

  test('past the cap: keeps the head, counts and hashes every byte', () => {
    const capture = new OutputCapture(4);
    capture.push(Buffer.from('abc'));
    expect(capture.push(Buffer.from('defgh'))).toBe(true);
    expect(capture.overCap).toBe(true);
    capture.push(Buffer.from('ij'));
    expect(capture.finish()).toEqual({ text: 'abcd', bytes: 10, truncated: true, sha256: sha('abcdefghij') });
  });

  test('no output: nothing kept, the hash of no bytes', () => {
    expect(new OutputCapture(4).finish()).toEqual({ text: '', bytes: 0, truncated: false, sha256: sha('') });
  });

  test('past the cap at the first chunk, and by one byte after a full head: every byte hashed', () => {
    const first = new OutputCapture(3);
    expect(first.push(Buffer.from('abcdef'))).toBe(true);
    expect(first.finish()).toEqual({ text: 'abc', bytes: 6, truncated: true, sha256: sha('abcdef') });
    const late = new OutputCapture(3);
    late.push(Buffer.from('ab'));
    late.push(Buffer.from('c'));
    expect(late.push(Buffer.from('d'))).toBe(true);
    expect(late.finish()).toEqual({ text: 'abc', bytes: 4, truncated: true, sha256: sha('abcd') });
  });

  test('a multi-byte character split by the cap decodes to a replacement character', () => {
    const capture = new OutputCapture(2);
    capture.push(Buffer.from('aé'));
    expect(capture.finish().text).toBe('a\uFFFD');
  });
});
