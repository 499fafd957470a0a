import { costRow, receiptCostUsd, type AttemptRecord, type Outcome, type PriceTable } from '../model/index.js';
// The module itself, not the layer's index: the reporter's process loads this one.
import { leftUncovered } from '../evaluate/coverage.js';
import { exclusionOf } from '../aggregate/arm-verdict.js';

type CostRow = Outcome['cost']['attempts'][number];

/**
 * An Outcome on its way from the worker that built it to the reporter. When its attempts were written to a file as
 * they finished, that file already names every attempt in `sequence` order, so the lists of up to one entry per
 * attempt are left out: the order run (each line's `arm#index`), the cost rows (each made again from its line's
 * receipts at the trial's prices, as the worker made it), each criterion's uncovered attempts (read from each line's
 * criteria, as the coverage table was) and, under the Rubric's `exclude` policy, each arm's exclusions (its attempts
 * without a verdict, in index order). At 100,000 attempts the first two are 8.5 MB of the Outcome's 8.6 MB (the third
 * as much again when a criterion is never covered), and they crossed into the main process through Vitest's task
 * updates while the worker still held its own copy: the run's highest memory.
 */
export interface OutcomeInTransit {
  /**
   * The Outcome; `execution.order`, `cost.attempts` and each `coverage[].uncoveredAttempts` empty when `leftOut` is
   * set, and each `arms[].exclusions` when `leftOut.exclusions` is.
   */
  outcome: Outcome;
  /** What was left out, or null when the Outcome travels whole. */
  leftOut: {
    /** Attempts in the Outcome's attempts file: as many order entries and cost rows. */
    attempts: number;
    /** The price table the trial's cost was reckoned with (receipts without a cost of their own are priced by it). */
    prices: PriceTable;
    /** Whether each arm's exclusions (the Rubric's `exclude` policy) were left out too. */
    exclusions: boolean;
  } | null;
}

/**
 * The Outcome as it travels: its lists of one entry per attempt left out when its attempts file can give them back
 * exactly, which is when the order run and the cost rows name the same attempts in the same order (they always do for
 * a trial this riddle ran; anything else travels whole). `prices` must be the table its cost was reckoned with. Each
 * arm's exclusions are left out only when every arm lists all its attempts without a verdict, as the `exclude` policy
 * does.
 */
export function outcomeForTransit(outcome: Outcome, prices: PriceTable): OutcomeInTransit {
  const { order } = outcome.execution;
  const rows = outcome.cost.attempts;
  if (outcome.attemptsFile === null || order.length !== rows.length) return { outcome, leftOut: null };
  for (let at = 0; at < rows.length; at += 1) {
    const row = rows[at] as CostRow;
    if (order[at] !== `${row.arm}#${row.index}`) return { outcome, leftOut: null };
  }
  // Every attempt without a verdict is an exclusion under `exclude` (aggregate/arm-verdict): the count checks them.
  const exclusions =
    outcome.records.rubric.missingEvidence === 'exclude' &&
    outcome.arms.every((arm) => arm.exclusions.length === arm.verdicts.UNKNOWN);
  return {
    // Members replaced in place: the Outcome file is written in member order.
    outcome: {
      ...outcome,
      execution: { ...outcome.execution, order: [] },
      arms: exclusions ? outcome.arms.map((arm) => ({ ...arm, exclusions: [] })) : outcome.arms,
      cost: { ...outcome.cost, attempts: [] },
      coverage: outcome.coverage.map((row) => ({ ...row, uncoveredAttempts: [] })),
    },
    leftOut: { attempts: rows.length, prices, exclusions },
  };
}

/**
 * Puts an Outcome in transit back together from its attempts file, given each line's attempt in file order. It
 * checks the file against what the worker sent: as many attempts; receipts that cost, at the trial's prices and summed
 * in the same order, exactly the Outcome's total; as many attempts leaving each criterion uncovered as the coverage
 * table counted, and as many without a verdict in each arm as it counted.
 */
export class OutcomeFromTransit {
  private readonly order: string[] = [];
  private readonly rows: CostRow[] = [];
  /** The file's receipts totalled as the worker totalled the trial's (model/spending `costOf`, in `sequence` order). */
  private readonly spent: { usd: number | null; inputTokens: number; outputTokens: number } = {
    usd: null,
    inputTokens: 0,
    outputTokens: 0,
  };
  /** Per row of the coverage table, in its order: the attempts that left its criterion uncovered. */
  private readonly uncovered: Outcome['coverage'][number]['uncoveredAttempts'][];
  /** Per arm, when its exclusions were left out: the attempts without a verdict. */
  private readonly exclusions = new Map<string, Outcome['arms'][number]['exclusions']>();

  constructor(
    private readonly transit: OutcomeInTransit & { leftOut: NonNullable<OutcomeInTransit['leftOut']> },
    /** Where the attempts come from, for the messages. */
    private readonly file: string,
  ) {
    this.uncovered = transit.outcome.coverage.map(() => []);
  }

  /** The next line's attempt. */
  take(
    attempt: Pick<AttemptRecord, 'arm' | 'index' | 'criteria' | 'status' | 'verdict' | 'reason' | 'observation'>,
  ): void {
    const { coverage } = this.transit.outcome;
    for (let row = 0; row < coverage.length; row += 1)
      if (leftUncovered(attempt, (coverage[row] as Outcome['coverage'][number]).criterion))
        this.uncovered[row]?.push({ arm: attempt.arm, attempt: attempt.index });
    if (this.transit.leftOut.exclusions) {
      const exclusion = exclusionOf(attempt);
      if (exclusion !== null) {
        const listed = this.exclusions.get(attempt.arm);
        if (listed === undefined) this.exclusions.set(attempt.arm, [exclusion]);
        else listed.push(exclusion);
      }
    }
    this.order.push(`${attempt.arm}#${attempt.index}`);
    const { prices } = this.transit.leftOut;
    const receipts = attempt.observation?.receipts ?? [];
    this.rows.push(costRow(attempt, receipts, prices));
    for (let r = 0; r < receipts.length; r += 1) {
      const receipt = receipts[r] as (typeof receipts)[number];
      const usd = receiptCostUsd(receipt, prices);
      if (usd !== null) this.spent.usd = (this.spent.usd ?? 0) + usd;
      this.spent.inputTokens += receipt.inputTokens ?? 0;
      this.spent.outputTokens += receipt.outputTokens ?? 0;
    }
  }

  /** The whole Outcome, equal to the one the worker built. */
  finish(): Outcome {
    const { outcome, leftOut } = this.transit;
    if (this.order.length !== leftOut.attempts)
      throw new Error(
        `${this.file}: holds ${this.order.length} attempts where its Outcome ran ${leftOut.attempts}; the file may be truncated`,
      );
    const { cost } = outcome;
    if (
      this.spent.usd !== cost.usd ||
      this.spent.inputTokens !== cost.inputTokens ||
      this.spent.outputTokens !== cost.outputTokens
    )
      throw new Error(
        `${this.file}: its attempts' receipts come to ${describeCost(this.spent)} where its Outcome counted ${describeCost(cost)}`,
      );
    const coverage = outcome.coverage.map((row, i) => {
      const uncoveredAttempts = this.uncovered[i] ?? [];
      if (uncoveredAttempts.length !== row.uncovered)
        throw new Error(
          `${this.file}: ${uncoveredAttempts.length} attempts leave criterion ${row.criterion} uncovered where its Outcome counted ${row.uncovered}`,
        );
      return { ...row, uncoveredAttempts };
    });
    const arms = leftOut.exclusions
      ? outcome.arms.map((arm) => {
          // The arm's attempts in index order, as the arm was decided.
          const exclusions = (this.exclusions.get(arm.arm) ?? []).sort((a, b) => a.index - b.index);
          if (exclusions.length !== arm.verdicts.UNKNOWN)
            throw new Error(
              `${this.file}: ${exclusions.length} attempts of arm ${arm.arm} have no verdict where its Outcome counted ${arm.verdicts.UNKNOWN}`,
            );
          return { ...arm, exclusions };
        })
      : outcome.arms;
    return {
      ...outcome,
      execution: { ...outcome.execution, order: this.order },
      arms,
      cost: { ...outcome.cost, attempts: this.rows },
      coverage,
    };
  }
}

const describeCost = (cost: { usd: number | null; inputTokens: number; outputTokens: number }) =>
  `${cost.inputTokens} input and ${cost.outputTokens} output tokens, ${cost.usd === null ? 'no known cost' : `$${cost.usd}`}`;
