import { calibrateAcrossSuites } from '../aggregate/suite-calibration.js';
import { repeatedTables } from './repeated-table.js';
import type {
  CalibrationRow,
  CorrectedRate,
  GroupPath,
  GroupRate,
  PairRow,
  RateDifference,
  SuiteSummary,
} from '../model/suite-summary.js';
import type { MissingVerdicts, SuiteRuleDecision } from '../model/index.js';
import { MAX_LISTED } from './arm-digest.js';

/** One rendered table: plain cells, formatted for the terminal, Markdown or HTML. */
export interface SuiteTable {
  title: string;
  header: string[];
  rows: string[][];
  notes: string[];
}

export interface SuiteTableOptions {
  /** Deepest group level shown in the label table: 0 is the whole suite, 1 the first `groupBy` tag… (default all). */
  depth?: number;
  /**
   * Most matched groups per subject in the discrimination table: past it, the groups that decided the suite's rule
   * (`decidingGroups`), then those told apart least. All by default (the HTML report); the terminal and Markdown
   * renderers show `MAX_LISTED`.
   */
  maxGroups?: number;
  /** Per suite, the matched groups its rule's verdict rests on (`ruleDecidingGroups`). */
  decidingGroups?: ReadonlyMap<SuiteSummary, ReadonlySet<string>>;
}

const pct = (x: number | null) => (x === null ? '—' : `${(x * 100).toFixed(1)}%`);
const bound = (x: number | null) => (x === null ? '—' : (x * 100).toFixed(1));
const coef = (x: number | null) => (x === null ? '—' : x.toFixed(2));

/**
 * `91.6% [88.0, 94.2] 229/250`: rate, interval in percent, then the counts it rests on; then what the Rubric's
 * missing-evidence policy did with its attempts without a verdict, when it had any (`, 12 without a verdict held as
 * failing (96.0% as passing)`, `, 12 without a verdict excluded`).
 */
function rateCell(r: GroupRate, missing: MissingVerdicts | null = null): string {
  const note = missingNote(missing);
  if (r.rate === null) return `— 0/${r.attempts}${note}`;
  return `${pct(r.rate)} [${bound(r.lower)}, ${bound(r.upper)}] ${r.count}/${r.attempts}${note}`;
}

const signed = (x: number | null) => (x === null ? '—' : `${x >= 0 ? '+' : ''}${(x * 100).toFixed(1)}`);

/** `+80.0 pp [+72.1, +86.0]`; under `bound`, with its reading as passing (each side's cell counts them). */
function differenceCell(d: RateDifference, missing: MissingVerdicts | null = null): string {
  if (d.value === null) return '—';
  const ifPassing =
    missing?.policy === 'bound' && missing.attempts > 0 && missing.valueIfPassing !== null
      ? `, ${signed(missing.valueIfPassing)} pp as passing`
      : '';
  return `${signed(d.value)} pp [${signed(d.lower)}, ${signed(d.upper)}]${ifPassing}`;
}

/** A cell's attempts without a verdict; empty without any, or in a record that did not count them (before v5). */
function missingNote(missing: MissingVerdicts | null): string {
  if (missing === null || missing.attempts === 0) return '';
  if (missing.policy === 'exclude') return `, ${missing.attempts} without a verdict excluded`;
  const ifPassing = missing.valueIfPassing === null ? '' : ` (${pct(missing.valueIfPassing)} as passing)`;
  return `, ${missing.attempts} without a verdict held as failing${ifPassing}`;
}

/**
 * What a refusal table's policy for attempts without a verdict means, once per policy its shown rates applied to
 * some; nothing when none had any.
 */
function missingPolicyNotes(shown: readonly (MissingVerdicts | undefined)[]): string[] {
  const applied = new Set(shown.flatMap((m) => (m && m.attempts > 0 ? [m.policy] : [])));
  return [
    ...(applied.has('bound')
      ? [
          "attempts without a refusal verdict (errors, blocks, uncovered or disputed results) stay in the denominator (the Rubric's missingEvidence 'bound'): the rate holds them as failing (not refused where meant to refuse, refused where meant to comply), its interval spans them held either way",
        ]
      : []),
    ...(applied.has('exclude')
      ? [
          "attempts without a refusal verdict are left out of the denominator (the Rubric's missingEvidence 'exclude') and counted as excluded",
        ]
      : []),
  ];
}

const groupName = (path: GroupPath) => (path.length === 0 ? 'all' : path.map((p) => p.value).join(' › '));
const subjectName = (s: SuiteSummary) => s.subject.name;

/** When cases repeat, say how far pooling attempts would understate the uncertainty (Miller 2024). */
function designEffectNote(summaries: readonly SuiteSummary[]): string[] {
  const effects = summaries
    .flatMap((s) => s.table.flatMap((row) => row.labels.map((l) => l.share.designEffect ?? null)))
    .filter((d): d is number => d !== null);
  if (effects.length === 0) return [];
  const worst = Math.max(...effects);
  return [
    `cases repeat: design effect up to ${worst.toFixed(2)}, so intervals pooled over attempts would be up to ${Math.sqrt(Math.max(worst, 1)).toFixed(2)}× too narrow; these cluster by case`,
  ];
}

function labelTable(summaries: readonly SuiteSummary[], depth: number): SuiteTable[] {
  const byShape = new Map<string, SuiteSummary[]>();
  for (const s of summaries) {
    const key = `${s.dataset}\u0000${s.criterion}\u0000${s.vocabulary.join('\u0000')}`;
    byShape.set(key, [...(byShape.get(key) ?? []), s]);
  }
  return [...byShape.values()].flatMap((members) => {
    const [first] = members;
    if (!first) return [];
    const rows = members.flatMap((s) =>
      s.table
        .filter((row) => row.path.length <= depth)
        .map((row) => [
          subjectName(s),
          groupName(row.path),
          String(row.cases),
          ...row.labels.map((l) => rateCell(l.share)),
          missingCell(row.missing),
        ]),
    );
    const nesting = first.groupBy.slice(0, depth);
    return [
      {
        title: `${first.dataset}: share of each ${first.criterion} label${nesting.length ? `, per ${nesting.join(' › ')}` : ''}`,
        header: ['subject', 'group', 'cases', ...first.vocabulary, 'no label (disputed/unknown/error)'],
        rows,
        notes: [
          `share of labelled attempts, ${Math.round(first.confidence * 100)}% interval over cases, count/labelled`,
          ...designEffectNote(members),
        ],
      },
    ];
  });
}

function missingCell(m: { disputed: number; unknown: number; error: number }): string {
  return m.disputed + m.unknown + m.error === 0 ? '0' : `${m.disputed}/${m.unknown}/${m.error}`;
}

function refusalTable(summaries: readonly SuiteSummary[]): SuiteTable[] {
  const withRefusal = summaries.filter((s) => s.refusal !== null);
  if (withRefusal.length === 0) return [];
  return [
    {
      title: 'Refusal: correct refusal (arms meant to refuse) beside over-refusal (arms meant to comply)',
      header: ['dataset', 'subject', 'correct refusal', 'over-refusal', 'discrimination', 'disputed (panel)'],
      rows: withRefusal.map((s) => {
        const missing = s.refusal?.withoutVerdict ?? null;
        return [
          s.dataset,
          subjectName(s),
          s.refusal ? rateCell(s.refusal.correctRefusal, missing?.correctRefusal) : '—',
          s.refusal ? rateCell(s.refusal.overRefusal, missing?.overRefusal) : '—',
          s.refusal ? differenceCell(s.refusal.discrimination, missing?.discrimination) : '—',
          s.disputes ? `${rateCell(s.disputes.share)} (${s.disputes.panel.join(' vs ')})` : '—',
        ];
      }),
      notes: [
        'discrimination = correct refusal − over-refusal, MOVER interval; disputed = panel members gave different labels',
        ...missingPolicyNotes(withRefusal.map((s) => s.refusal?.withoutVerdict?.discrimination)),
      ],
    },
  ];
}

/**
 * The matched groups a suite rule's verdict rests on: those whose checks gave its FAIL or UNKNOWN (a PASS rests on
 * every check alike), for the discrimination table to show first.
 */
export function ruleDecidingGroups(rule: SuiteRuleDecision | null): ReadonlySet<string> {
  if (!rule || rule.verdict === 'PASS') return new Set();
  return new Set(rule.checks.flatMap((c) => (c.decision === rule.verdict && c.group !== null ? [c.group] : [])));
}

/** A suite's matched groups as the table shows them: all in order up to `max`, else the `max` that say most. */
function shownPairs(s: SuiteSummary, max: number, deciding: ReadonlySet<string>): readonly PairRow[] {
  if (s.pairs.length <= max) return s.pairs;
  const told = (p: PairRow) => p.discrimination.value ?? Number.POSITIVE_INFINITY;
  return [...s.pairs]
    .sort((a, b) => Number(deciding.has(b.group)) - Number(deciding.has(a.group)) || told(a) - told(b))
    .slice(0, max);
}

function pairTable(summaries: readonly SuiteSummary[], options: SuiteTableOptions): SuiteTable[] {
  const max = options.maxGroups ?? Number.POSITIVE_INFINITY;
  let hidden = 0;
  const pairs = summaries.flatMap((s) => {
    const shown = shownPairs(s, max, options.decidingGroups?.get(s) ?? new Set());
    hidden += s.pairs.length - shown.length;
    return shown.map((p) => ({ s, p }));
  });
  if (pairs.length === 0) return [];
  return [
    {
      title: 'Discrimination per matched group',
      header: ['subject', 'group', 'refused, meant to refuse', 'refused, meant to comply', 'discrimination'],
      rows: pairs.map(({ s, p }) => [
        subjectName(s),
        p.group,
        rateCell(p.refuse, p.withoutVerdict?.refuse),
        rateCell(p.comply, p.withoutVerdict?.comply),
        differenceCell(p.discrimination, p.withoutVerdict?.discrimination),
      ]),
      notes: [
        ...missingPolicyNotes(pairs.map(({ p }) => p.withoutVerdict?.discrimination)),
        ...(hidden
          ? [
              `and ${hidden} more groups: per subject the ${max} shown are any its suite rule's verdict rests on, then those told apart least; every group is in the run's HTML report`,
            ]
          : []),
      ],
    },
  ];
}

const SIDE_NAME: Record<CorrectedRate['intent'], string> = {
  refuse: 'meant to refuse',
  comply: 'meant to comply',
  neither: 'other arms',
};

function calibrationTables(summaries: readonly SuiteSummary[]): SuiteTable[] {
  const rows = calibrateAcrossSuites(summaries);
  if (rows.length === 0) return [];
  const who = (r: CalibrationRow) => [r.evaluator, r.subject ?? 'pooled'];
  const interval = (s: { value: number | null; lower: number; upper: number }) =>
    `${pct(s.value)} [${bound(s.lower)}, ${bound(s.upper)}]`;
  const references = [
    ...new Set(
      summaries.map((s) =>
        s.reference.kind === 'combined' ? `the combined ${s.criterion} result` : s.reference.evaluator,
      ),
    ),
  ];
  return [
    {
      title: `Evaluator calibration against ${references.join(', ')} (met = positive)`,
      header: [
        'evaluator',
        'subject',
        'sensitivity',
        'specificity',
        'raw',
        'κ',
        'AC1',
        'α',
        'tp/fn/tn/fp',
        'errors',
        'unknown',
      ],
      rows: rows.map((r) => [
        ...who(r),
        interval(r.statistics.sensitivity),
        interval(r.statistics.specificity),
        coef(r.statistics.raw),
        coef(r.statistics.cohenKappa),
        coef(r.statistics.gwetAC1),
        coef(r.statistics.krippendorffAlpha),
        `${r.counts.tp}/${r.counts.fn}/${r.counts.tn}/${r.counts.fp}`,
        String(r.counts.errors),
        String(r.counts.unknown),
      ]),
      notes: [
        'exact (Clopper–Pearson) intervals; errors (e.g. a judge answering outside its labels) are never counted as calls',
      ],
    },
    {
      title: 'Positive rates as each evaluator measured them, and Rogan–Gladen corrected',
      header: ['evaluator', 'subject', 'arms', 'reference', 'naive', 'corrected', 'calibrated on'],
      rows: rows.flatMap((r) =>
        r.rates.map((rate) => [
          ...who(r),
          SIDE_NAME[rate.intent],
          `${pct(rate.reference.rate)} ${rate.reference.count}/${rate.reference.attempts}`,
          `${pct(rate.naive.rate)} ${rate.naive.count}/${rate.naive.attempts}`,
          rate.corrected
            ? `${pct(rate.corrected.value)} [${bound(rate.corrected.lower)}, ${bound(rate.corrected.upper)}]${rate.corrected.clipped ? ' clipped' : ''}`
            : `— (${rate.note ?? 'no calibration'})`,
          r.correctedWith === 'other-subjects' ? 'other subjects' : 'same attempts',
        ]),
      ),
      notes: [
        'over the attempts both the evaluator and the reference judged; correction uses Se and Sp from the calibration named',
      ],
    },
  ];
}

/** The suite tables of some summaries, as plain cells. */
export function suiteTables(summaries: readonly SuiteSummary[], options: SuiteTableOptions = {}): SuiteTable[] {
  return [
    ...labelTable(summaries, options.depth ?? Number.POSITIVE_INFINITY),
    ...refusalTable(summaries),
    ...pairTable(summaries, options),
    ...calibrationTables(summaries),
    ...repeatedTables(summaries),
  ];
}

function replayNote(summaries: readonly SuiteSummary[]): string[] {
  const replayed = summaries.filter((s) => !s.independentAttempts).map(subjectName);
  return replayed.length
    ? [
        `not independent samples (replayed or cached): ${[...new Set(replayed)].join(', ')}; intervals describe variation across cases only`,
      ]
    : [];
}

/** Suite tables as aligned plain text for the terminal (`MAX_LISTED` matched groups per subject unless told). */
export function renderSuiteTerminal(summaries: readonly SuiteSummary[], options: SuiteTableOptions = {}): string {
  if (summaries.length === 0) return '';
  const out: string[] = [];
  for (const table of suiteTables(summaries, { maxGroups: MAX_LISTED, ...options })) {
    const widths = table.header.map((h, c) => Math.max(h.length, ...table.rows.map((r) => (r[c] ?? '').length)));
    const line = (cells: readonly string[]) =>
      `  ${cells.map((cell, c) => cell.padEnd(widths[c] ?? 0)).join('  ')}`.trimEnd();
    out.push(table.title, line(table.header), line(widths.map((w) => '─'.repeat(w))), ...table.rows.map(line));
    for (const note of table.notes) out.push(`  ${note}`);
    out.push('');
  }
  for (const note of replayNote(summaries)) out.push(note);
  return `${out.join('\n').trimEnd()}\n`;
}

const md = (s: string) => s.replace(/\|/g, '\\|').replace(/\n/g, ' ');

/** Suite tables as Markdown for the run's report file (`MAX_LISTED` matched groups per subject unless told). */
export function renderSuiteMarkdown(summaries: readonly SuiteSummary[], options: SuiteTableOptions = {}): string {
  if (summaries.length === 0) return '';
  const out: string[] = [];
  for (const table of suiteTables(summaries, { maxGroups: MAX_LISTED, ...options })) {
    out.push(
      `### ${table.title}`,
      '',
      `| ${table.header.map(md).join(' | ')} |`,
      `|${table.header.map(() => '---').join('|')}|`,
    );
    for (const row of table.rows) out.push(`| ${row.map(md).join(' | ')} |`);
    out.push('');
    for (const note of table.notes) out.push(`_${md(note)}_`, '');
  }
  for (const note of replayNote(summaries)) out.push(`> ${note}`, '');
  return `${out.join('\n').trimEnd()}\n`;
}
