import pc from 'picocolors';
import type { ArmSummary, AttemptRecord, Outcome, Verdict } from '../model/index.js';
import { armTally } from './verdict-text.js';

const COLOUR: Record<Verdict, (s: string) => string> = {
  PASS: pc.green,
  PARTIAL: pc.yellow,
  FAIL: pc.red,
  CONTRADICTED: pc.magenta,
  UNKNOWN: pc.gray,
  DISPUTED: pc.cyan,
};
const GLYPH: Record<Verdict, string> = { PASS: '█', PARTIAL: '▆', FAIL: '█', CONTRADICTED: '▓', UNKNOWN: '░', DISPUTED: '▒' };
const BADGE: Record<Verdict, string> = { PASS: '✓', PARTIAL: '◐', FAIL: '✗', CONTRADICTED: '!', UNKNOWN: '?', DISPUTED: '≠' };
const BAR_WIDTH = 40;

/** One cell per attempt in run order (scaled when there are more attempts than cells); `·` for attempts not run. */
export function attemptBar(attempts: readonly AttemptRecord[], notRun: number): string {
  const cells = [...attempts.map((a) => COLOUR[a.verdict](GLYPH[a.verdict])), ...Array.from({ length: notRun }, () => pc.dim('·'))];
  if (cells.length <= BAR_WIDTH) return cells.join('');
  const step = cells.length / BAR_WIDTH;
  return Array.from({ length: BAR_WIDTH }, (_, i) => cells[Math.floor(i * step)]).join('');
}

const num = (x: number | null) => (x === null ? '—' : x.toFixed(2));

function armLine(outcome: Outcome, arm: ArmSummary): string {
  const attempts = outcome.attempts.filter((a) => a.arm === arm.arm).sort((a, b) => a.index - b.index);
  const rate = arm.rate === null ? 'rate —' : `rate ${num(arm.rate)}${arm.wilson ? ` [${num(arm.wilson.lower)}, ${num(arm.wilson.upper)}]` : ''}`;
  return `    ${pc.dim(arm.role.padEnd(7))} ${arm.arm.padEnd(12)} ${attemptBar(attempts, arm.notRun.count)}  ${COLOUR[arm.verdict](arm.verdict.padEnd(12))} ${rate}  ${pc.dim(armTally(arm))}`;
}

/** The riddle section of the terminal output: per trial its verdict, each arm's bar and rate, and why. */
export function renderTerminal(outcomes: readonly Outcome[], missing: readonly { name: string; reason: string }[]): string {
  if (outcomes.length === 0 && missing.length === 0) return '';
  const byVerdict = new Map<Verdict, number>();
  for (const o of outcomes) byVerdict.set(o.judgment.verdict, (byVerdict.get(o.judgment.verdict) ?? 0) + 1);
  const head = [...byVerdict.entries()].map(([v, n]) => COLOUR[v](`${n} ${v}`)).join(pc.dim(' · '));
  const lines = ['', `${pc.inverse(pc.bold(' riddle '))} ${outcomes.length} trial${outcomes.length === 1 ? '' : 's'}  ${head}`, ''];
  for (const outcome of outcomes) {
    const { verdict, reason, testOutcome } = outcome.judgment;
    const skipped = testOutcome === 'skip' ? pc.dim(' (skipped)') : '';
    lines.push(` ${COLOUR[verdict](`${BADGE[verdict]} ${verdict}`)} ${pc.bold(outcome.trial.name)}${skipped}  ${pc.dim(outcome.trial.file)}`);
    for (const arm of outcome.arms) lines.push(armLine(outcome, arm));
    const mc = outcome.judgment.matchedControl;
    if (mc && mc.discrimination !== null) {
      const flags = [mc.overRefusal ? pc.yellow('over-refusal') : '', mc.underRefusal ? pc.yellow('under-refusal') : ''].filter(Boolean).join(' ');
      lines.push(`    ${pc.dim('refusal')} case ${num(mc.caseRefusalRate)} · control ${num(mc.controlRefusalRate)} · discrimination ${num(mc.discrimination)} ${flags}`);
    }
    lines.push(`    ${pc.dim('why')} ${reason}`);
    for (const warning of outcome.warnings) lines.push(`    ${pc.yellow('warning')} ${warning}`);
    lines.push('');
  }
  for (const m of missing) lines.push(` ${pc.gray('? UNKNOWN')} ${pc.bold(m.name)}  ${pc.dim(`no Outcome: ${m.reason}`)}`);
  return lines.join('\n');
}
