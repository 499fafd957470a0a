import { mkdtempSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { renderHtml, renderTerminal, writeRunArtifacts } from '../../../src/report/index.js';
import { renderShownHtml } from '../../../src/report/html.js';
import { shownOutcomes } from '../../../src/report/shown-outcomes.js';
import { renderShownTerminal } from '../../../src/report/terminal.js';
import { asStreamed, exampleOutcomes, fileTree, runArtifacts } from './example-run.js';

const folder = () => mkdtempSync(path.join(os.tmpdir(), 'riddle-shown-outcomes-'));

/** The example run with a subject-derived name that would drive a terminal (ESC, an OSC title, a bidi override). */
const hostile = () =>
  exampleOutcomes().map((outcome, i) =>
    i === 0 ? { ...outcome, trial: { ...outcome.trial, name: `evil \u001b]0;title\u0007 \u202Ename` } } : outcome,
  );

describe('Outcomes neutralised once for the terminal and the HTML report', () => {
  it('renders the same terminal and HTML text from shown Outcomes as from the Outcomes themselves', () => {
    const outcomes = hostile();
    const missing = [{ name: 'gone \u001b[2J', reason: 'not finished' }];
    const shown = shownOutcomes(outcomes);
    const terminal = renderShownTerminal(shown, missing);
    expect(terminal).toBe(renderTerminal(outcomes, missing));
    expect(terminal).not.toMatch(/\u001b\]|\u202E|\u001b\[2J/);
    expect(terminal).toContain('evil ␛]0;title␇ ⟨U+202E⟩name');
    expect(renderShownHtml(shown, 'run-1')).toBe(renderHtml(outcomes, 'run-1'));
  });

  it('writes the same files whether the writer is given the shown Outcomes or neutralises them itself', async () => {
    const outcomes = hostile();
    const reference = folder();
    writeRunArtifacts(runArtifacts(reference, outcomes));
    const { compact, attemptFiles, summaries } = await asStreamed(outcomes, reference, folder());
    const dir = folder();
    writeRunArtifacts({
      ...runArtifacts(dir, compact),
      attemptFiles,
      summaries,
      shown: shownOutcomes(compact, summaries),
    });
    expect(fileTree(dir)).toEqual(fileTree(reference));
  });

  it('renders the HTML report from the shown Outcomes given, without neutralising the Outcomes again', () => {
    const outcomes = exampleOutcomes();
    const shown = shownOutcomes(outcomes);
    const marked = {
      ...shown,
      outcomes: shown.outcomes.map((o) => ({ ...o, trial: { ...o.trial, name: `${o.trial.name} (shown)` } })),
    };
    const dir = folder();
    writeRunArtifacts({ ...runArtifacts(dir, outcomes), shown: marked });
    expect(readFileSync(path.join(dir, 'runs', 'run-1', 'index.html'), 'utf8')).toContain('(shown)');
  });
});
