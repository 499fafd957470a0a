import { parseArgs } from 'node:util';
import { DEFAULTS } from '../run/index.js';
import { describeStoppingRule, operatingCharacteristics, type StoppingRuleSpec } from '../statistics/index.js';

/** Build the rule named on the command line; the statistics module validates it and says what to fix. */
export function ruleFromArgs(values: Record<string, string | boolean | undefined>): StoppingRuleSpec {
  const number = (name: string, fallback: number) => {
    const raw = values[name];
    if (raw === undefined) return fallback;
    const parsed = Number(raw);
    if (!Number.isFinite(parsed)) throw new Error(`--${name} must be a number, got "${String(raw)}"`);
    return parsed;
  };
  const n = number('n', DEFAULTS.repeat.n);
  const threshold = number('threshold', DEFAULTS.threshold.rate);
  const alpha = number('alpha', DEFAULTS.threshold.alpha);
  switch (values.rule ?? DEFAULTS.repeat.stop.kind) {
    case 'fixed':
      return { kind: 'fixed', n, threshold, alpha };
    case 'curtail':
      return { kind: 'curtail', n, threshold, alpha };
    case 'sprt':
      return {
        kind: 'sprt',
        p0: number('p0', 0.65),
        p1: number('p1', 0.92),
        alpha,
        beta: number('beta', 0.05),
        nMax: n,
      };
    case 'confidence-sequence':
      return { kind: 'confidence-sequence', threshold, alpha, nMax: n };
    default:
      throw new Error(`--rule must be fixed, curtail, sprt or confidence-sequence, got "${String(values.rule)}"`);
  }
}

const GRID = [0.3, 0.5, 0.65, 0.7, 0.8, 0.9, 0.92, 0.95, 1];

/** Whether the rule is the one a trial gets when it declares no repetition or threshold. */
function isDefault(rule: StoppingRuleSpec): rule is Extract<StoppingRuleSpec, { kind: 'curtail' }> {
  return (
    rule.kind === DEFAULTS.repeat.stop.kind &&
    rule.n === DEFAULTS.repeat.n &&
    rule.threshold === DEFAULTS.threshold.rate &&
    rule.alpha === DEFAULTS.threshold.alpha
  );
}

/**
 * Why the default policy is the default, in its own exact figures: P(PASS) for a subject succeeding 95% of the time,
 * the largest false-PASS probability over p < τ (P(PASS) rises with p, so it is the limit at τ) and the expected
 * attempts at p = .5, .8, .95 and 1.
 */
function defaultPolicyLines(rule: Extract<StoppingRuleSpec, { kind: 'curtail' }>): string[] {
  const at = (p: number) => operatingCharacteristics(rule, p);
  const expected = [0.5, 0.8, 0.95, 1].map((p) => `${at(p).expectedN.toFixed(1)} at p = ${p}`);
  return [
    `This is the default policy (curtail, n = ${rule.n}, τ = ${rule.threshold}, α = ${rule.alpha}):`,
    `  P(PASS | p = 0.95) = ${at(0.95).pPass.toFixed(4)} (at least 0.9);`,
    `  false PASS at any p < τ is at most P(PASS | p = τ) = ${at(rule.threshold).pPass.toFixed(4)} (at most α);`,
    `  expected attempts: ${expected.join(', ')}.`,
  ];
}

/** `riddle stopping --explain`: the rule in plain words and its exact operating characteristics over p. */
export function stoppingCommand(args: readonly string[]): number {
  const { values } = parseArgs({
    args: [...args],
    options: {
      explain: { type: 'boolean' },
      rule: { type: 'string' },
      n: { type: 'string' },
      threshold: { type: 'string' },
      alpha: { type: 'string' },
      beta: { type: 'string' },
      p0: { type: 'string' },
      p1: { type: 'string' },
    },
  });
  const rule = ruleFromArgs(values);
  const lines = [describeStoppingRule(rule), '', '     p   P(PASS)  P(FAIL)  P(inconclusive)  E[attempts]'];
  for (const p of GRID) {
    const oc = operatingCharacteristics(rule, p);
    lines.push(
      `${p.toFixed(2).padStart(6)}  ${oc.pPass.toFixed(4).padStart(7)}  ${oc.pFail.toFixed(4).padStart(7)}  ${oc.pInconclusive.toFixed(4).padStart(15)}  ${oc.expectedN.toFixed(1).padStart(11)}`,
    );
  }
  if (isDefault(rule)) lines.push('', ...defaultPolicyLines(rule));
  process.stdout.write(`${lines.join('\n')}\n`);
  return 0;
}
