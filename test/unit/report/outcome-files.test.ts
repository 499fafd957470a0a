import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { expect as vitestExpect } from 'vitest';
import { RecordError } from '../../../src/model/index.js';
import { readOutcomeFile, writeOutcomeFiles } from '../../../src/report/index.js';
import {
  INLINE_ATTEMPTS,
  INLINE_BYTES,
  writeThroughTemporary,
  writeThroughTemporaryAsync,
} from '../../../src/report/outcome-files.js';
import { resolveTrial, runTrial } from '../../../src/run/index.js';
import { anEnvironment } from '../builders.js';

async function outcome(n: number) {
  const resolved = resolveTrial(
    { name: 'stored trial', file: 'a.test.ts', path: [] },
    {
      subject: (input) => `yes ${String(input)}`,
      rubric: { criteria: { answers: { description: 'answers', needs: 'text' } } },
      checks: { answers: (o) => void vitestExpect(String(o.reply)).toMatch(/^yes/) },
      case: { input: 'q', expect: ['answers'] },
      control: { input: 'r', expect: ['answers'] },
      repeat: { n, stop: 'fixed' },
    },
  );
  return runTrial(
    { ...resolved, environment: anEnvironment(), unavailable: [], fixtures: {} },
    { clock: { now: () => 0 }, expect: vitestExpect },
  );
}

const folder = () => mkdtempSync(path.join(os.tmpdir(), 'riddle-outcome-files-'));

describe('Outcome files', () => {
  it('keep the attempts as JSON Lines beside a compact Outcome, and read back as the same Outcome', async () => {
    const original = await outcome(30);
    const dir = folder();
    const file = path.join(dir, 'stored-trial.json');
    writeOutcomeFiles(file, original);

    expect(readdirSync(dir).sort()).toEqual(['stored-trial.attempts.jsonl', 'stored-trial.json']);
    const compact = JSON.parse(readFileSync(file, 'utf8'));
    expect(compact.attempts).toEqual([]);
    expect(compact.attemptsFile).toBe('stored-trial.attempts.jsonl');
    expect(compact.id).toBe(original.id);
    const lines = readFileSync(path.join(dir, 'stored-trial.attempts.jsonl'), 'utf8').split('\n');
    expect(lines.pop()).toBe('');
    expect(lines).toHaveLength(60);
    expect(lines.map((line) => JSON.parse(line).sequence)).toEqual(original.attempts.map((a) => a.sequence));

    const read = readOutcomeFile(file);
    expect(read.attemptsFile).toBeNull();
    expect(read).toEqual(JSON.parse(JSON.stringify(original)));
  });

  it('read an Outcome that holds its attempts inline', async () => {
    const original = await outcome(3);
    const file = path.join(folder(), 'inline.json');
    writeFileSync(file, JSON.stringify(original));
    expect(readOutcomeFile(file).attempts).toHaveLength(6);
  });

  it(`keep at most ${INLINE_ATTEMPTS} attempts in the Outcome file itself, and read back as the same Outcome`, async () => {
    const original = await outcome(INLINE_ATTEMPTS / 2);
    const dir = folder();
    const file = path.join(dir, 'small-trial.json');
    writeOutcomeFiles(file, original);
    expect(readdirSync(dir)).toEqual(['small-trial.json']);
    const stored = JSON.parse(readFileSync(file, 'utf8'));
    expect(stored.attemptsFile).toBeNull();
    expect(stored.attempts).toHaveLength(INLINE_ATTEMPTS);
    expect(stored.id).toBe(original.id);
    expect(readOutcomeFile(file)).toEqual(JSON.parse(JSON.stringify(original)));
    // One attempt more and they are JSON Lines beside it.
    const larger = await outcome(INLINE_ATTEMPTS / 2 + 1);
    writeOutcomeFiles(path.join(dir, 'larger.json'), larger);
    expect(readdirSync(dir).sort()).toEqual(['larger.attempts.jsonl', 'larger.json', 'small-trial.json']);
  });

  it(`keep a few attempts beside the Outcome when their lines pass ${INLINE_BYTES} bytes`, async () => {
    const original = await outcome(1);
    const [first, second] = original.attempts;
    if (!first || !second) throw new Error('two attempts expected');
    const large = { ...original, attempts: [{ ...first, reason: 'x'.repeat(INLINE_BYTES) }, second] };
    const dir = folder();
    writeOutcomeFiles(path.join(dir, 'large.json'), large);
    expect(readdirSync(dir).sort()).toEqual(['large.attempts.jsonl', 'large.json']);
    // The same from a file the trial streamed: moved into place, not read into the Outcome.
    const streamed = path.join(folder(), 'streamed.attempts.jsonl');
    writeFileSync(streamed, large.attempts.map((a) => `${JSON.stringify(a)}\n`).join(''));
    const other = folder();
    writeOutcomeFiles(path.join(other, 'streamed.json'), { ...large, attempts: [] }, streamed);
    expect(readdirSync(other).sort()).toEqual(['streamed.attempts.jsonl', 'streamed.json']);
    expect(readOutcomeFile(path.join(other, 'streamed.json')).attempts[0]?.reason).toHaveLength(INLINE_BYTES);
  });

  it('fail naming the file and line when the attempts are missing, corrupt, or sent elsewhere', async () => {
    const original = await outcome(INLINE_ATTEMPTS / 2 + 1);
    const dir = folder();
    const file = path.join(dir, 'broken.json');
    writeOutcomeFiles(file, original);
    const lines = path.join(dir, 'broken.attempts.jsonl');
    const text = readFileSync(lines, 'utf8').split('\n');
    writeFileSync(lines, [text[0], '{"truncated', ...text.slice(2)].join('\n'));
    expect(() => readOutcomeFile(file)).toThrow(RecordError);
    expect(() => readOutcomeFile(file)).toThrow(`${lines}:2: not valid JSON`);

    const elsewhere = path.join(dir, 'elsewhere.json');
    writeFileSync(elsewhere, JSON.stringify({ ...original, attempts: [], attemptsFile: '../secrets.jsonl' }));
    expect(() => readOutcomeFile(elsewhere)).toThrow(/attemptsFile must name a file beside the Outcome/);

    // Cut short at a line's end, or with two lines swapped: still JSON, no longer the attempts the Outcome ran.
    writeFileSync(lines, `${text.slice(0, 3).join('\n')}\n`);
    expect(() => readOutcomeFile(file)).toThrow(
      `${lines}: holds 3 attempts where its Outcome ran ${original.attempts.length}; the file is cut short or altered`,
    );
    writeFileSync(lines, [text[1], text[0], ...text.slice(2)].join('\n'));
    expect(() => readOutcomeFile(file)).toThrow(
      /broken\.attempts\.jsonl:1: is attempt .* where its Outcome ran .*; the file is altered/,
    );

    const gone = path.join(dir, 'gone.json');
    writeFileSync(gone, JSON.stringify({ ...original, attempts: [], attemptsFile: 'gone.attempts.jsonl' }));
    expect(() => readOutcomeFile(gone)).toThrow(/attempts file .*gone\.attempts\.jsonl is missing/);
  });
});

describe('a file written through a temporary file', () => {
  it('leaves nothing behind when writing it fails part-way (a full disk), and the file as it was', async () => {
    const dir = folder();
    const file = path.join(dir, 'summary.md');
    writeFileSync(file, 'the earlier run');
    const full = () => Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' });
    expect(() =>
      writeThroughTemporary(file, (temp) => {
        writeFileSync(temp, 'half of it');
        throw full();
      }),
    ).toThrow('ENOSPC');
    await expect(
      writeThroughTemporaryAsync(file, async (temp) => {
        writeFileSync(temp, 'half of it');
        throw full();
      }),
    ).rejects.toThrow('ENOSPC');
    expect(readdirSync(dir)).toEqual(['summary.md']);
    expect(readFileSync(file, 'utf8')).toBe('the earlier run');
  });
});
