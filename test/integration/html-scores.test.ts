/// <reference lib="dom" />
// The page.evaluate callbacks below run in Chromium, where the DOM exists.
import { mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { Levenshtein } from 'autoevals';
import { chromium, type BrowserContext } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { expect as vitestExpect } from 'vitest';
import { autoevalsScorer } from '../../src/evaluate/index.js';
import { renderMarkdown, renderTerminal, writeRunArtifacts } from '../../src/report/index.js';
import { trialAnchor } from '../../src/report/html/page.js';
import { resolveTrial, runTrial } from '../../src/run/index.js';
import { anEnvironment } from '../unit/builders.js';
import { repoRoot, tempDir } from './support.js';

const shots = path.join(repoRoot, 'test-artifacts', 'html-report');
const CHROMIUM = process.env.RIDDLE_CHROMIUM ?? '/usr/bin/chromium';
const REPLIES = ['Paris', 'Paris.', 'paris', 'Pariss', 'Lyon', 'It is Paris', 'Paris', 'Parîs'];

/** A trial whose criterion is scored by autoevals' Levenshtein against the oracle, cutoff 0.8, over 16 attempts. */
async function scoredOutcome() {
  let call = 0;
  const resolved = resolveTrial(
    { name: 'capital by edit distance', file: 'trials/scores.test.ts', path: [] },
    {
      subject: () => REPLIES[call++ % REPLIES.length] ?? '',
      rubric: { criteria: { close: { description: 'close to Paris', needs: 'text', score: { cutoff: 0.8 } } } },
      evaluators: [autoevalsScorer({ scorer: Levenshtein, criteria: ['close'], revision: 'autoevals@0.3.0' })],
      case: { input: 'Capital of France?', expect: ['close'], oracle: 'Paris' },
      repeat: { n: 16, stop: 'fixed' },
    },
  );
  return runTrial(
    { ...resolved, environment: anEnvironment(), unavailable: [], fixtures: {} },
    { clock: { now: () => 0 }, expect: vitestExpect },
  );
}

describe('scores in the reports', () => {
  it('keeps the distribution in the Outcome and shows it in the terminal, Markdown and, as an SVG histogram, in Chromium', async () => {
    const outcome = await scoredOutcome();
    const [row] = outcome.arms[0]?.scores ?? [];
    expect(row).toMatchObject({ criterion: 'close', evaluator: 'autoevals Levenshtein', scored: 16, unscored: 0 });
    // Levenshtein against "Paris": 1, .833, .8 (case differs), .833, 0 (Lyon), .455, 1, .8 → 12 of 16 at the cutoff.
    expect(row?.atCutoff).toBe(12);
    expect(row?.histogram.reduce((a, b) => a + b, 0)).toBe(16);
    const terminal = renderTerminal([outcome], []);
    expect(terminal).toMatch(
      /score case close \(autoevals Levenshtein\).*: mean 0\.72 \[0\.\d\d, 0\.\d\d\] \(95%\) over 16 scored/,
    );
    expect(renderMarkdown([outcome], 'run-scores')).toMatch(
      /- score case close \(autoevals Levenshtein\): mean 0\.72 \[/,
    );

    const dir = tempDir('html-scores');
    const written = writeRunArtifacts({
      outputDir: dir,
      runId: 'run-scores',
      startedAt: 's',
      finishedAt: 'f',
      versions: { riddle: '0', vitest: '4.1.12', node: process.version },
      outcomes: [outcome],
      missing: [],
    });
    const file = path.join(written.runDir, 'index.html');
    expect(readFileSync(file, 'utf8')).toContain('<svg class="scores"');
    mkdirSync(shots, { recursive: true });
    const context: BrowserContext = await chromium.launchPersistentContext(tempDir('chromium-profile'), {
      executablePath: CHROMIUM,
      headless: true,
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking'],
      viewport: { width: 1280, height: 900 },
    });
    try {
      const page = await context.newPage();
      const errors: string[] = [];
      page.on('pageerror', (error) => errors.push(error.message));
      await page.goto(pathToFileURL(file).href);
      const figure = page.locator(`section#${trialAnchor(outcome.trial.id)} figure.scores`);
      await expect.poll(() => figure.isVisible()).toBe(true);
      expect(await figure.locator('figcaption').textContent()).toMatch(
        /^Scores of case, close \(autoevals Levenshtein\): mean 0\.72 \[.*\] \(95%\) over 16 scored; median .*; 12\/16 ≥ cutoff 0\.8$/,
      );
      const chart = await figure.locator('svg.scores').evaluate((svg) => {
        const box = svg.getBoundingClientRect();
        const bins = Array.from(svg.querySelectorAll('rect.bin')).map((r) => ({
          height: Number(r.getAttribute('height')),
          fill: r.getAttribute('fill'),
          title: r.querySelector('title')?.textContent ?? '',
        }));
        const cutoff = svg.querySelector('line.cutoff');
        const mean = svg.querySelector('circle.mean');
        return {
          width: box.width,
          bins,
          cutoffX: Number(cutoff?.getAttribute('x1')),
          meanX: Number(mean?.getAttribute('cx')),
        };
      });
      expect(chart.width).toBeGreaterThan(100);
      expect(chart.bins).toHaveLength(10);
      // Scores at or above the cutoff are drawn green, the rest grey; the tallest bin holds the 0.8s and 0.83s.
      expect(chart.bins[8]).toMatchObject({ fill: '#1a7f37', title: '8 scores in [0.8–0.9)' });
      expect(chart.bins[0]).toMatchObject({ fill: '#8c959f', title: '2 scores in [0.0–0.1)' });
      expect(chart.bins[9]?.title).toBe('4 scores in [0.9–1.0]');
      expect(chart.cutoffX).toBeGreaterThan(chart.meanX);
      expect(errors).toEqual([]);
      await figure.screenshot({ path: path.join(shots, 'scores.png') });
    } finally {
      await context.close();
    }
  }, 120_000);
});
