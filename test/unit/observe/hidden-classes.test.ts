import v8 from 'node:v8';
import { afterEach, describe, expect, it } from 'vitest';
import { createEvidenceRecorder } from '../../../src/evaluate/evidence.js';
import { systemClock } from '../../../src/model/index.js';
import { AttemptAbort, withAttemptSignal } from '../../../src/observe/attempt-abort.js';
import { observeAttempt } from '../../../src/observe/attempt.js';
import { functionSubject } from '../../../src/observe/function-subject.js';
import type { AttemptContext } from '../../../src/observe/subject.js';
import { createToolGateway } from '../../../src/observe/tool-gateway.js';
import { aCase } from '../builders.js';
import { hiddenClassCount } from '../../support/hidden-class.js';

// What every attempt makes must share V8's hidden classes with the previous attempt's: an object with a hidden class
// of its own (or a property dictionary) is made in, or drags what it holds into, the old generation, and a trial of
// 100,000 attempts then grows its heap by kilobytes per attempt until a full collection. V8's own test natives say
// whether two objects share a hidden class.
v8.setFlagsFromString('--allow-natives-syntax');
const sameHiddenClass = new Function('a', 'b', 'return %HaveSameMap(a, b)') as (a: object, b: object) => boolean;
const fastProperties = new Function('a', 'return %HasFastProperties(a)') as (a: object) => boolean;

const RealAbortController = globalThis.AbortController;
afterEach(() => {
  globalThis.AbortController = RealAbortController;
});

/** Count the AbortControllers made while `run` runs. */
async function controllersMadeBy(run: () => Promise<unknown>): Promise<number> {
  let made = 0;
  globalThis.AbortController = class extends RealAbortController {
    constructor() {
      super();
      made += 1;
    }
  };
  await run();
  return made;
}

const observeWith = (run: (input: unknown, context: AttemptContext) => unknown, timeoutMs = 1000) =>
  observeAttempt({
    arm: 'case',
    attempt: 0,
    seed: 1,
    case: aCase({ stop: { timeoutMs, maxOutputBytes: 1024, maxRounds: 1 } }),
    subject: functionSubject({ name: 'probe', revision: 'probe@1', run: run as never }),
    tools: [],
    clock: systemClock,
  });

describe('what each attempt makes shares hidden classes', () => {
  it('contexts with the attempt signal: one hidden class, fast properties, and a spread copy keeps the signal', () => {
    const first = withAttemptSignal({ workspace: null, round: 1 }, new AttemptAbort());
    const second = withAttemptSignal({ workspace: '/tmp/ws', round: 2 }, new AttemptAbort());
    expect(sameHiddenClass(first, second)).toBe(true);
    expect(fastProperties(first)).toBe(true);
    // An object literal with a getter of its own, as the contexts were made before, is what this guards against.
    const literal = (round: number) => ({
      round,
      get signal() {
        return new RealAbortController().signal;
      },
    });
    expect(fastProperties(literal(1))).toBe(false);
    const copy = { ...first };
    expect(Object.keys(copy)).toEqual(['workspace', 'round', 'signal']);
    expect(copy.signal).toBeInstanceOf(AbortSignal);
    expect(copy.signal).toBe(first.signal);
  });

  it('tool gateways: one hidden class with fast properties, past their bounds too', async () => {
    // A gateway with a getter of its own (its `overflow`) had a property dictionary: one trial of 100,000 attempts of a
    // function subject peaked 45–55 MB higher in its worker (bench/scale.mjs).
    const gateway = () =>
      createToolGateway({
        tools: [],
        maxEffect: 'read',
        context: { workspace: null, signal: new RealAbortController().signal },
        elapsedMs: () => 0,
        bounds: { count: 1, jsonChars: 1024 },
      });
    const first = gateway();
    const second = gateway();
    expect(sameHiddenClass(first, second)).toBe(true);
    expect(fastProperties(first)).toBe(true);
    await expect(second.call('missing', {})).rejects.toThrow('no tool named "missing" is offered');
    await expect(second.call('missing', {})).rejects.toThrow('more than 1 tool requests');
    expect(second.overflow).toEqual({ reason: expect.stringContaining('more than 1 tool requests'), refused: 1 });
    expect(fastProperties(second)).toBe(true);
  });

  it('tool requests, admitted or denied: one hidden class', async () => {
    const gateway = createToolGateway({
      tools: [
        { name: 'read', description: 'reads', inputSchema: { type: 'object' }, effect: 'read', run: () => 'text' },
        {
          name: 'wipe',
          description: 'wipes',
          inputSchema: { type: 'object' },
          effect: 'irreversible',
          run: () => 'gone',
        },
      ],
      maxEffect: 'read',
      context: { workspace: null, signal: new RealAbortController().signal },
      elapsedMs: () => 0,
    });
    for (let i = 0; i < 12; i += 1) {
      await gateway.call('read', { i });
      await expect(gateway.call('wipe', { i })).rejects.toThrow('exceeds');
      await expect(gateway.call('missing', { i })).rejects.toThrow('no tool named');
      gateway.deny('read', { i }, 'denied by the test');
    }
    expect(gateway.requests).toHaveLength(48);
    expect(hiddenClassCount(gateway.requests)).toBeLessThanOrEqual(2);
  });

  it('evidence recorders: one hidden class with fast properties', () => {
    const first = createEvidenceRecorder();
    const second = createEvidenceRecorder();
    second.record({ kind: 'reply', target: '*', detail: 'read reply', grade: 'text' });
    second.retain({ model: 'm', prompt: 'p', reply: 'r' });
    expect(sameHiddenClass(first, second)).toBe(true);
    expect(fastProperties(second)).toBe(true);
    expect(second.refs).toHaveLength(1);
    expect(second.exchange).toEqual({ model: 'm', prompt: 'p', reply: 'r' });
  });

  it('an attempt whose subject never reads its signal makes no AbortSignal; one that reads it gets one that aborts', async () => {
    // Node 20 gives every AbortSignal hidden classes of its own.
    expect(sameHiddenClass(new RealAbortController().signal, new RealAbortController().signal)).toBe(false);
    expect(await controllersMadeBy(() => observeWith((input) => `Sure: ${String(input)}`))).toBe(0);
    let seen: AbortSignal | null = null;
    const made = await controllersMadeBy(async () => {
      const observed = await observeWith(
        (_input, { signal }) =>
          new Promise((resolve) => {
            seen = signal;
            signal.addEventListener('abort', () => resolve('stopped'));
          }),
        50,
      );
      expect(observed.observation?.rounds[0]?.reply).toBe('stopped');
    });
    expect(made).toBe(1);
    expect((seen as AbortSignal | null)?.aborted).toBe(true);
  });
});
