import { mkdtempSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { writeRunArtifacts } from '../../../src/report/index.js';

/** summary.md of an incomplete run whose one missing trial has the given name, file and reason. */
function summaryOf(missing: { name: string; file: string; reason: string }): string {
  const outputDir = mkdtempSync(path.join(os.tmpdir(), 'riddle-missing-banner-'));
  const { runDir } = writeRunArtifacts({
    outputDir,
    runId: 'run-1',
    startedAt: 's',
    finishedAt: 'f',
    versions: { riddle: '0', vitest: '4.1.12', node: 'v20' },
    outcomes: [],
    missing: [missing],
  });
  return readFileSync(path.join(runDir, 'summary.md'), 'utf8');
}

describe('the summary banner of an incomplete run', () => {
  it('lists a missing trial as one line of text: a name or reason cannot start a heading, an image, a link or HTML', () => {
    const summary = summaryOf({
      name: 'innocent\n# Injected heading\n![x](https://evil.example/p.png)',
      file: 'trials/[a](javascript:alert(1)).test.ts',
      reason: 'failed: <img src=x onerror=alert(1)> **bold** `code`\n\n> quoted\u001b[2J',
    });
    const banner = summary.slice(0, summary.indexOf('\n\n', summary.indexOf('\n- ')) + 1);
    const lines = banner.split('\n').filter((line) => line.startsWith('- '));
    expect(lines).toEqual([
      '- trials/\\[a\\](javascript:alert(1)).test.ts › innocent # Injected heading !\\[x\\](https://evil.example/p.png): failed: &lt;img src=x onerror=alert(1)&gt; \\*\\*bold\\*\\* \\`code\\`  &gt; quoted␛\\[2J',
    ]);
    expect(summary).not.toMatch(/^#\s*Injected/m);
    expect(summary).not.toMatch(/^> quoted/m);
    expect(summary).not.toContain('<img');
    expect(summary).not.toContain('\u001b');
  });

  it('keeps plain names, files and reasons as written', () => {
    const summary = summaryOf({
      name: 'a trial declared after it',
      file: 'trials/crash.trial.test.ts',
      reason: 'not finished: the worker running it exited (killed, out of memory, or crashed)',
    });
    expect(summary).toContain('> **incomplete run: 1 trial declared but without an Outcome**\n');
    expect(summary).toContain(
      '- trials/crash.trial.test.ts › a trial declared after it: not finished: the worker running it exited (killed, out of memory, or crashed)\n',
    );
  });
});
