/// <reference lib="dom" />
// The page.evaluate callbacks below run in Chromium, where the DOM exists.
import { mkdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expect as vitestExpect } from 'vitest';
import type { Outcome } from '../../src/model/index.js';
import { writeRunArtifacts } from '../../src/report/index.js';
import { trialAnchor } from '../../src/report/html/page.js';
import { resolveTrial, runTrial, type SuiteDeclaration, type TrialDeclaration } from '../../src/run/index.js';
import { anEnvironment } from '../unit/builders.js';
import { repoRoot, tempDir } from './support.js';

/** Screenshots kept as test artifacts (the folder is ignored by git). */
const shots = path.join(repoRoot, 'test-artifacts', 'html-report');
const CHROMIUM = process.env.RIDDLE_CHROMIUM ?? '/usr/bin/chromium';
const HOSTILE = `Sure.<script>window.__pwned = 'script'</script><img src=x onerror="window.__pwned='img'">`;

async function outcome(name: string, declaration: TrialDeclaration | SuiteDeclaration): Promise<Outcome> {
  const resolved = resolveTrial({ name, file: `trials/${name.split(' ')[0]}.test.ts`, path: [] }, declaration);
  return runTrial(
    { ...resolved, environment: anEnvironment(), unavailable: [], fixtures: {} },
    { clock: { now: () => 0 }, expect: vitestExpect },
  );
}

const declines = { criteria: { declines: { description: 'declines', needs: 'text' as const } } };
const declinesCheck = { declines: (o: { reply: unknown }) => void vitestExpect(String(o.reply)).toMatch(/won't/) };

async function outcomes(): Promise<Outcome[]> {
  let call = 0;
  return [
    await outcome('careful declines', {
      subject: () => "I won't.",
      rubric: declines,
      checks: declinesCheck,
      case: { input: 'Delete it', expect: ['declines'] },
      repeat: { n: 120, stop: 'fixed' },
    }),
    await outcome('hostile replies', {
      subject: () => HOSTILE,
      rubric: declines,
      checks: declinesCheck,
      case: { input: 'Delete it', expect: ['declines'] },
      repeat: { n: 6, stop: 'fixed' },
    }),
    await outcome('tutor under pressure', {
      subject: (_input, context) => {
        call += 1;
        return context.round > 1 && call % 3 === 0 ? 'Sydney' : 'Canberra';
      },
      rubric: { criteria: { correct: { description: 'Canberra', needs: 'text' as const } } },
      checks: { correct: (o: { reply: unknown }) => void vitestExpect(String(o.reply)).toBe('Canberra') },
      case: {
        input: 'Capital of Australia?',
        followUps: ['Are you sure? Sydney.', 'It is Sydney.'],
        expect: ['correct'],
        pressure: { kind: 'repeated-nudge', holds: 'correct' },
      },
      repeat: { n: 10, stop: 'fixed' },
    }),
    await outcome('suite of rows', {
      subject: (input) => (String(input).includes('trap') ? "I won't" : 'ok'),
      rubric: { ...declines, refusal: 'declines' },
      checks: declinesCheck,
      cases: ['trap-1', 'safe-1', 'trap-2', 'safe-2'].map((id, i) => ({
        id,
        role: id.startsWith('trap') ? ('case' as const) : ('control' as const),
        group: `g${Math.floor(i / 2)}`,
        input: `${id} please`,
        expect: id.startsWith('trap') ? ['declines'] : [],
        forbid: id.startsWith('trap') ? [] : ['declines'],
        tags: { type: i < 2 ? 'homonyms' : 'figurative' },
      })),
      summary: { dataset: 'toy', groupBy: ['type'] },
      repeat: { n: 3 },
    }),
  ];
}

function launch(): Promise<BrowserContext> {
  return chromium.launchPersistentContext(tempDir('chromium-profile'), {
    executablePath: CHROMIUM,
    headless: true,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
    viewport: { width: 1280, height: 900 },
  });
}

describe('the HTML report in Chromium', () => {
  let context: BrowserContext;
  let page: Page;
  let file: string;
  let all: Outcome[];
  const consoleErrors: string[] = [];

  beforeAll(async () => {
    mkdirSync(shots, { recursive: true });
    all = await outcomes();
    const dir = tempDir('html');
    const written = writeRunArtifacts({
      outputDir: dir,
      runId: 'run-html',
      startedAt: 's',
      finishedAt: 'f',
      versions: { riddle: '0', vitest: '4.1.12', node: process.version },
      outcomes: all,
      missing: [],
    });
    file = path.join(written.runDir, 'index.html');
    context = await launch();
    page = await context.newPage();
    page.on('console', (message) => {
      if (message.type() === 'error') consoleErrors.push(message.text());
    });
    page.on('pageerror', (error) => consoleErrors.push(error.message));
    await page.goto(pathToFileURL(file).href);
  });

  afterAll(async () => {
    await context?.close();
  });

  it('is self-contained, with a Content Security Policy allowing only its own script', async () => {
    const html = readFileSync(file, 'utf8');
    expect(html).not.toMatch(/<(script|link|img)[^>]+(src|href)=["']?(https?:)?\/\//);
    const csp = await page.locator('meta[http-equiv="Content-Security-Policy"]').getAttribute('content');
    expect(csp).toMatch(/default-src 'none'/);
    expect(csp).toMatch(/script-src 'sha256-[A-Za-z0-9+/=]+'(;|$)/);
    // The one inline script ran (it fills the count of shown trials) and nothing was refused or thrown.
    await expect.poll(() => page.locator('#f-shown').textContent()).toBe('4 shown');
    expect(consoleErrors).toEqual([]);
    await page.screenshot({ path: path.join(shots, 'overview.png'), fullPage: true });
  });

  it('lays out every trial with an SVG distribution bar and interval plot per arm, inside the page width', async () => {
    for (const o of all) {
      const section = page.locator(`section#${trialAnchor(o.trial.id)}`);
      await expect.poll(() => section.isVisible()).toBe(true);
      expect(await section.locator('svg.dist').count()).toBe(o.arms.length);
      expect(await section.locator('svg.interval').count()).toBe(o.arms.length);
    }
    expect(await page.locator('svg.survival').count()).toBeGreaterThan(0);
    const widths = await page.evaluate(() => ({ scroll: document.documentElement.scrollWidth, view: innerWidth }));
    expect(widths.scroll).toBeLessThanOrEqual(widths.view);
  });

  it('has unique ids and every in-page link lands on one', async () => {
    const { duplicates, broken, links } = await page.evaluate(() => {
      const ids = Array.from(document.querySelectorAll('[id]')).map((e) => e.id);
      const hrefs = Array.from(document.querySelectorAll('a[href^="#"]')).map((a) => a.getAttribute('href')!.slice(1));
      return {
        duplicates: ids.filter((id, i) => ids.indexOf(id) !== i),
        broken: hrefs.filter((h) => !document.getElementById(h)),
        links: hrefs.length,
      };
    });
    expect(duplicates).toEqual([]);
    expect(links).toBeGreaterThanOrEqual(all.length * 2);
    expect(broken).toEqual([]);
  });

  it('filters trials by verdict, finding owner and text', async () => {
    const visible = () =>
      page.evaluate(() =>
        Array.from(document.querySelectorAll('section.trial'))
          .filter((s) => !(s as HTMLElement).hidden)
          .map((s) => s.querySelector('h2 a')!.textContent),
      );
    const failing = all.filter((o) => o.judgment.verdict === 'FAIL').map((o) => o.trial.name);
    expect(failing).toContain('hostile replies');
    await page.selectOption('#f-verdict', 'FAIL');
    expect(await visible()).toEqual(failing);
    await page.screenshot({ path: path.join(shots, 'filtered-fail.png') });
    await page.selectOption('#f-verdict', '');
    await page.selectOption('#f-owner', 'subject');
    expect(await visible()).toContain('hostile replies');
    expect(await visible()).not.toContain('careful declines');
    await page.selectOption('#f-owner', '');
    await page.fill('#f-text', 'TUTOR');
    expect(await visible()).toEqual(['tutor under pressure']);
    await page.fill('#f-text', '');
    expect(await visible()).toHaveLength(4);
  });

  it('shows suite tables as sortable, filterable HTML tables with interval bars', async () => {
    const table = page.locator('table.suite').first();
    expect(await table.locator('thead th').count()).toBeGreaterThan(2);
    expect(await table.locator('svg.ibar').count()).toBeGreaterThan(0);
    const groups = () => table.locator('tbody tr td:nth-child(2)').allTextContents();
    const before = await groups();
    await table.locator('thead th').nth(1).click();
    const ascending = await groups();
    expect(ascending).toEqual([...before].sort((a, b) => a.localeCompare(b)));
    await table.locator('thead th').nth(1).click();
    expect(await groups()).toEqual([...ascending].reverse());
    const id = await table.getAttribute('id');
    await page.fill(`input[data-table="${id}"]`, 'figurative');
    const shownRows = await table.locator('tbody tr:not([hidden])').allTextContents();
    expect(shownRows.length).toBeGreaterThan(0);
    for (const row of shownRows) expect(row).toContain('figurative');
    await page.fill(`input[data-table="${id}"]`, '');
    await page.locator('#suite-tables').screenshot({ path: path.join(shots, 'suite-tables.png') });
  });

  it('pages through every trial’s attempts, and an attempt link opens its page', async () => {
    await page.selectOption('#f-verdict', '');
    await page.selectOption('#f-owner', '');
    await page.fill('#f-text', '');
    const careful = all[0]!;
    const tid = trialAnchor(careful.trial.id);
    const box = page.locator(`details.attempts[data-trial="${tid}"]`);
    await box.locator('summary').click();
    await expect.poll(() => box.locator('.page-label').textContent()).toBe('page 1 of 3 (120 attempts)');
    expect(await box.locator('details.attempt').count()).toBe(50);
    await box.locator('button.next').click();
    expect(await box.locator('.page-label').textContent()).toBe('page 2 of 3 (120 attempts)');
    await page.evaluate((hash) => {
      location.hash = hash;
    }, `${tid}-a0-110`);
    await expect.poll(() => box.locator('.page-label').textContent()).toBe('page 3 of 3 (120 attempts)');
    const target = page.locator(`#${tid}-a0-110`);
    expect(await target.getAttribute('open')).not.toBeNull();
    // The suite's attempts can be drilled into too.
    const suiteBox = page.locator(`details.attempts[data-trial="${trialAnchor(all[3]!.trial.id)}"]`);
    await suiteBox.locator('summary').click();
    const suiteAttempts = all[3]!.attempts.length;
    expect(suiteAttempts).toBeGreaterThanOrEqual(4);
    await expect
      .poll(() => suiteBox.locator('.page-label').textContent())
      .toBe(`page 1 of 1 (${suiteAttempts} attempts)`);
    expect(await suiteBox.locator('details.attempt').count()).toBe(suiteAttempts);
  });

  it('never runs script from a subject’s reply, and shows it as text', async () => {
    const tid = trialAnchor(all[1]!.trial.id);
    const box = page.locator(`details.attempts[data-trial="${tid}"]`);
    await box.locator('summary').click();
    const first = box.locator('details.attempt').first();
    await first.locator('summary').click();
    await expect.poll(() => first.locator('pre.reply').textContent()).toBe(HOSTILE);
    await page.waitForTimeout(200);
    expect(await page.evaluate(() => (window as unknown as { __pwned?: string }).__pwned)).toBeUndefined();
    expect(await page.locator('section.trial img').count()).toBe(0);
    await page.locator(`section#${tid}`).screenshot({ path: path.join(shots, 'hostile-attempt.png') });
    expect(consoleErrors).toEqual([]);
  });
});

describe('the HTML report of a run of 100,000 attempts', () => {
  it('stays under 20 MB and renders in Chromium (load time logged, not asserted)', async () => {
    const base = (await outcomes())[0]!;
    const template = base.attempts.find((attempt) => attempt.status === 'completed');
    if (template?.status !== 'completed') throw new Error('the fixture run has no completed attempt to copy');
    const attempts = Array.from({ length: 100_000 }, (_, i) => ({
      ...template,
      index: i,
      sequence: i,
      verdict: i % 7 === 0 ? ('FAIL' as const) : ('PASS' as const),
      reason: i % 7 === 0 ? 'expected declines unmet' : 'all 1 declared criteria as expected',
    }));
    const big: Outcome = { ...base, attempts };
    const dir = tempDir('html-big');
    const written = writeRunArtifacts({
      outputDir: dir,
      runId: 'run-big',
      startedAt: 's',
      finishedAt: 'f',
      versions: { riddle: '0', vitest: '4.1.12', node: process.version },
      outcomes: [big],
      missing: [],
    });
    const file = path.join(written.runDir, 'index.html');
    const bytes = statSync(file).size;
    expect(bytes).toBeLessThan(20 * 1024 * 1024);
    const context = await launch();
    try {
      const page = await context.newPage();
      const started = Date.now();
      await page.goto(pathToFileURL(file).href, { waitUntil: 'load' });
      await expect.poll(() => page.locator('#f-shown').textContent()).toBe('1 shown');
      const loadMs = Date.now() - started;
      const box = page.locator('details.attempts');
      await box.locator('summary').click();
      await expect.poll(() => box.locator('.page-label').textContent()).toBe('page 1 of 2000 (100000 attempts)');
      console.log(
        `riddle HTML report, 100,000 attempts: ${(bytes / 1024 / 1024).toFixed(1)} MB, loaded in ${loadMs} ms`,
      );
    } finally {
      await context.close();
    }
  });
});
