import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, test } from 'vitest';
import { functionSubject, observeAttempt, type ToolCaller, type ToolDefinition } from '../../src/observe/index.js';
import { plan } from './observe-support.js';

const echo: ToolDefinition = {
  name: 'echo',
  description: 'Echo',
  effect: 'none',
  inputSchema: { type: 'object' },
  run: (args) => args,
};
const budget = (timeoutMs: number, maxRounds = 5) => ({
  caseOverrides: { stop: { timeoutMs, maxOutputBytes: 1000, maxRounds } },
});

describe('function subjects', () => {
  test('rounds run in order with history; the wall time is recorded, process figures are not claimed', async () => {
    const subject = functionSubject({
      name: 'counter',
      revision: 'c1',
      run: async (input, context) => {
        await sleep(20);
        return {
          reply: `${String(input)}#${context.round} after ${context.history.length}`,
          claims: [{ action: 'completed', target: 'count', text: 'counted' }],
        };
      },
    });
    const observed = await observeAttempt(
      plan(subject, 'a', {
        caseOverrides: { followUps: ['b', 'c'], stop: { timeoutMs: 5000, maxOutputBytes: 1000, maxRounds: 2 } },
      }),
    );
    expect(observed.status).toBe('completed');
    expect(observed.observation?.rounds.map((r) => r.reply)).toEqual(['a#1 after 0', 'b#2 after 1']);
    expect(observed.observation?.rounds[1]?.claims[0]).toMatchObject({ source: 'structured', round: 2 });
    expect(observed.observation?.resources.wallMs).toBeGreaterThanOrEqual(40);
    expect(observed.observation?.resources).toMatchObject({ cpuMs: null, peakRssBytes: null });
    expect(observed.observation?.exit).toBeNull();
    expect(observed.observation?.observers).toEqual([{ part: 'resources', observer: 'clock', grade: 'observation' }]);
  });

  test('a throw is a subject_error with what was observed before it', async () => {
    const subject = functionSubject({
      name: 'thrower',
      revision: '1',
      run: async (_input, context) => {
        if (context.round === 2) throw new Error('second round broke');
        await context.tools.call('echo', { said: 'hi' });
        return 'first';
      },
    });
    const observed = await observeAttempt(
      plan(subject, 'go', { tools: [echo], caseOverrides: { followUps: ['again'] } }),
    );
    expect(observed.status).toBe('subject_error');
    expect(observed.error).toEqual({ where: 'subject thrower', message: 'second round broke' });
    expect(observed.observation?.rounds).toHaveLength(1);
    expect(observed.observation?.toolRequests).toHaveLength(1);
  });

  test('a subject that honours the abort signal ends at the budget as a subject_error', async () => {
    const subject = functionSubject({
      name: 'patient',
      revision: '1',
      run: async (_input, context) => {
        await sleep(60_000, undefined, { signal: context.signal });
        return 'never';
      },
    });
    const started = Date.now();
    const observed = await observeAttempt(plan(subject, 'go', budget(150)));
    expect(Date.now() - started).toBeLessThan(1500);
    expect(observed.status).toBe('subject_error');
    expect(observed.error?.message).toMatch(/exceeded the case's budget of 150 ms/);
  });

  test('a subject that ignores the signal is abandoned after the grace period; its later tool calls are refused', async () => {
    let tools: ToolCaller | null = null;
    const subject = functionSubject({
      name: 'stubborn',
      revision: '1',
      run: async (_input, context) => {
        tools = context.tools;
        await sleep(600);
        return 'late';
      },
    });
    const observed = await observeAttempt(plan(subject, 'go', { ...budget(100), tools: [echo], abortGraceMs: 100 }));
    expect(observed.status).toBe('subject_error');
    expect(observed.error?.message).toMatch(/did not stop within 100 ms/);
    await expect(tools!.call('echo', {})).rejects.toThrow(/the attempt is over/);
    expect(observed.observation?.toolRequests).toEqual([]);
  });

  test('a subject that makes more tool requests than riddle records: its error, the first ones kept, the rest refused', async () => {
    let refused = 0;
    const subject = functionSubject({
      name: 'flooder',
      revision: '1',
      run: async (_input, context) => {
        for (let i = 0; i < 50; i += 1) {
          try {
            await context.tools.call('echo', { i });
          } catch {
            refused += 1;
          }
        }
        return 'flooded';
      },
    });
    const observed = await observeAttempt(
      plan(subject, 'go', { tools: [echo], toolRequestBounds: { count: 20, jsonChars: 1_000_000 } }),
    );
    expect(refused).toBe(30);
    expect(observed.status).toBe('subject_error');
    expect(observed.error).toEqual({
      where: 'tools',
      message:
        'the subject made more tool requests than riddle records: it made more than 20 tool requests, the most riddle records; the first 20 are kept, and the 30 after them were refused without being recorded',
    });
    expect(observed.observation?.rounds[0]?.reply).toBe('flooded');
    expect(observed.observation?.toolRequests.map((r) => r.arguments)).toEqual(
      Array.from({ length: 20 }, (_, i) => ({ i })),
    );
  });
});
