import { SCORE_BINS, type ScoreSummary } from '../../model/index.js';
import { escapeHtml } from '../safe-text.js';

const f = (x: number) => (Math.round(x * 10) / 10).toString();

/**
 * A scored criterion's scores on a 0–1 axis: a histogram of ten bins (bars below the cutoff in grey, at or above it in
 * green), the cutoff as a dashed line, and the mean as a dot on its interval under the bars.
 */
export function scoreHistogram(row: ScoreSummary, width = 220, height = 70): string {
  const pad = 6;
  const axis = height - 16;
  const at = (v: number) => pad + v * (width - 2 * pad);
  const most = Math.max(1, ...row.histogram);
  const binWidth = (width - 2 * pad) / SCORE_BINS;
  const bars = row.histogram.map((count, bin) => {
    const h = (count / most) * (axis - pad);
    const low = bin / SCORE_BINS;
    const high = (bin + 1) / SCORE_BINS;
    const fill = low + 1e-9 >= row.cutoff ? '#1a7f37' : '#8c959f';
    const range = `${low.toFixed(1)}–${high.toFixed(1)}${bin === SCORE_BINS - 1 ? ']' : ')'}`;
    return `<rect class="bin" x="${f(at(low) + 1)}" y="${f(axis - h)}" width="${f(binWidth - 2)}" height="${f(h)}" fill="${fill}"><title>${count} score${count === 1 ? '' : 's'} in [${range}</title></rect>`;
  });
  const pieces = [
    `<line x1="${at(0)}" x2="${at(1)}" y1="${axis}" y2="${axis}" stroke="#d0d7de"/>`,
    ...bars,
    `<line class="cutoff" x1="${f(at(row.cutoff))}" x2="${f(at(row.cutoff))}" y1="${pad - 4}" y2="${height - 2}" stroke="#57606a" stroke-dasharray="3 2"><title>cutoff ${row.cutoff}</title></line>`,
  ];
  if (row.mean !== null && row.interval)
    pieces.push(
      `<rect x="${f(at(row.interval.lower))}" y="${axis + 6}" width="${f(Math.max(1, at(row.interval.upper) - at(row.interval.lower)))}" height="4" rx="2" fill="#0969da" opacity="0.4"><title>${Math.round(row.interval.confidence * 100)}% interval of the mean [${row.interval.lower.toFixed(3)}, ${row.interval.upper.toFixed(3)}]</title></rect>`,
      `<circle class="mean" cx="${f(at(row.mean))}" cy="${axis + 8}" r="3" fill="#0969da"><title>mean ${row.mean.toFixed(3)}</title></circle>`,
    );
  const label = `${row.criterion}: histogram of ${row.scored} scores ${row.histogram.join(' ')}; cutoff ${row.cutoff}${row.mean === null ? '' : `; mean ${row.mean.toFixed(2)}`}`;
  return `<svg class="scores" role="img" aria-label="${escapeHtml(label)}" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}">${pieces.join('')}</svg>`;
}
