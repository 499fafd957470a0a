import type { Outcome } from '../model/index.js';
import type { AttemptsSummary } from './attempts-summary.js';
import { htmlPageChunks, renderHtmlPage } from './html/page.js';
import { shownOutcomes, type ShownOutcomes } from './shown-outcomes.js';

/**
 * A self-contained HTML report of a run: filters by verdict, finding owner and text; per arm an SVG distribution
 * of its attempts and its rate with intervals against τ; pressure survival curves; sortable, filterable suite
 * tables; every trial's attempts a page at a time. Laid out in `html/`. The attempts come from `summaries`
 * (report/attempts-summary, by position), or from each Outcome's inline attempts where none is given.
 */
export function renderHtml(
  unsafeOutcomes: readonly Outcome[],
  runId: string,
  summaries: readonly (AttemptsSummary | undefined)[] = [],
): string {
  // HTML is escaped where text is placed; controls and bidi marks are made visible first.
  return renderShownHtml(shownOutcomes(unsafeOutcomes, summaries), runId);
}

/** `renderHtml` of Outcomes already neutralised (report/shown-outcomes), e.g. shared with the terminal report. */
export function renderShownHtml(shown: ShownOutcomes, runId: string): string {
  return renderHtmlPage(shown.outcomes, runId, shown.attempts);
}

/** `renderShownHtml` a chunk at a time (report/html/page `htmlPageChunks`), for writing the page to a file. */
export function shownHtmlChunks(shown: ShownOutcomes, runId: string): Iterable<string> {
  return htmlPageChunks(shown.outcomes, runId, shown.attempts);
}
