import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Reporter, Vitest } from 'vitest/node';
import type { Budget } from '../model/index.js';
import { openRunLedger, type RunBudgetShare } from '../run/run-budget.js';
import type {} from './plugin.js';

/**
 * Keeps a run-wide budget in the main process: at the start of every run (each watch-mode rerun too) it opens a fresh
 * ledger and hands it to every worker through Vitest's provided context, which workers receive with each run.
 * Added by the riddle plugin as a reporter instance, so it works whichever reporters print the run.
 */
export class RunBudgetHost implements Reporter {
  private folder: string | null = null;

  constructor(
    private readonly vitest: Vitest,
    private readonly limits: Budget,
  ) {}

  onTestRunStart(): void {
    this.folder = mkdtempSync(path.join(os.tmpdir(), 'riddle-run-budget-'));
    const share: RunBudgetShare = {
      limits: this.limits,
      ledger: path.join(this.folder, 'ledger.jsonl'),
      startedAt: Date.now(),
    };
    openRunLedger(share);
    const provided = this.vitest.getProvidedContext().riddle ?? { passOn: null, runBudget: null };
    this.vitest.provide('riddle', { ...provided, runBudget: share });
  }

  async onTestRunEnd(): Promise<void> {
    const folder = this.folder;
    // Vitest calls every reporter's onTestRunEnd in one pass: the riddle reporter reads the ledger before its first
    // await, so it has read it before this continues.
    await new Promise((resolve) => setImmediate(resolve));
    if (folder !== null) rmSync(folder, { recursive: true, force: true });
  }
}
