import { setImmediate } from 'node:timers';

/**
 * The judgments of a trial whose lanes hand their attempts off once observed (run-trial): each is judged at a turn of
 * the event loop of its own, in the order handed off, and at most `room` are pending (waiting for their turn or under
 * way) at once.
 *
 * Between two turns Node runs whatever became ready meanwhile (a subject's timer or I/O, which starts a lane's next
 * attempt), so riddle's own judging and writing never hold up the subjects it observes: 50 lanes whose 20 ms waits
 * end in one millisecond all start their next attempts before any of the 50 finished ones is judged. The room keeps
 * judgments that take longer than attempts (an evaluator calling a model) from piling up: a lane waits for room
 * before its next attempt. Node's own `setImmediate`, not the global one a test's fake timers replace.
 */
export class JudgingTurns {
  private readonly waitingForTurn: (() => void)[] = [];
  private turnScheduled = false;
  /** Judgments admitted (under way or waiting for their turn), or handed off and waiting for room. */
  private pending = 0;
  private readonly waitingForRoom: (() => void)[] = [];
  private whenNonePending: (() => void) | null = null;
  private failure: { error: unknown } | null = null;

  constructor(private readonly room: number) {}

  /**
   * A judgment handed off: resolves once it has room (at once while fewer than `room` are pending). The lane that
   * handed it off waits for the same before its next attempt; `keep` must follow with the judgment.
   */
  admit(): Promise<void> {
    this.pending += 1;
    if (this.pending <= this.room) return Promise.resolve();
    return new Promise((resolve) => this.waitingForRoom.push(resolve));
  }

  /** Resolves at a later turn of the event loop, after every judgment asked for before it has had its turn. */
  turn(): Promise<void> {
    return new Promise((resolve) => {
      this.waitingForTurn.push(resolve);
      if (!this.turnScheduled) {
        this.turnScheduled = true;
        setImmediate(this.release);
      }
    });
  }

  /**
   * The admitted judgment, through to its record's counting: its end makes room for the next. Throws the first failure
   * of any judgment kept before, as `settled` does.
   */
  keep(judgment: Promise<void>): void {
    judgment.then(this.settle, (error: unknown) => {
      this.failure ??= { error };
      this.settle();
    });
    this.throwFailure();
  }

  /** Resolves once every judgment kept has settled; throws the first that failed. */
  async settled(): Promise<void> {
    if (this.pending > 0) await new Promise<void>((resolve) => (this.whenNonePending = resolve));
    this.throwFailure();
  }

  private throwFailure(): void {
    if (this.failure) throw this.failure.error;
  }

  private readonly release = (): void => {
    this.waitingForTurn.shift()?.();
    if (this.waitingForTurn.length > 0) setImmediate(this.release);
    else this.turnScheduled = false;
  };

  private readonly settle = (): void => {
    this.pending -= 1;
    this.waitingForRoom.shift()?.();
    if (this.pending === 0) this.whenNonePending?.();
  };
}
