import { setImmediate } from 'node:timers';
import { setImmediate as turn } from 'node:timers/promises';

/**
 * The event loop's turns during a trial's attempts. Attempts that settle without waiting on anything (a synchronous
 * function subject) would run the whole trial as one chain of microtasks: no timer, signal or message from Vitest
 * (Ctrl-C) would be seen until it ended, and each attempt's handled rejection would stay queued until then. So a lane
 * gives the loop a turn once `everyMs` have passed since the last, unless the loop has turned meanwhile of its own
 * accord: a marker set at the loop's check phase (`setImmediate`) says so. A subject waiting on a timer or on I/O lets
 * the loop turn at every attempt; making one of its lanes wait for a turn besides held that lane behind every other
 * lane's attempts and judgments ready in the same turn (50 lanes of a 20 ms wait: 0.24–0.85 ms a cycle, measured).
 * Node's own timers, not the global ones a test's fake timers replace.
 */
export class LoopTurns {
  private last = performance.now();
  private turned = false;

  constructor(private readonly everyMs: number) {
    this.watch();
  }

  /**
   * Null when the loop has turned within `everyMs` (or since the last turn asked for): the lane goes on at once, with
   * no promise made. Else a turn to wait for.
   */
  due(): Promise<void> | null {
    const now = performance.now();
    if (now - this.last < this.everyMs) return null;
    if (this.turned) {
      this.last = now;
      this.watch();
      return null;
    }
    return turn().then(this.afterTurn);
  }

  private watch(): void {
    this.turned = false;
    // Unreferenced: the marker alone never keeps a process alive once its trial is done.
    setImmediate(this.markTurned).unref();
  }

  private readonly markTurned = (): void => {
    this.turned = true;
  };

  private readonly afterTurn = (): void => {
    this.last = performance.now();
    if (this.turned) this.watch();
  };
}
