import type { AttemptContext } from 'riddle/trial';

/**
 * A deterministic stand-in for a model asked for a capital: it always means Canberra but spells it as models do,
 * by seed, sometimes with a full stop, lower case or one letter dropped. A scored criterion (edit distance to the
 * expected answer) tells these near misses from a wrong city, where a strict equality check would fail them all.
 */
export function capitalSpeller(input: unknown, context: AttemptContext): string {
  if (!/capital of Australia/i.test(String(input))) return "I don't know.";
  return ['Canberra', 'Canberra.', 'canberra', 'Canbera', 'Canberra'][context.seed % 5] ?? 'Canberra';
}
