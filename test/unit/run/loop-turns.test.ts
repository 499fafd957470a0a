import { setImmediate as nextCheckPhase, setTimeout as sleep } from 'node:timers/promises';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { LoopTurns } from '../../../src/run/loop-turns.js';

describe('the event loop’s turns during attempts', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('give a chain of attempts that never waits a turn, in which a macrotask queued before it runs', async () => {
    const turns = new LoopTurns(0);
    let ranMacrotask = false;
    setImmediate(() => {
      ranMacrotask = true;
    });
    const turn = turns.due();
    expect(turn).toBeInstanceOf(Promise);
    expect(ranMacrotask).toBe(false);
    await turn;
    expect(ranMacrotask).toBe(true);
  });

  it('ask for no turn of a lane when the loop has turned of its own accord (a subject awaited a timer)', async () => {
    const turns = new LoopTurns(0);
    await sleep(1);
    expect(turns.due()).toBeNull();
    // Nothing has turned the loop since: the next lane asking waits for a turn.
    const turn = turns.due();
    expect(turn).toBeInstanceOf(Promise);
    await turn;
    await nextCheckPhase();
    expect(turns.due()).toBeNull();
  });

  it('ask for no turn before the stretch has passed', () => {
    const turns = new LoopTurns(60_000);
    expect(turns.due()).toBeNull();
    expect(turns.due()).toBeNull();
  });

  it('turn with Node’s own timers while a test fakes the global ones', async () => {
    vi.useFakeTimers({ toFake: ['setImmediate', 'setTimeout'] });
    const turns = new LoopTurns(0);
    await turns.due();
    await nextCheckPhase();
    expect(turns.due()).toBeNull();
  });

  it('mark turns in every trial of a thousand without a pending turn keeping the process alive', async () => {
    // The marker is unreferenced: a process whose last trial ended exits without waiting for it.
    const handles = process.getActiveResourcesInfo().filter((name) => name === 'Immediate').length;
    for (let i = 0; i < 1000; i += 1) new LoopTurns(10);
    expect(process.getActiveResourcesInfo().filter((name) => name === 'Immediate').length).toBe(handles);
    await nextCheckPhase();
  });
});
