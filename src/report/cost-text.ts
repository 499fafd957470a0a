import type { Cost, Outcome } from '../model/index.js';
import { escapeHtml } from './safe-text.js';

/** USD with enough digits to tell small model costs apart (`$0.0000266`), or `$—` when unknown. */
export function usdText(usd: number | null): string {
  if (usd === null) return '$—';
  return `$${usd >= 1 ? usd.toFixed(2) : Number(usd.toPrecision(3)).toString()}`;
}

/** `$0.0000266 · 81 in / 24 out tokens`; null when nothing was spent or counted. */
export function costText(cost: Cost): string | null {
  if (cost.usd === null && cost.inputTokens === 0 && cost.outputTokens === 0) return null;
  return `${usdText(cost.usd)} · ${cost.inputTokens} in / ${cost.outputTokens} out tokens`;
}

/** What a trial spent and how its provider traffic went, as labelled one-line texts (label, text). */
export function spendingLines(outcome: Outcome): { label: string; text: string }[] {
  const lines: { label: string; text: string }[] = [];
  const total = costText(outcome.cost);
  if (total !== null) {
    const perArm = outcome.cost.arms.length > 1 ? outcome.cost.arms.map((a) => `${a.arm} ${usdText(a.usd)}`) : [];
    lines.push({ label: 'cost', text: perArm.length > 0 ? `${total} (${perArm.join(', ')})` : total });
  }
  const { budget, providers } = outcome.execution;
  if (budget) {
    const limits = [
      budget.declared.usd !== null ? `${usdText(budget.spent.usd)} of ${usdText(budget.declared.usd)}` : '',
      budget.declared.tokens !== null ? `${budget.spent.tokens} of ${budget.declared.tokens} tokens` : '',
      budget.declared.wallMs !== null ? `${budget.spent.wallMs} of ${budget.declared.wallMs} ms` : '',
    ].filter(Boolean);
    lines.push({
      label: 'budget',
      text: budget.exhausted
        ? `${budget.exhausted}; ${budget.blockedAttempts} attempt${budget.blockedAttempts === 1 ? '' : 's'} blocked, verdicts on what ran`
        : `${limits.join(' · ')} spent`,
    });
  }
  if (providers) {
    const exchanges = providers.attempts.reduce((n, a) => n + a.exchanges, 0);
    const replayed = providers.attempts.reduce((n, a) => n + a.replayed, 0);
    const retries = providers.attempts.flatMap((a) => a.retries);
    const statuses = [...new Set(retries.map((r) => r.status))].sort((a, b) => a - b);
    const failed = providers.attempts.filter((a) => a.failure !== null);
    const parts = [
      providers.mode === 'replay'
        ? `${replayed}/${exchanges} requests replayed`
        : `${exchanges} requests ${providers.mode === 'record' ? 'recorded' : 'sent'}`,
      retries.length > 0 ? `${retries.length} retried by the harness (${statuses.join(', ')})` : '',
      failed.length > 0
        ? `${failed.length} attempt${failed.length === 1 ? '' : 's'} failed by the harness: ${failed[0]?.failure ?? ''}`
        : '',
    ].filter(Boolean);
    lines.push({ label: 'providers', text: `${providers.mode} · ${parts.join(' · ')}` });
  }
  return lines;
}

/** A small HTML section of a trial's spending: the labelled lines, then cost per arm and per attempt. */
export function costSectionHtml(outcome: Outcome): string {
  const lines = spendingLines(outcome);
  if (lines.length === 0) return '';
  const rows = outcome.cost.attempts
    .filter((a) => a.usd !== null || a.inputTokens > 0 || a.outputTokens > 0)
    .map(
      (a) =>
        `<tr><td>${escapeHtml(a.arm)}#${a.index}</td><td>${escapeHtml(usdText(a.usd))}</td><td>${a.inputTokens}</td><td>${a.outputTokens}</td></tr>`,
    )
    .join('');
  const arms = outcome.cost.arms
    .map(
      (a) =>
        `<tr><th>${escapeHtml(a.arm)}</th><th>${escapeHtml(usdText(a.usd))}</th><th>${a.inputTokens}</th><th>${a.outputTokens}</th></tr>`,
    )
    .join('');
  return `<h4>Cost</h4>
${lines.map((l) => `<p class="cost">${escapeHtml(l.label)}: ${escapeHtml(l.text)}</p>`).join('\n')}
${rows ? `<table class="cost"><tr><th>attempt</th><th>USD</th><th>input tokens</th><th>output tokens</th></tr>${arms}${rows}</table>` : ''}`;
}

/** `A $0.00002 · 81/24 tokens → B $0.0001 · 400/96 tokens` for `riddle diff`; null when neither side spent. */
export function costChangeText(a: Cost | undefined, b: Cost | undefined): string | null {
  const side = (c: Cost | undefined) => (c ? (costText(c) ?? 'nothing') : '—');
  if ((!a || costText(a) === null) && (!b || costText(b) === null)) return null;
  return `A ${side(a)} → B ${side(b)}`;
}
