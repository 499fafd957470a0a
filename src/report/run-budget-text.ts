import type { BudgetRecord } from '../model/index.js';
import { usdText } from './cost-text.js';
import { neutraliseText } from './safe-text.js';

const plural = (count: number, word: string) => `${count} ${word}${count === 1 ? '' : 's'}`;

/**
 * The run-wide budget in one sentence: what the whole run spent of each declared limit and, once it was spent, why
 * and how many attempts it blocked (their trials' verdicts rest on what ran).
 */
export function runBudgetText(budget: BudgetRecord): string {
  const { declared, spent } = budget;
  const limits = [
    declared.usd !== null ? `${usdText(spent.usd ?? 0)} of ${usdText(declared.usd)}` : '',
    declared.tokens !== null ? `${spent.tokens} of ${declared.tokens} tokens` : '',
    declared.wallMs !== null ? `${Math.round(spent.wallMs)} of ${declared.wallMs} ms` : '',
  ].filter(Boolean);
  const used = `spent ${limits.join(' · ')}`;
  if (budget.exhausted === null) return `run budget: ${used}`;
  return neutraliseText(
    `run budget SPENT: ${budget.exhausted}; ${plural(budget.blockedAttempts, 'attempt')} blocked, verdicts on what ran (${used})`,
  );
}
