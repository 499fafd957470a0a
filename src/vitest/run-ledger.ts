import { inject } from 'vitest';
import { RunLedger } from '../run/index.js';
import type {} from './plugin.js';

let ledger: RunLedger | null = null;

/** In a worker: the run's ledger when the run declares a budget, one reader per ledger so each check reads only news. */
export function runLedger(): RunLedger | null {
  const share = inject('riddle')?.runBudget ?? null;
  if (share === null) return null;
  if (ledger?.share.ledger !== share.ledger) ledger = new RunLedger(share);
  return ledger;
}
