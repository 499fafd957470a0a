/** The step of `riddle.outcome/4` that turns capability sentences into claim records. */

import type { StoredRecord } from './stored-record.js';
import { type CapabilityClaim, capabilityClaims, claimScope, ClaimSource } from './capability.js';
import { suiteRateWords } from './suite-rule.js';

/**
 * Whether a v3 sentence says what the claim rebuilt in its place says: the arm, its successes and attempts; the
 * matched-control opening; the suite check's rate, bound and threshold. v3 wrote its sentences from the very figures
 * the claim is rebuilt from, so a sentence that does not match means the record was not what v3 wrote.
 */
function saysSame(sentence: unknown, claim: CapabilityClaim): boolean {
  if (typeof sentence !== 'string') return false;
  switch (claim.kind) {
    case 'arm':
      return sentence.includes(`"${claim.arm}" in ${claim.successes} of ${claim.attempts} attempts`);
    case 'told-apart':
      return sentence.startsWith(`It told the case from its controls: ${claim.criterion} in `);
    case 'suite-check': {
      const { rate, group, bound, threshold } = claim.check;
      return sentence.includes(` met ${suiteRateWords(rate, group)} ${bound === 'atLeast' ? '≥' : '≤'} ${threshold}:`);
    }
    case 'legacy':
      return false;
    default:
      return claim satisfies never;
  }
}

/**
 * Capability claims were sentences before v4. The figures they were written from are all kept in a v3 Outcome (arm
 * decisions, the matched-control judgment, the suite rule's checks, the pinned fingerprints), so the claims are
 * rebuilt from them when they match the sentences one for one; otherwise each sentence is kept as a `legacy` claim,
 * with the scope its Outcome pinned. An Outcome that claimed nothing claims nothing.
 */
export function capabilitiesAsRecords(outcome: StoredRecord): StoredRecord {
  const sentences = outcome.capabilities;
  if (!Array.isArray(sentences) || sentences.length === 0) return outcome;
  const source = ClaimSource.safeParse(outcome);
  // Without the pinned fingerprints and the subject there is no scope: left for the schema to reject.
  if (!source.success) {
    const scoped = ClaimSource.pick({ pinned: true, records: true }).safeParse(outcome);
    if (!scoped.success) return outcome;
    const scope = claimScope(scoped.data);
    return { ...outcome, capabilities: sentences.map((sentence) => ({ kind: 'legacy', scope, sentence })) };
  }
  const rebuilt = capabilityClaims(source.data);
  const matches = rebuilt.length === sentences.length && rebuilt.every((claim, i) => saysSame(sentences[i], claim));
  if (matches) return { ...outcome, capabilities: rebuilt };
  const scope = claimScope(source.data);
  return {
    ...outcome,
    capabilities: sentences.map((sentence) => ({ kind: 'legacy', scope, sentence })),
  };
}
