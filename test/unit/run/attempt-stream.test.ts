import { closeSync, existsSync, readFileSync } from 'node:fs';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { expect as vitestExpect } from 'vitest';
import { canonicalJson, type AttemptRecord, type Outcome, type Sha256List } from '../../../src/model/index.js';
import { attemptDigest } from '../../../src/run/outcome-id.js';
import { AttemptStream, resolveTrial, runTrial, type TrialDeclaration } from '../../../src/run/index.js';
import { lines, streamFile } from './stream-files.js';
import { anEnvironment, attempt, result } from '../builders.js';

const declaration = (subject: TrialDeclaration['subject'], n: number, concurrency = 1): TrialDeclaration => ({
  subject,
  revision: 'stream@1',
  rubric: { criteria: { answers: { description: 'answers', needs: 'text' } } },
  checks: { answers: (o) => void vitestExpect(String(o.reply)).toMatch(/^yes/) },
  case: { input: 'a', expect: ['answers'] },
  repeat: { n, stop: 'fixed', concurrency },
});

async function run(declared: TrialDeclaration, stream: AttemptStream | null): Promise<Outcome> {
  const resolved = resolveTrial({ name: 'stream trial', file: 'stream.test.ts', path: [] }, declared);
  return runTrial(
    { ...resolved, environment: anEnvironment(), unavailable: [], fixtures: {} },
    { clock: { now: () => 0 }, expect: vitestExpect, attempts: stream },
  );
}

describe('attempts written as they finish', () => {
  it('are in the file while the trial still runs: after a turn of the event loop, each attempt finds every earlier one there', async () => {
    const file = streamFile();
    const seen: number[] = [];
    const subject = async () => {
      await new Promise((resolve) => setImmediate(resolve));
      seen.push(existsSync(file) ? lines(file).length : 0);
      return 'yes';
    };
    const outcome = await run(declaration(subject, 5), new AttemptStream(file));
    expect(seen).toEqual([0, 1, 2, 3, 4]);
    // The Outcome names the file and holds none of the attempts.
    expect(outcome.attempts).toEqual([]);
    expect(outcome.attemptsFile).toBe(file);
    expect(lines(file).map((a) => [a.sequence, a.verdict])).toEqual([0, 1, 2, 3, 4].map((i) => [i, 'PASS']));
  });

  it('decide, total and identify the trial exactly as attempts held in memory do', async () => {
    let calls = 0;
    const subject = () => (++calls % 3 === 0 ? 'no' : 'yes');
    const held = await run(declaration(subject, 12), null);
    calls = 0;
    const file = streamFile();
    const streamed = await run(declaration(subject, 12), new AttemptStream(file));
    expect(streamed.id).toBe(held.id);
    expect({ ...streamed, attemptsFile: null }).toEqual({ ...held, attempts: [] });
    expect(lines(file)).toEqual(held.attempts.map((a) => JSON.parse(JSON.stringify(a))));
  });

  it('are filed in the order run even when they finish out of order', async () => {
    const file = streamFile();
    let calls = 0;
    // The first attempt finishes last: three others start and finish while it waits.
    const subject = async () => {
      if (calls++ === 0) await new Promise((resolve) => setTimeout(resolve, 50));
      return 'yes';
    };
    const writtenOrder: number[] = [];
    const stream = new (class extends AttemptStream {
      override add(record: AttemptRecord): AttemptRecord {
        writtenOrder.push(record.sequence);
        return super.add(record);
      }
    })(file);
    await run(declaration(subject, 6, 3), stream);
    expect(writtenOrder[0]).not.toBe(0);
    expect(lines(file).map((a) => a.sequence)).toEqual([0, 1, 2, 3, 4, 5]);
  });

  it('are not kept whole in memory while the trial runs: the written attempts are unreachable', async () => {
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as () => void;
    const written: WeakRef<AttemptRecord>[] = [];
    const stream = new (class extends AttemptStream {
      override add(record: AttemptRecord): AttemptRecord {
        written.push(new WeakRef(record));
        const lean = super.add(record);
        // What the trial keeps instead: no rounds (the replies) or file changes.
        vitestExpect(lean.observation?.rounds).toEqual([]);
        return lean;
      }
    })(streamFile());
    // At its 150th attempt the subject counts how many of the 149 written ones are still reachable.
    let calls = 0;
    let reachable: number | null = null;
    const subject = async () => {
      if (++calls === 150) {
        await new Promise((resolve) => setTimeout(resolve, 0));
        gc();
        reachable = written.filter((ref) => ref.deref() !== undefined).length;
      }
      return `yes ${'x'.repeat(1000)}`;
    };
    const outcome = await run(declaration(subject, 200), stream);
    expect(written).toHaveLength(200);
    expect(reachable).not.toBeNull();
    // At most the attempt just finished may linger in a local; never the ones before it.
    expect(reachable).toBeLessThanOrEqual(1);
    expect(outcome.arms[0]?.run).toBe(200);
  });

  it('leave a holdout whose attempts are concealed unwritten', async () => {
    const file = streamFile();
    const resolved = resolveTrial(
      { name: 'stream trial', file: 'stream.test.ts', path: [] },
      declaration(() => 'yes', 3),
    );
    const outcome = await runTrial(
      {
        ...resolved,
        environment: anEnvironment(),
        unavailable: [],
        fixtures: {},
        holdout: { access: 1, budget: 3, revealed: false },
      },
      { clock: { now: () => 0 }, expect: vitestExpect, attempts: new AttemptStream(file) },
    );
    expect(existsSync(file)).toBe(false);
    expect(outcome.attemptsFile).toBeNull();
  });
});

const digestTexts = (list: Sha256List) => Array.from({ length: list.length }, (_, i) => list.at(i));

describe('AttemptStream.finish', () => {
  it('orders the lines by sequence and applies late amendments, with the digests of what was filed', () => {
    const file = streamFile();
    const stream = new AttemptStream(file);
    const records = [2, 0, 1].map((i) => ({ ...attempt('case', i, 'PASS'), sequence: i }));
    for (const record of records) stream.add(record);
    const late = (record: AttemptRecord): AttemptRecord => ({
      ...record,
      status: 'subject_error',
      verdict: 'UNKNOWN',
      error: { where: 'subject (outside the awaited call)', message: 'late' },
    });
    const finished = stream.finish(new Map([['case#1', late]]));
    const filed = lines(file);
    expect(filed.map((a) => [a.sequence, a.status])).toEqual([
      [0, 'completed'],
      [1, 'subject_error'],
      [2, 'completed'],
    ]);
    expect(finished && { ...finished, digests: digestTexts(finished.digests) }).toEqual({
      file,
      count: 3,
      digests: filed.map(attemptDigest),
    });
    expect(() => stream.add(records[0] as AttemptRecord)).toThrow(/is finished/);
  });

  it('keeps the place and digest of thousands of lines of several arms, out of order, amended by arm and index', () => {
    const file = streamFile();
    const stream = new AttemptStream(file);
    // 2,600 attempts of two arms, written in blocks finishing in reverse: more lines than the first allocation holds.
    const records: AttemptRecord[] = [];
    for (let block = 12; block >= 0; block -= 1)
      for (let i = 0; i < 200; i += 1) {
        const sequence = block * 200 + i;
        records.push({ ...attempt(sequence % 2 === 0 ? 'a' : 'b', sequence >> 1, 'PASS'), sequence });
      }
    for (const record of records) stream.add(record);
    expect(stream.written).toBe(2600);
    const late = (record: AttemptRecord): AttemptRecord => ({ ...record, reason: 'amended' });
    const finished = stream.finish(new Map([['b#700', late]]));
    const filed = lines(file);
    expect(filed.map((a) => a.sequence)).toEqual(Array.from({ length: 2600 }, (_, i) => i));
    expect(filed.filter((a) => a.reason === 'amended').map((a) => [a.arm, a.index, a.sequence])).toEqual([
      ['b', 700, 1401],
    ]);
    expect(finished && digestTexts(finished.digests)).toEqual(filed.map(attemptDigest));
  });

  it('keeps the place of lines whose text takes more bytes than characters, when put in order', () => {
    const file = streamFile();
    const stream = new AttemptStream(file);
    // Two-, three- and four-byte characters: a line's place counted in UTF-16 units would cut its neighbours.
    const reasons = ['é', '€ and €', '😀', 'plain'];
    const records = [3, 1, 0, 2].map((i) => ({
      ...attempt('case', i, 'PASS'),
      sequence: i,
      reason: `${reasons[i]} `.repeat(i + 1),
    }));
    for (const record of records) stream.add(record);
    stream.finish();
    const filed = lines(file);
    expect(filed.map((a) => [a.sequence, a.reason])).toEqual(
      [0, 1, 2, 3].map((i) => [i, `${reasons[i]} `.repeat(i + 1)]),
    );
    expect(readFileSync(file, 'utf8')).toBe(
      `${[0, 1, 2, 3].map((i) => canonicalJson(records.find((r) => r.sequence === i))).join('\n')}\n`,
    );
  });

  it('gathers the lines of attempts that finish without a turn of the event loop and writes them at the next', async () => {
    const file = streamFile();
    const stream = new AttemptStream(file);
    for (let i = 0; i < 3; i += 1) stream.add({ ...attempt('case', i, 'PASS'), sequence: i });
    // Created with the first attempt, written at the turn: a write per line cost a tenth of an attempt.
    expect(readFileSync(file, 'utf8')).toBe('');
    await new Promise((resolve) => setImmediate(resolve));
    expect(lines(file).map((a) => a.sequence)).toEqual([0, 1, 2]);
    // More than the 64 KiB gathered: written as they fill, in order, nothing lost or doubled.
    const long = 'x'.repeat(30_000);
    for (let i = 3; i < 12; i += 1) stream.add({ ...attempt('case', i, 'PASS'), sequence: i, reason: long });
    expect(lines(file).length).toBeGreaterThan(3);
    // A line longer than what is gathered at once is written on its own.
    stream.add({ ...attempt('case', 12, 'PASS'), sequence: 12, reason: 'é'.repeat(40_000) });
    stream.finish();
    expect(lines(file).map((a) => [a.sequence, a.reason.length])).toEqual([
      ...[0, 1, 2].map((i) => [i, attempt('case', i, 'PASS').reason.length]),
      ...Array.from({ length: 9 }, (_, k) => [k + 3, 30_000]),
      [12, 40_000],
    ]);
  });

  it('throws a write that failed at the turn of the event loop to the trial, at its next attempt or its end', async () => {
    const file = streamFile();
    const stream = new AttemptStream(file);
    stream.add({ ...attempt('case', 0, 'PASS'), sequence: 0 });
    // The file's descriptor closed behind the stream's back: its gathered line cannot be written.
    closeSync((stream as unknown as { fd: number }).fd);
    await new Promise((resolve) => setImmediate(resolve));
    expect(() => stream.add({ ...attempt('case', 1, 'PASS'), sequence: 1 })).toThrow(/EBADF/);
    // And by finish when no attempt comes after the failed write.
    const last = new AttemptStream(streamFile());
    last.add({ ...attempt('case', 0, 'PASS'), sequence: 0 });
    closeSync((last as unknown as { fd: number }).fd);
    await new Promise((resolve) => setImmediate(resolve));
    expect(() => last.finish()).toThrow(/EBADF/);
  });

  it('writes nothing for a trial that ran no attempt, and never appends to a file already there', () => {
    const file = streamFile();
    expect(new AttemptStream(file).finish()).toBeNull();
    expect(existsSync(file)).toBe(false);
    const first = new AttemptStream(file);
    first.add(attempt('case', 0, 'PASS'));
    first.finish();
    expect(() => new AttemptStream(file).add(attempt('case', 0, 'PASS'))).toThrow(/EEXIST/);
  });
});

describe('a trial whose attempts file cannot be written', () => {
  it("fails, and stops listening to the process's uncaught errors", async () => {
    const file = streamFile();
    const first = new AttemptStream(file);
    first.add(attempt('case', 0, 'PASS'));
    first.finish();
    const listening = () => [process.listenerCount('uncaughtException'), process.listenerCount('unhandledRejection')];
    const before = listening();
    await expect(
      run(
        declaration(() => 'yes', 3),
        new AttemptStream(file),
      ),
    ).rejects.toThrow(/EEXIST/);
    // A listener left behind would take every later uncaught error of the process as the failed trial's.
    expect(listening()).toEqual(before);
  });
});

describe('an attempt line whose members are shared with earlier attempts', () => {
  it('is written as canonicalJson writes the record, with the digest attemptDigest gives, whatever is shared', () => {
    const file = streamFile();
    const stream = new AttemptStream(file);
    // Clock readings inside shared members (cut out of the digest at their place), findings with and without a model
    // judge's exchange (the lean copy drops it, so those are not shared with the record), errors and reasons that
    // repeat and ones that do not.
    const criterion = (i: number) => ({ ...result('answers', i % 5 === 0 ? 'unmet' : 'met'), checkedMs: i % 3 });
    const finding = (i: number, judged: boolean) => ({
      criterion: 'answers',
      evaluator: 'judge',
      judge: judged ? { model: 'm', prompt: 'p', reply: `reply ${i % 2}` } : null,
      startedAt: `t${i % 2}`,
      note: 'n',
    });
    const records: AttemptRecord[] = Array.from({ length: 300 }, (_, i) => ({
      ...attempt(i % 2 === 0 ? 'case' : 'control', i >> 1, i % 5 === 0 ? 'FAIL' : 'PASS'),
      sequence: i,
      durationMs: i,
      startedAt: `2026-12-01T00:00:${String(i % 60).padStart(2, '0')}.000Z`,
      why: { kind: 'passed', declared: 1 + (i % 2), tookMs: i % 4 },
      criteria: [criterion(i), criterion(i + 1)],
      findings: [finding(i, i % 7 === 0)] as unknown as AttemptRecord['findings'],
      error: i % 11 === 0 ? { where: 'subject', message: `failed ${i % 3}` } : null,
      reason: `reason ${i % 4}`,
    })) as AttemptRecord[];
    for (const record of records) stream.add(record);
    const finished = stream.finish();
    const written = readFileSync(file, 'utf8')
      .split('\n')
      .filter((line) => line !== '');
    expect(written).toEqual(records.map((record) => canonicalJson(record)));
    expect(finished && digestTexts(finished.digests)).toEqual(records.map(attemptDigest));
  });
});
