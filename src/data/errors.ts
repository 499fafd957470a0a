/** Where in a dataset file a problem is, and what it is. */
export interface DatasetIssue {
  file: string;
  /** 1-based line of the file where the record starts; null when the format has no lines (JSON). */
  line: number | null;
  /** 1-based data row (the header is not a row); null for a problem with the file as a whole. */
  row: number | null;
  /** Column (CSV) or property path (JSON) at fault; null when the whole row or file is. */
  column: string | null;
  message: string;
}

const SHOWN = 20;

/** `file:line row N column "c": message`: a location an editor can jump to. */
export function formatIssue(issue: DatasetIssue): string {
  const place = [
    issue.line === null ? issue.file : `${issue.file}:${issue.line}`,
    issue.row === null ? null : `row ${issue.row}`,
    issue.column === null ? null : `column "${issue.column}"`,
  ].filter((part) => part !== null);
  return `${place.join(' ')}: ${issue.message}`;
}

/** A dataset that cannot be read as declared: a configuration mistake, thrown before any attempt runs. */
export class DatasetError extends Error {
  readonly issues: readonly DatasetIssue[];

  constructor(issues: readonly DatasetIssue[]) {
    const shown = issues.slice(0, SHOWN).map(formatIssue);
    const more = issues.length > SHOWN ? [`…and ${issues.length - SHOWN} more`] : [];
    const files = [...new Set(issues.map((issue) => issue.file))].join(', ');
    super([`${issues.length} problem${issues.length === 1 ? '' : 's'} in ${files}:`, ...shown, ...more].join('\n  '));
    this.name = 'DatasetError';
    this.issues = issues;
  }
}
