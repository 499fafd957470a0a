import { missingVerdictsWords, type PassHatKRow, type RepeatedSummary } from '../model/index.js';
import type { SuiteSummary } from '../model/suite-summary.js';

/** What the row did with its attempts without a verdict, in a parenthesis; empty without any (or before v5). */
function missingNote(row: PassHatKRow): string {
  const missing = row.withoutVerdict;
  if (missing === null || missing.attempts === 0) return '';
  if (missing.policy === 'exclude') return ` (${missingVerdictsWords(missing)} excluded)`;
  const ifPassing = missing.valueIfPassing === null ? '' : `, ${missing.valueIfPassing.toFixed(3)} as passing`;
  return ` (${missingVerdictsWords(missing)} held as failing${ifPassing})`;
}

/** Why the declared rule read the pass^k table as it did, in one line: the row's value and interval against the rule. */
export function repeatedVerdictText(
  verdict: NonNullable<RepeatedSummary['verdict']>,
  passHatK: readonly PassHatKRow[],
): string {
  const { rule } = verdict;
  const name = `pass^${rule.k}`;
  const row = passHatK.find((r) => r.k === rule.k);
  if (row === undefined || row.value === null || row.lower === null || row.upper === null)
    return row?.withoutVerdict?.policy === 'bound'
      ? `fewer than two cases ran ${rule.k} attempts, so ${name} is unknown`
      : `no case has ${rule.k} judged attempts, so ${name} is unknown`;
  const shown = `${name} = ${row.value.toFixed(3)}${missingNote(row)} [${row.lower.toFixed(3)}, ${row.upper.toFixed(3)}]`;
  if (verdict.verdict === 'PASS') return `${shown}: its lower bound reaches ${rule.atLeast}`;
  if (verdict.verdict === 'FAIL') return `${shown}: its upper bound is below ${rule.atLeast}`;
  const swing =
    row.withoutVerdict?.policy === 'bound' && row.withoutVerdict.attempts > 0
      ? 'verdicts for the attempts without one, or more cases, would settle it'
      : 'more cases would settle it';
  return `${shown} straddles ${rule.atLeast}: ${swing}`;
}

/** One rendered table, in the shape suite-table renders. */
interface Table {
  title: string;
  header: string[];
  rows: string[][];
  notes: string[];
}

type WithRepeated = SuiteSummary & { repeated: RepeatedSummary };

const fixed = (x: number | null) => (x === null ? '—' : x.toFixed(3));
const clip = (s: string, width = 110) => (s.length > width ? `${s.slice(0, width - 1)}…` : s);

/** `0.420 [0.315, 0.525]`: three decimals, as benchmark leaderboards print pass^k. */
function passCell(row: PassHatKRow | undefined): string {
  if (row === undefined || row.value === null) return '—';
  return row.lower === null ? fixed(row.value) : `${fixed(row.value)} [${fixed(row.lower)}, ${fixed(row.upper)}]`;
}

const INDEPENDENCE: Record<RepeatedSummary['independence'], string> = {
  independent: 'attempts are independent live runs',
  'recorded-samples':
    'attempts replay recorded runs, each an independent sample of the original subject: intervals describe that subject as recorded',
  'not-independent':
    'attempts are not independent samples (one output served again): intervals describe these recordings only',
};

/**
 * Tables of suites with repeated attempts: pass^k with case-clustered intervals beside the leaderboard's figures,
 * cases by successes out of n, the declared verdict, and every contradicted claim and every disagreement with the
 * reference.
 */
export function repeatedTables(summaries: readonly SuiteSummary[]): Table[] {
  const repeated = summaries.filter((s): s is WithRepeated => s.repeated !== null);
  if (repeated.length === 0) return [];
  const widest = Math.max(...repeated.map((s) => s.repeated.attemptsPerCase));
  const ks = Array.from({ length: widest }, (_, i) => i + 1);
  const confidence = Math.round((repeated[0]?.confidence ?? 0.95) * 100);
  const who = (s: WithRepeated) => `${s.dataset} · ${s.subject.name}`;
  const tables: Table[] = [
    {
      title: 'pass^k: every one of k attempts succeeds (mean over cases of C(c,k)/C(n,k))',
      header: ['suite', 'criterion', 'cases', ...ks.map((k) => `pass^${k}`)],
      rows: repeated.map((s) => [
        who(s),
        `${s.repeated.criterion}${s.repeated.reference ? ` by ${s.repeated.reference}` : ''}`,
        String(s.repeated.cases),
        ...ks.map((k) => passCell(s.repeated.passHatK[k - 1])),
      ]),
      notes: [
        `${confidence}% Korn–Graubard intervals with cases as units`,
        ...[...new Set(repeated.map((s) => INDEPENDENCE[s.repeated.independence]))],
        ...repeated.flatMap((s) => {
          const first = s.repeated.passHatK[0];
          const note = first ? missingNote(first) : '';
          if (note === '') return [];
          const spans = first?.withoutVerdict?.policy === 'bound' ? '; each interval spans them held either way' : '';
          return [`${who(s)}:${note}${spans}`];
        }),
      ],
    },
    {
      title: 'Cases by successes out of n attempts',
      header: ['suite', ...Array.from({ length: widest + 1 }, (_, c) => `${c}/${widest}`), 'incomplete'],
      rows: repeated.map((s) => [
        who(s),
        ...Array.from({ length: widest + 1 }, (_, c) => String(s.repeated.distribution[c]?.cases ?? '—')),
        String(s.repeated.incomplete.length),
      ]),
      notes: ['incomplete: cases with an attempt the reference could not judge (never imputed)'],
    },
    {
      title: 'Suite verdict under its declared rule, and claims the receipts contradict',
      header: ['suite', 'rule', 'verdict', 'contradicted attempts', 'in cases', 'contradicted claims'],
      rows: repeated.map((s) => [
        who(s),
        s.repeated.verdict
          ? `pass^${s.repeated.verdict.rule.k} ≥ ${s.repeated.verdict.rule.atLeast}`
          : '(none declared)',
        s.repeated.verdict?.verdict ?? '—',
        String(s.repeated.contradicted.attempts),
        String(s.repeated.contradicted.cases),
        String(s.repeated.contradicted.claims),
      ]),
      notes: repeated.flatMap((s) =>
        s.repeated.verdict ? [`${who(s)}: ${repeatedVerdictText(s.repeated.verdict, s.repeated.passHatK)}`] : [],
      ),
    },
  ];
  const claims = repeated.flatMap((s) =>
    s.repeated.contradicted.list.map((c) => [who(s), c.arm, String(c.attempt), clip(c.claim, 80), clip(c.note, 80)]),
  );
  if (claims.length > 0)
    tables.push({
      title: 'Contradicted claims: the reply states a change no successful write bears out',
      header: ['suite', 'case', 'attempt', 'claim', 'receipt'],
      rows: claims,
      notes: [],
    });
  const disagreements = repeated.flatMap((s) =>
    s.repeated.disagreements.map((d) => [
      who(s),
      d.evaluator,
      d.arm,
      String(d.attempt),
      d.reference,
      d.finding,
      clip(d.note),
    ]),
  );
  if (disagreements.length > 0)
    tables.push({
      title: `Disagreements with the reference (${[...new Set(repeated.map((s) => s.repeated.reference ?? 'combined result'))].join(', ')})`,
      header: ['suite', 'evaluator', 'case', 'attempt', 'reference', 'evaluator', 'its note'],
      rows: disagreements,
      notes: ['every attempt where the evaluator decided the criterion differently from the reference'],
    });
  return tables;
}
