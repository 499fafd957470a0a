/** The time source the run uses; injected so runs and tests can be replayed. */
export interface Clock {
  /** Milliseconds since the epoch. */
  now(): number;
}

/** Read once at load: a subject runs in this process and may replace `Date.now`, which must not move riddle's clock. */
const dateNow = Date.now;

export const systemClock: Clock = { now: () => dateNow() };
