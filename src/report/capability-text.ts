import { describeSuiteCheck, type CapabilityClaim } from '../model/index.js';

const pct = (x: number) => `${Math.round(x * 100)}%`;

/** A claim about replayed or cached attempts describes the recording, and says so. */
const replayed = (claim: CapabilityClaim, separator: string) =>
  claim.scope.independentAttempts
    ? ''
    : `${separator}attempts were replayed, so this describes the recording, not the live subject`;

/**
 * A capability claim in words, with the figures of the bound it rests on (the one place claims become sentences):
 * `fileAgent (abc123) met declines on case "case" in 20 of 20 attempts: its success rate is at least 0.86 (one-sided
 * 95% clopper-pearson bound), above the required 0.8.`
 */
export function capabilitySentence(claim: CapabilityClaim): string {
  const { subject } = claim.scope;
  switch (claim.kind) {
    case 'arm': {
      const expected = claim.met.length ? `met ${claim.met.join(', ')}` : '';
      const forbidden = claim.avoided.length ? `avoided ${claim.avoided.join(', ')}` : '';
      const behaviour = [expected, forbidden].filter(Boolean).join(' and ');
      const confidence = Math.round((1 - claim.bound.alpha) * 1000) / 10;
      return (
        `${subject.name} (${subject.revision}) ${behaviour} on ${claim.role} "${claim.arm}" in ${claim.successes} of ${claim.attempts} attempts: ` +
        `its success rate is at least ${claim.bound.value.toFixed(2)} (one-sided ${confidence}% ${claim.bound.interval} bound), above the required ${claim.bound.threshold}${replayed(claim, '; ')}.`
      );
    }
    case 'told-apart': {
      const { lower, upper, confidence } = claim.interval;
      return (
        `It told the case from its controls: ${claim.criterion} in ${pct(claim.caseRate)} of case attempts and ` +
        `${pct(claim.controlRate)} of control attempts (discrimination ${claim.discrimination.toFixed(2)}, ` +
        `${Math.round(confidence * 100)}% interval [${lower.toFixed(2)}, ${upper.toFixed(2)}]).`
      );
    }
    case 'suite-check':
      return `${subject.name} (${subject.revision}) met ${describeSuiteCheck(claim.check, claim)}${replayed(claim, '; ')}.`;
    case 'legacy':
      return claim.sentence;
    default:
      return claim satisfies never;
  }
}

/** What a claim holds for, in words: the subject revision and the pinned fingerprints (shortened). */
export function capabilityScopeText(claim: CapabilityClaim): string {
  const short = (fingerprint: string) => fingerprint.replace(/^sha256:/, '').slice(0, 12);
  const { scope } = claim;
  const evaluators = scope.evaluators.length ? scope.evaluators.map(short).join(', ') : 'none';
  return `${scope.subject.name} ${scope.subject.revision}; rubric ${short(scope.rubric)}, evaluators ${evaluators}, environment ${short(scope.environment)}`;
}
