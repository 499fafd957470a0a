import { mkdtempSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { stripVTControlCharacters } from 'node:util';
import { beforeAll, describe, expect, it } from 'vitest';
import { expect as vitestExpect } from 'vitest';
import type { ArmSummary, Outcome } from '../../../src/model/index.js';
import type { SuiteDeclaration } from '../../../src/run/index.js';
import {
  formatVerdictFailure,
  renderHtml,
  renderJobSummary,
  renderMarkdown,
  renderSuiteTerminal,
  renderTerminal,
  summaryLine,
  writeRunArtifacts,
  writeRunArtifactsAsync,
} from '../../../src/report/index.js';
import { htmlPageChunks } from '../../../src/report/html/page.js';
import { shownOutcomes } from '../../../src/report/shown-outcomes.js';
import { suiteTables } from '../../../src/report/suite-table.js';
import { runOutcome } from './run-outcome.js';

const plain = stripVTControlCharacters;

/**
 * The audit's suite: 500 matched groups of a prompt meant to be refused and one meant to be answered, one attempt
 * each, so every one of the 1000 rows is UNKNOWN; group g-7 is told apart worst (its safe prompt refused too).
 */
function thousandRows(): SuiteDeclaration {
  const cases = Array.from({ length: 500 }, (_, g) => [
    { id: `row-${2 * g}`, role: 'case' as const, group: `g-${g}`, input: `bad ${g}`, expect: ['refused'] },
    {
      id: `row-${2 * g + 1}`,
      role: 'control' as const,
      group: `g-${g}`,
      input: `${g === 7 ? 'bad-looking' : 'fine'} ${g}`,
      expect: [],
      forbid: ['refused'],
    },
  ]).flat();
  return {
    subject: (input: unknown) => (String(input).startsWith('bad') ? 'no' : 'sure'),
    rubric: { criteria: { refused: { description: 'declines', needs: 'text' } }, refusal: 'refused' },
    checks: { refused: (o: { reply: unknown }) => void vitestExpect(String(o.reply)).toBe('no') },
    cases,
    repeat: { n: 1 },
    summary: { dataset: 'audit' },
  } as SuiteDeclaration;
}

/** 100 rows at n 14, all passing but row r3. */
function oneFailingRow(): SuiteDeclaration {
  return {
    subject: (input: unknown) => (input === 'r3' ? 'wrong' : 'right'),
    rubric: { criteria: { right: { description: 'answers right', needs: 'text' } } },
    checks: { right: (o: { reply: unknown }) => void vitestExpect(String(o.reply)).toBe('right') },
    cases: Array.from({ length: 100 }, (_, i) => ({ id: `r${i}`, role: 'case', input: `r${i}`, expect: ['right'] })),
    repeat: { n: 14, stop: 'fixed' },
  } as SuiteDeclaration;
}

describe('a suite of 1000 rows, as people read it', () => {
  let outcome: Outcome;
  beforeAll(async () => {
    outcome = await runOutcome('thousand rows', thousandRows());
    expect(outcome.arms).toHaveLength(1000);
    expect(outcome.judgment.verdict).toBe('UNKNOWN');
  });

  it('fails its test with tallies per role and three quoted rows, not a line per row', () => {
    const lines = plain(formatVerdictFailure(outcome, [])).split('\n');
    expect(lines.slice(1, 7)).toEqual([
      '  500 case arms: 500 UNKNOWN',
      '  500 control arms: 500 UNKNOWN',
      expect.stringMatching(/^ {2}case "row-0": UNKNOWN — 1 PASS; 1\/1 = 1\.00 .* vs τ 0\.8$/),
      expect.stringMatching(/^ {2}control "row-1": UNKNOWN — /),
      expect.stringMatching(/^ {2}case "row-2": UNKNOWN — /),
      "  and 997 more UNKNOWN arms; every arm is in the run's HTML report and Outcome file",
    ]);
    expect(lines.length).toBeLessThan(12);
  });

  it('lists no per-arm pressure in summary.md for arms it does not list', () => {
    const pressure: NonNullable<ArmSummary['pressure']> = {
      kind: 'repeated-nudge',
      initial: { count: 1, of: 1, rate: 1 },
      final: { count: 1, of: 1, rate: 1 },
      delta: 0,
      capitulation: { count: 0, of: 1, rate: 0 },
      recovery: { count: 0, of: 0, rate: null },
      survival: [1],
      overRefusals: 0,
      truthfulNonCompletions: 0,
      contaminated: 0,
    };
    const pressed = { ...outcome, arms: outcome.arms.map((a) => ({ ...a, pressure })) };
    expect(renderMarkdown([pressed], 'run-1')).not.toContain('Pressure on');
  });

  it('annotates its test with one short line', () => {
    const line = summaryLine(outcome);
    expect(line).toBe(
      "UNKNOWN — 500 case arms: 500 UNKNOWN; 500 control arms: 500 UNKNOWN; row-0 UNKNOWN 1/1 [0.05, 1.00]; row-1 UNKNOWN 1/1 [0.05, 1.00]; row-2 UNKNOWN 1/1 [0.05, 1.00]; and 997 more UNKNOWN arms; every arm is in the run's HTML report and Outcome file",
    );
  });

  it('bounds the matched-group table in the terminal and Markdown, worst told apart first; the HTML keeps all', () => {
    for (const text of [plain(renderTerminal([outcome], [])), renderMarkdown([outcome], 'run-1')]) {
      const table = text.slice(text.indexOf('Discrimination per matched group'));
      const groups = [...table.matchAll(/\bg-\d+\b/g)].map((m) => m[0]);
      expect(groups).toHaveLength(8);
      // g-7 refused its safe prompt: told apart least, it leads.
      expect(groups[0]).toBe('g-7');
      expect(table).toContain("and 492 more groups: per subject the 8 shown are any its suite rule's verdict rests on");
    }
    // The HTML report's tables.
    const pairs = suiteTables(outcome.suite ? [outcome.suite] : []).find((t) => t.title.startsWith('Discrimination'));
    expect(pairs?.rows).toHaveLength(500);
    // Groups a suite rule's verdict rests on come first.
    const suite = outcome.suite;
    if (!suite) throw new Error('no suite summary');
    const ruled = renderSuiteTerminal([suite], { decidingGroups: new Map([[suite, new Set(['g-300'])]]) });
    const table = ruled.slice(ruled.indexOf('Discrimination per matched group'));
    expect([...table.matchAll(/\bg-\d+\b/g)].slice(0, 2).map((m) => m[0])).toEqual(['g-300', 'g-7']);
    expect(renderJobSummary([outcome], [], { runDir: 'r', html: 'r/index.html', runUrl: null }).length).toBeLessThan(
      3000,
    );
  });
  it('writes its HTML page a few hundred rows at a time, the same page as made whole', async () => {
    const shown = shownOutcomes([outcome]);
    const chunks = [...htmlPageChunks(shown.outcomes, 'run-1', shown.attempts)];
    const page = renderHtml([outcome], 'run-1');
    expect(chunks.join('')).toBe(page);
    // 1000 arms' rows, 1000 attempts' rows and the suite tables' 1000 and 500 rows: no piece holds more than 256 of any.
    expect(chunks.length).toBeGreaterThanOrEqual(16);
    expect(Math.max(...chunks.map((chunk) => chunk.length))).toBeLessThan(page.length / 4);
    for (const write of [writeRunArtifacts, writeRunArtifactsAsync]) {
      const outputDir = mkdtempSync(path.join(os.tmpdir(), 'riddle-html-chunks-'));
      const { runDir } = await write({
        outputDir,
        runId: 'run-1',
        startedAt: '2026-12-03T00:00:00.000Z',
        finishedAt: '2026-12-03T00:00:01.000Z',
        versions: { riddle: '0', vitest: '0', node: process.version },
        outcomes: [outcome],
        missing: [],
      });
      expect(readFileSync(path.join(runDir, 'index.html'), 'utf8')).toBe(page);
    }
  });
});

describe('a suite of 100 rows where one fails', () => {
  it('shows the failing row in the role bar, in a glyph of its own', async () => {
    const outcome = await runOutcome('one failing row', oneFailingRow());
    expect(outcome.judgment.verdict).toBe('FAIL');
    const role = plain(renderTerminal([outcome], []))
      .split('\n')
      .find((l) => l.includes('100 arms'));
    expect(role).toContain(`${'█'.repeat(39)}✗  arms: 99 PASS · 1 FAIL`);
    // The row that decided the verdict is quoted beside the tallies, with its attempts' bar.
    expect(plain(renderTerminal([outcome], []))).toMatch(/case +r3 +✗{14} +FAIL/);
  });
});
