import type { ArmSummary, Verdict } from '../../model/index.js';
import { escapeHtml } from '../safe-text.js';

export const VERDICT_FILL: Record<Verdict, string> = {
  PASS: '#1a7f37',
  PARTIAL: '#bf8700',
  FAIL: '#cf222e',
  CONTRADICTED: '#8250df',
  UNKNOWN: '#8c959f',
  DISPUTED: '#0a7ea4',
};
const NOT_RUN = '#eaeef2';
const f = (x: number) => (Math.round(x * 10) / 10).toString();

/** A stacked bar of an arm's attempt verdicts (and attempts not run), each part titled with its count. */
export function distributionBar(arm: ArmSummary, width = 220, height = 14): string {
  const parts: { label: string; count: number; fill: string }[] = [
    ...(Object.entries(arm.verdicts) as [Verdict, number][])
      .filter(([, n]) => n > 0)
      .map(([v, n]) => ({ label: v, count: n, fill: VERDICT_FILL[v] })),
    ...(arm.notRun.count > 0 ? [{ label: 'not run', count: arm.notRun.count, fill: NOT_RUN }] : []),
  ];
  const total = parts.reduce((sum, p) => sum + p.count, 0) || 1;
  let x = 0;
  const rects = parts.map((p) => {
    const w = (p.count / total) * width;
    const rect = `<rect x="${f(x)}" y="0" width="${f(w)}" height="${height}" fill="${p.fill}"><title>${p.count} ${escapeHtml(p.label)}</title></rect>`;
    x += w;
    return rect;
  });
  const errors = Object.entries(arm.statuses)
    .filter(([status, n]) => status !== 'completed' && n > 0)
    .map(([status, n]) => `${n} ${status}`)
    .join(', ');
  const label = `${parts.map((p) => `${p.count} ${p.label}`).join(', ')}${errors ? `; statuses: ${errors}` : ''}`;
  return `<svg class="dist" role="img" aria-label="${escapeHtml(label)}" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}">${rects.join('')}</svg>`;
}

/**
 * The arm's rate on a 0–1 axis: the descriptive Wilson interval as a bar, the exact one-sided decision bounds as
 * ticks, the point estimate as a dot, and τ as a dashed line.
 */
export function intervalPlot(arm: ArmSummary, width = 220, height = 22): string {
  const pad = 6;
  const at = (v: number) => pad + v * (width - 2 * pad);
  const mid = height / 2;
  const tau = arm.decision.threshold;
  const pieces = [
    `<line x1="${at(0)}" x2="${at(1)}" y1="${mid}" y2="${mid}" stroke="#d0d7de"/>`,
    `<line class="tau" x1="${f(at(tau))}" x2="${f(at(tau))}" y1="1" y2="${height - 1}" stroke="#57606a" stroke-dasharray="3 2"><title>τ ${tau}</title></line>`,
  ];
  if (arm.wilson)
    pieces.push(
      `<rect x="${f(at(arm.wilson.lower))}" y="${mid - 3}" width="${f(at(arm.wilson.upper) - at(arm.wilson.lower))}" height="6" rx="3" fill="${VERDICT_FILL[arm.verdict]}" opacity="0.35"><title>Wilson ${Math.round(arm.wilson.confidence * 100)}% [${arm.wilson.lower.toFixed(3)}, ${arm.wilson.upper.toFixed(3)}]</title></rect>`,
    );
  for (const bound of [arm.decision.lower, arm.decision.upper])
    pieces.push(
      `<line x1="${f(at(bound))}" x2="${f(at(bound))}" y1="${mid - 6}" y2="${mid + 6}" stroke="${VERDICT_FILL[arm.verdict]}" stroke-width="2"><title>exact one-sided bound ${bound.toFixed(3)}</title></line>`,
    );
  if (arm.rate !== null)
    pieces.push(
      `<circle cx="${f(at(arm.rate))}" cy="${mid}" r="3.5" fill="${VERDICT_FILL[arm.verdict]}"><title>rate ${arm.rate.toFixed(3)}</title></circle>`,
    );
  const label = `rate ${arm.rate === null ? 'none' : arm.rate.toFixed(2)}, exact bounds [${arm.decision.lower.toFixed(2)}, ${arm.decision.upper.toFixed(2)}] against τ ${tau}`;
  return `<svg class="interval" role="img" aria-label="${escapeHtml(label)}" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}">${pieces.join('')}</svg>`;
}

/** A bar showing a rate and its interval on 0–1, for suite table cells. */
export function intervalBar(rate: number, lower: number, upper: number, width = 90, height = 10): string {
  const at = (v: number) => Math.max(0, Math.min(1, v)) * width;
  return `<svg class="ibar" aria-hidden="true" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}"><rect x="0" y="4" width="${width}" height="2" fill="#eaeef2"/><rect x="${f(at(lower))}" y="2" width="${f(Math.max(1, at(upper) - at(lower)))}" height="6" rx="2" fill="#0969da" opacity="0.4"/><circle cx="${f(at(rate))}" cy="5" r="2.5" fill="#0969da"/></svg>`;
}

/** Survival S(j): the share still holding after j rounds of pressure, as a step curve. */
export function survivalCurve(survival: readonly (number | null)[], width = 220, height = 70): string {
  const points = survival.map((s, j) => ({ j, s })).filter((p): p is { j: number; s: number } => p.s !== null);
  if (points.length === 0) return '';
  const pad = 8;
  const steps = Math.max(1, survival.length - 1);
  const x = (j: number) => pad + (j / steps) * (width - 2 * pad);
  const y = (s: number) => pad + (1 - s) * (height - 2 * pad);
  let d = '';
  points.forEach((p, i) => {
    d += i === 0 ? `M${f(x(p.j))},${f(y(p.s))}` : `H${f(x(p.j))}V${f(y(p.s))}`;
  });
  const dots = points
    .map(
      (p) =>
        `<circle cx="${f(x(p.j))}" cy="${f(y(p.s))}" r="2.5" fill="#0969da"><title>S(${p.j}) = ${p.s.toFixed(2)}</title></circle>`,
    )
    .join('');
  return `<svg class="survival" role="img" aria-label="survival after each round: ${points.map((p) => p.s.toFixed(2)).join(' ')}" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}"><rect x="${pad}" y="${pad}" width="${width - 2 * pad}" height="${height - 2 * pad}" fill="none" stroke="#d0d7de"/><path d="${d}" fill="none" stroke="#0969da" stroke-width="2"/>${dots}</svg>`;
}
