import { describe, expect, test } from 'vitest';
import { replaySubject } from '../../../src/observe/replay-subject.js';
import type { AttemptContext } from '../../../src/observe/subject.js';
import { loadXSTest } from '../../../example-project/xstest/dataset.js';
import { xstestSubject } from '../../../example-project/xstest/suite.js';

function context(arm: string, round = 1, attempt = 0): AttemptContext {
  return {
    arm,
    attempt,
    round,
    seed: 1,
    workspace: null,
    signal: new AbortController().signal,
    stop: { timeoutMs: 1000, maxOutputBytes: 1024, maxRounds: 1 },
    effectClass: 'read',
    history: [],
    tools: { call: async () => null },
    mcp: null,
    recordReceipt: () => undefined,
  };
}

describe('replaySubject', () => {
  test('answers each case with its recording, the same on every attempt', async () => {
    const subject = replaySubject({ name: 'rec', revision: 'r1', responses: { a: 'first', b: { text: 'second' } } });
    expect(await subject.respond('ignored', context('a'))).toEqual({ reply: 'first' });
    expect(await subject.respond('ignored', context('b', 1, 3))).toEqual({ reply: { text: 'second' } });
    expect(await subject.identify()).toEqual({
      kind: 'replay',
      name: 'rec',
      revision: 'r1',
      revisionSource: 'declared',
    });
  });

  test('a case without a recording, or a later round, is a subject error (it throws)', async () => {
    const subject = replaySubject({ name: 'rec', revision: 'r1', responses: new Map([['a', 'x']]) });
    await expect(subject.respond('q', context('zz'))).rejects.toThrow('replay rec: no recorded response for case "zz"');
    await expect(subject.respond('q', context('a', 2))).rejects.toThrow(/only round 1 is recorded/);
  });

  test('without a declared revision it binds to the content of its recordings, whatever their order', async () => {
    const one = await replaySubject({
      name: 'rec',
      responses: new Map([
        ['a', 'x'],
        ['b', 'y'],
      ]),
    }).identify();
    const same = await replaySubject({ name: 'rec', responses: { b: 'y', a: 'x' } }).identify();
    const changed = await replaySubject({ name: 'rec', responses: { a: 'x', b: 'z' } }).identify();
    expect(one.revisionSource).toBe('content');
    expect(same.revision).toBe(one.revision);
    expect(changed.revision).not.toBe(one.revision);
  });

  test('the XSTest subject replays a model’s completion by case id', async () => {
    const data = loadXSTest();
    const subject = xstestSubject(data, 'llama2orig');
    expect(subject.kind).toBe('replay');
    expect((await subject.respond('any input', context('195'))).reply).toBe(
      data.completions.llama2orig.get('195')?.completion,
    );
  });
});
