import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { fixture, runVitest, tempDir } from './support.js';

/** Characters that drive a terminal or reorder text: C0 (but tab, newline), DEL, C1, bidi controls. */
const CONTROL = /[\u0000-\u0008\u000B-\u001F\u007F-\u009F\u061C\u200E\u200F\u202A-\u202E\u2066-\u2069]/u;

function* files(dir: string): Generator<string> {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) yield* files(full);
    else yield full;
  }
}

const describeControl = (text: string) => {
  const found = CONTROL.exec(text);
  return found === null
    ? null
    : `U+${found[0].codePointAt(0)?.toString(16).padStart(4, '0')} near ${JSON.stringify(text.slice(Math.max(0, found.index - 30), found.index + 30))}`;
};

describe('hostile text from a subject', () => {
  it('reaches the terminal, Markdown and HTML as visible text: no escape sequences, bidi overrides or raw HTML', async () => {
    const reportDir = tempDir('hostile');
    const run = await runVitest(fixture('hostile'), ['--reporter=riddle', `--outputFile.riddle=${reportDir}`]);
    // The hostile text was observed and kept as evidence: JSON records keep it exactly, escaped as JSON.
    const records = [...files(reportDir)].filter((file) => /\.jsonl?$/.test(file));
    const kept = records.map((file) => readFileSync(file, 'utf8')).join('\n');
    expect(kept).toContain('hostile \\u001b[2Jnames');
    for (const part of ['\\u001b]52;c;', '\\u001b]8;;', '\u202e', '<script>', '\\u009d0;owned'])
      expect(kept).toContain(part);
    // Nothing riddle prints or renders carries it raw. Colours are off (NO_COLOR), so any ESC would be the subject's.
    expect(describeControl(run.output)).toBeNull();
    expect(run.output).toContain('␛[2J');
    expect(run.output).toContain('⟨U+202E⟩');
    const summary = readFileSync(
      path.join(reportDir, 'runs', readdirSync(path.join(reportDir, 'runs'))[0]!, 'summary.md'),
      'utf8',
    );
    for (const file of files(reportDir)) {
      if (!/\.(md|html)$/.test(file)) continue;
      const text = readFileSync(file, 'utf8');
      expect(describeControl(text), file).toBeNull();
      // The report's own markup may use scripts; the subject's HTML must arrive as text.
      expect(text, file).not.toContain('<script>alert(1)');
      expect(text, file).not.toContain('<img src=x onerror');
    }
    expect(summary).toContain('&lt;script&gt;');
    expect(summary).not.toContain('<b>');
  });
});
