import type { ArmRole, ArmSummary, Outcome, Verdict } from '../model/index.js';

/**
 * Past this many arms (a data-driven suite) every report summarises a trial's arms per role instead of one line each,
 * and past this many matched groups a suite table shows only the groups that say most: a person reads a verdict and
 * why, the HTML report and the Outcome file hold every row.
 */
export const MAX_LISTED = 8;

/** Arms quoted beside the role tallies of a collapsed trial. */
const QUOTED_ARMS = 3;

/** Verdicts from passing to lying: the order of every tally, and of the cells of a bar of proportions. */
export const VERDICT_ORDER: readonly Verdict[] = ['PASS', 'PARTIAL', 'UNKNOWN', 'DISPUTED', 'FAIL', 'CONTRADICTED'];

/** Where a collapsed report sends the reader for every arm. */
export const EVERY_ARM_IS = "every arm is in the run's HTML report and Outcome file";

/** A count per verdict, in `VERDICT_ORDER`, without the verdicts counted 0. */
export type VerdictCounts = readonly (readonly [Verdict, number])[];

export interface RoleTally {
  role: ArmRole;
  arms: number;
  /** The arms' verdicts. */
  verdicts: VerdictCounts;
  /** The verdicts of the arms' attempts. */
  attempts: VerdictCounts;
}

/** A trial of many arms as the reports show it: tallies per role, and a few of the arms that gave its verdict. */
export interface ArmDigest {
  roles: RoleTally[];
  /**
   * The first arms (declared order) whose verdict is the trial's, as the trial verdict's precedence rule picks them,
   * with their position in `Outcome.arms`; none for a PASS, where no arm stands out.
   */
  quoted: { arm: ArmSummary; index: number }[];
  /** Arms with the trial's verdict beyond those quoted. */
  unquoted: number;
}

function counts(add: (count: (verdict: Verdict, n: number) => void) => void): VerdictCounts {
  const by = new Map<Verdict, number>();
  add((verdict, n) => by.set(verdict, (by.get(verdict) ?? 0) + n));
  return VERDICT_ORDER.flatMap((v) => {
    const n = by.get(v) ?? 0;
    return n > 0 ? [[v, n] as const] : [];
  });
}

/** `999 PASS · 1 FAIL` (`separator` between verdicts). */
export function countsText(verdicts: VerdictCounts, separator = ' · '): string {
  return verdicts.map(([v, n]) => `${n} ${v}`).join(separator);
}

/** The digest of a trial's arms, or null when it has few enough to list every one. */
export function armDigest(outcome: Pick<Outcome, 'arms' | 'judgment'>): ArmDigest | null {
  if (outcome.arms.length <= MAX_LISTED) return null;
  const roles = (['case', 'control'] as const).flatMap((role): RoleTally[] => {
    const arms = outcome.arms.filter((a) => a.role === role);
    if (arms.length === 0) return [];
    return [
      {
        role,
        arms: arms.length,
        verdicts: counts((count) => {
          for (const arm of arms) count(arm.verdict, 1);
        }),
        attempts: counts((count) => {
          for (const arm of arms)
            for (const [verdict, n] of Object.entries(arm.verdicts) as [Verdict, number][]) count(verdict, n);
        }),
      },
    ];
  });
  const { verdict } = outcome.judgment;
  const deciding =
    verdict === 'PASS' ? [] : outcome.arms.flatMap((arm, index) => (arm.verdict === verdict ? [{ arm, index }] : []));
  return { roles, quoted: deciding.slice(0, QUOTED_ARMS), unquoted: Math.max(0, deciding.length - QUOTED_ARMS) };
}

/** `1000 case arms: 999 PASS · 1 FAIL` */
export function roleText(tally: RoleTally): string {
  return `${tally.arms} ${tally.role} arms: ${countsText(tally.verdicts)}`;
}

/** After the quoted arms: how many more share the trial's verdict, and where every arm is. */
export function unquotedText(digest: ArmDigest, verdict: Verdict): string {
  return `${digest.unquoted > 0 ? `and ${digest.unquoted} more ${verdict} arms; ` : ''}${EVERY_ARM_IS}`;
}
