import { parseArgs } from 'node:util';
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
  const n = number('n', 20);
  const threshold = number('threshold', 0.8);
  const alpha = number('alpha', 0.05);
  switch (values.rule ?? 'curtail') {
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
  process.stdout.write(`${lines.join('\n')}\n`);
  return 0;
}
