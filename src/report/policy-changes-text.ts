import { canonicalJson, type JsonValue, type PolicyChange } from '../model/index.js';

/** Changes a sentence names; the rest are counted (a whole `summary` declared anew can differ in many fields). */
const MAX_NAMED = 5;
const MAX_VALUE = 60;

function valueText(value: JsonValue): string {
  if (value === null) return 'not declared';
  const text = typeof value === 'number' || typeof value === 'boolean' ? String(value) : canonicalJson(value);
  return text.length > MAX_VALUE ? `${text.slice(0, MAX_VALUE - 1)}…` : text;
}

/** `n 44 → 20, stop.kind "curtail" → "fixed"`: what a changed declared policy changed, field by field. */
export function policyChangesText(changes: readonly PolicyChange[]): string {
  const named = changes
    .slice(0, MAX_NAMED)
    .map((change) => `${change.field} ${valueText(change.registered)} → ${valueText(change.declared)}`);
  if (changes.length > MAX_NAMED) named.push(`and ${changes.length - MAX_NAMED} more`);
  return named.join(', ');
}
