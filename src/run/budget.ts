import { costOf, type AttemptRecord, type Budget, type BudgetRecord, type PriceTable } from '../model/index.js';

const usd = (value: number) => `$${Number(value.toFixed(6))}`;

/**
 * Tracks what a trial's attempts spent against its budget. Spending is read from the attempts' receipts (their
 * own cost, else the declared price of their model), so a cost budget stops a trial at the same attempt on every
 * machine; wall time is read from the injected clock. An attempt already running finishes: only attempts that
 * would start once a limit is spent are blocked.
 */
export class BudgetMeter {
  private usd: number | null = null;
  private tokens = 0;
  private readonly blocked = new Map<string, number>();
  private reason: string | null = null;
  private readonly runs = new Map<string, number>();

  constructor(
    private readonly limits: Budget,
    private readonly prices: PriceTable,
    private readonly now: () => number,
    private readonly startedAt: number,
  ) {}

  /** Add a finished attempt's receipts. */
  spend(record: AttemptRecord): void {
    const cost = costOf(record.observation?.receipts ?? [], this.prices);
    if (cost.usd !== null) this.usd = (this.usd ?? 0) + cost.usd;
    this.tokens += cost.inputTokens + cost.outputTokens;
    this.runs.set(record.arm, (this.runs.get(record.arm) ?? 0) + 1);
  }

  /** Why no further attempt may start (the limit that is spent), or null while the budget lasts. */
  spent(): string | null {
    if (this.reason !== null) return this.reason;
    const { usd: maxUsd, tokens: maxTokens, wallMs } = this.limits;
    if (maxUsd !== null && this.usd !== null && this.usd >= maxUsd)
      this.reason = `cost budget spent: ${usd(this.usd)} of ${usd(maxUsd)}`;
    else if (maxTokens !== null && this.tokens >= maxTokens)
      this.reason = `token budget spent: ${this.tokens} of ${maxTokens} tokens`;
    else if (wallMs !== null && this.now() - this.startedAt >= wallMs)
      this.reason = `wall-time budget spent: ${this.now() - this.startedAt} ms of ${wallMs} ms`;
    return this.reason;
  }

  /** Count an attempt of an arm blocked because the budget was spent. */
  block(arm: string): void {
    this.blocked.set(arm, (this.blocked.get(arm) ?? 0) + 1);
  }

  /** The stopping records of the arms the budget stopped: after how many attempts, and why. */
  stops(): { arm: string; afterAttempts: number; decision: string; rule: string }[] {
    return [...this.blocked.keys()].map((arm) => ({
      arm,
      afterAttempts: this.runs.get(arm) ?? 0,
      decision: 'budget',
      rule: this.reason ?? 'budget',
    }));
  }

  record(): BudgetRecord {
    return {
      declared: this.limits,
      spent: { usd: this.usd, tokens: this.tokens, wallMs: this.now() - this.startedAt },
      exhausted: this.reason,
      blockedAttempts: [...this.blocked.values()].reduce((a, b) => a + b, 0),
    };
  }
}
