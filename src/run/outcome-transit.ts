import type { Outcome } from '../model/index.js';

type CostRow = Outcome['cost']['attempts'][number];

/**
 * An Outcome on its way from the worker that built it to the reporter. When its attempts were written to a file as
 * they finished, that file already names every attempt in `sequence` order, so two lists of one entry per attempt are
 * left out: the order run (each line's `arm#index`) and the cost rows of attempts that spent nothing (each a zero
 * row). At 100,000 attempts they are 8.5 MB of the Outcome's 8.6 MB, and they crossed into the main process through
 * Vitest's task updates while the worker still held its own copy: the run's highest memory.
 */
export interface OutcomeInTransit {
  /** The Outcome; `execution.order` and `cost.attempts` are empty when `leftOut` is set. */
  outcome: Outcome;
  /** What was left out, or null when the Outcome travels whole. */
  leftOut: {
    /** Attempts in the Outcome's attempts file: as many order entries and cost rows. */
    attempts: number;
    /** The cost rows of attempts that spent something, by position in `sequence` order. */
    spent: { at: number; row: CostRow }[];
  } | null;
}

const isZeroRow = (row: CostRow) => row.inputTokens === 0 && row.outputTokens === 0 && row.usd === null;

/**
 * The Outcome as it travels: the two lists left out when its attempts file can give them back exactly, which is when
 * the order run and the cost rows name the same attempts in the same order (they always do for a trial this riddle
 * ran; anything else travels whole).
 */
export function outcomeForTransit(outcome: Outcome): OutcomeInTransit {
  const { order } = outcome.execution;
  const rows = outcome.cost.attempts;
  if (outcome.attemptsFile === null || order.length !== rows.length) return { outcome, leftOut: null };
  const spent: { at: number; row: CostRow }[] = [];
  for (let at = 0; at < rows.length; at += 1) {
    const row = rows[at] as CostRow;
    if (order[at] !== `${row.arm}#${row.index}`) return { outcome, leftOut: null };
    if (!isZeroRow(row)) spent.push({ at, row });
  }
  return {
    // Members replaced in place: the Outcome file is written in member order.
    outcome: {
      ...outcome,
      execution: { ...outcome.execution, order: [] },
      cost: { ...outcome.cost, attempts: [] },
    },
    leftOut: { attempts: rows.length, spent },
  };
}

/**
 * Puts an Outcome in transit back together from its attempts file, given each line's attempt in file order. It
 * checks the file against what the worker sent: as many attempts, and each spent row's attempt at its place.
 */
export class OutcomeFromTransit {
  private readonly order: string[] = [];
  private readonly rows: CostRow[] = [];
  private spentAt = 0;

  constructor(
    private readonly transit: OutcomeInTransit & { leftOut: NonNullable<OutcomeInTransit['leftOut']> },
    /** Where the attempts come from, for the messages. */
    private readonly file: string,
  ) {}

  /** The next line's attempt. */
  take(attempt: { arm: string; index: number }): void {
    const at = this.order.length;
    const { spent } = this.transit.leftOut;
    this.order.push(`${attempt.arm}#${attempt.index}`);
    const next = spent[this.spentAt];
    if (next !== undefined && next.at === at) {
      if (next.row.arm !== attempt.arm || next.row.index !== attempt.index)
        throw new Error(
          `${this.file}: line ${at + 1} holds ${attempt.arm}#${attempt.index}, but its Outcome's cost row there is for ${next.row.arm}#${next.row.index}`,
        );
      this.rows.push(next.row);
      this.spentAt += 1;
      return;
    }
    // Members in canonical order, as the worker wrote the row it left out.
    this.rows.push({ arm: attempt.arm, index: attempt.index, inputTokens: 0, outputTokens: 0, usd: null });
  }

  /** The whole Outcome, equal to the one the worker built. */
  finish(): Outcome {
    const { outcome, leftOut } = this.transit;
    if (this.order.length !== leftOut.attempts)
      throw new Error(
        `${this.file}: holds ${this.order.length} attempts where its Outcome ran ${leftOut.attempts}; the file may be truncated`,
      );
    return {
      ...outcome,
      execution: { ...outcome.execution, order: this.order },
      cost: { ...outcome.cost, attempts: this.rows },
    };
  }
}
