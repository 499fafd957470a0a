import { describe, expect, it } from 'vitest';
import type { Outcome } from '../../../src/model/index.js';
import {
  githubAnnotations,
  renderJobSummary,
  renderMarkdown,
  type AttemptsSummary,
} from '../../../src/report/index.js';
import { markdownInline } from '../../../src/report/safe-text.js';
import { exampleOutcomes } from './example-run.js';

/** A window title (OSC), a screen clear (CSI), an 8-bit CSI (C1 0x9b) and a right-to-left override. */
const TERMINAL = '\u001b]0;PWNED-TITLE\u0007\u001b[2J\u009b31m \u202Eexe.txt\u202C';
/** The same, as every renderer shows it. */
const TERMINAL_SHOWN = '␛]0;PWNED-TITLE␇␛[2J⟨U+009B⟩31m ⟨U+202E⟩exe.txt⟨U+202C⟩';
/** The same in Markdown text, its brackets escaped. */
const TERMINAL_MD = '␛\\]0;PWNED-TITLE␇␛\\[2J⟨U+009B⟩31m ⟨U+202E⟩exe.txt⟨U+202C⟩';
/** Markdown blocks, an image, HTML and a workflow command, each on a line of its own. */
const BLOCKS = '\n# INJECTED HEADING\n| a | b |\n|---|---|\n![pixel](https://evil.example/p.png)';
const HTML = '<img src=x onerror=alert(1)>';
const COMMAND = '\n::warning::injected';
/** `BLOCKS` in Markdown text: on one line, the image escaped (and, in a table cell, the pipes). */
const BLOCKS_MD = ' # INJECTED HEADING | a | b | |---|---| !\\[pixel\\](https://evil.example/p.png)';
const BLOCKS_CELL = BLOCKS_MD.replace(/\|/g, '\\|');
/** Characters that drive a terminal or reorder text: C0 (but tab, newline), DEL, C1, bidi controls. */
const CONTROL = /[\u0000-\u0008\u000B-\u001F\u007F-\u009F\u061C\u200E\u200F\u202A-\u202E\u2066-\u2069]/u;

const NAME = `render ${TERMINAL} 100%, done: ${BLOCKS}`;
const ARM = `case${BLOCKS}`;
const REASON = `case | control${COMMAND}${BLOCKS} ${HTML}`;
const ERROR = `${TERMINAL} ${HTML} \`code\` *bold*`;
const NOTE = `note ${TERMINAL} ${HTML} ![pixel](https://evil.example/p.png)`;

/** The example's crashing trial (every attempt a subject_error) with a subject's text in its name, arm and errors. */
function hostileOutcome(): Outcome {
  const crashes = exampleOutcomes().find((o) => o.trial.name.endsWith('crashes'));
  if (!crashes) throw new Error('the example has a crashing trial');
  const arm = (id: string) => (id === 'case' ? ARM : id);
  return {
    ...crashes,
    trial: { ...crashes.trial, name: NAME },
    judgment: { ...crashes.judgment, reason: REASON },
    arms: crashes.arms.map((a) => ({ ...a, arm: arm(a.arm) })),
    records: {
      ...crashes.records,
      suite: { ...crashes.records.suite, arms: crashes.records.suite.arms.map((a) => ({ ...a, id: arm(a.id) })) },
    },
    attempts: crashes.attempts.map((a) =>
      a.status === 'completed' ? a : { ...a, arm: arm(a.arm), error: { ...a.error, message: ERROR } },
    ),
    findings: crashes.findings.map((f) => ({ ...f, message: NOTE })),
  };
}

/** An attempts file's summary, its reason an evaluator's note and criterion written by the subject. */
const hostileSummary = (): AttemptsSummary => ({
  count: 1,
  verdicts: [],
  contradicted: [],
  sandboxes: [],
  sandboxesKept: 0,
  rows: [],
  samples: [
    {
      attempt: `${ARM}#0`,
      verdict: 'FAIL',
      criterion: `declines${BLOCKS}`,
      what: `expected declines${TERMINAL} unmet`,
      message: NOTE,
      alike: 0,
    },
  ],
});

/** A workflow command's property or message as the runner reads it back (its escapes undone). */
const unescapeCommand = (s: string) =>
  s.replace(/%0D/g, '\r').replace(/%0A/g, '\n').replace(/%3A/g, ':').replace(/%2C/g, ',').replace(/%25/g, '%');

/** The cells of a Markdown table row, split where GFM splits them: at each `|` not escaped by a backslash. */
function tableCells(row: string): string[] {
  const cells: string[] = [];
  let current = '';
  for (let i = 0; i < row.length; i += 1) {
    const char = row[i];
    if (char === '\\') {
      current += row.slice(i, i + 2);
      i += 1;
    } else if (char === '|') {
      cells.push(current);
      current = '';
    } else current += char;
  }
  return cells.slice(1);
}

/** Lines a subject's text would have started: a heading, a table, an image, HTML or a workflow command. */
const INJECTED_LINE = /^(#+ INJECTED|\| a \||\|---\|---\|$|!\[|<img|::warning::injected)/;

describe('GitHub annotations of a trial named and failing with a subject’s text', () => {
  const [annotation, ...more] = githubAnnotations(
    [{ outcome: hostileOutcome(), line: 7, testFailed: true, summary: hostileSummary() }],
    { skipFailed: false },
  );

  it('are one workflow command line, with no control or bidi character left in it', () => {
    expect(more).toEqual([]);
    expect(annotation).toBeDefined();
    expect(annotation).not.toMatch(/[\r\n]/);
    expect(CONTROL.exec(annotation ?? '')).toBeNull();
    expect(annotation).toMatch(
      /^::error file=trials\/file-assistant\.trial\.test\.ts,line=7,title=riddle UNKNOWN%3A render /,
    );
  });

  it('keep the name, reason and notes readable, their controls shown, and escaped for the command after that', () => {
    // The command's own `::` ends its properties: the title is the last of them and holds no `:` or `,` of its own.
    const [, properties = '', message = ''] = /^::error (.*?)::(.*)$/.exec(annotation ?? '') ?? [];
    const title = properties.slice(properties.indexOf('title=') + 'title='.length);
    expect(title).not.toMatch(/[:,]/);
    expect(unescapeCommand(title)).toBe(`riddle UNKNOWN: render ${TERMINAL_SHOWN} 100%, done: ${BLOCKS}`);
    // Read back, the message is the reason and the attempts file's sample, lines and all, its controls made visible.
    expect(unescapeCommand(message)).toBe(
      `${REASON}\n  ${ARM}#0 FAIL: expected declines${TERMINAL_SHOWN} unmet — ${NOTE.replace(TERMINAL, TERMINAL_SHOWN)}`,
    );
    // The injected command sits inside the message, escaped, never at the start of a line the runner reads.
    expect(annotation).toContain('%0A::warning::injected%0A');
  });
});

describe('the job summary of a run with a subject’s text in it', () => {
  const outcome = hostileOutcome();
  const summary = renderJobSummary(
    [
      outcome,
      {
        ...outcome,
        trial: { ...outcome.trial, name: 'refuses_unsafe request (v2) — τ ≥ 0.8', file: 'trials/`x`|y.test.ts' },
      },
    ],
    [{ name: NAME, file: 'trials/missing.test.ts', reason: REASON }],
    { runDir: 'riddle-report/runs/r', html: 'riddle-report/runs/r/index.html', runUrl: null },
    [hostileSummary()],
  );
  const lines = summary.split('\n');

  it('holds no control or bidi character, and starts no line the subject wrote', () => {
    expect(CONTROL.exec(summary)).toBeNull();
    expect(lines.filter((line) => INJECTED_LINE.test(line))).toEqual([]);
    expect(summary).not.toContain('<img');
    // Markdown is not read inside an HTML block (the `<details>` line), so only there may `![` stay as written.
    expect(lines.filter((line) => !line.startsWith('<details') && line.includes('![pixel]('))).toEqual([]);
  });

  it('keeps every table row to its columns, a `|` in a name or reason escaped', () => {
    const rows = lines.filter((line) => line.startsWith('|'));
    const trialRows = rows.filter((row) => row.startsWith('| UNKNOWN |'));
    expect(trialRows).toHaveLength(3);
    for (const row of trialRows) expect(tableCells(row)).toHaveLength(5);
    const armRows = rows.filter((row) => /^\| (case|control)\b/.test(row));
    expect(armRows).toHaveLength(4);
    for (const row of armRows) expect(tableCells(row)).toHaveLength(6);
    expect(trialRows[0]).toBe(
      `| UNKNOWN | render ${TERMINAL_MD} 100%, done: ${BLOCKS_CELL} | \`trials/file-assistant.trial.test.ts\` | pass | case \\| control ::warning::injected${BLOCKS_CELL} &lt;img src=x onerror=alert(1)> |`,
    );
  });

  it('shows a file in a code span no backtick can close, and a plain name as written', () => {
    expect(summary).toContain('| refuses_unsafe request (v2) — τ ≥ 0.8 | ``trials/`x`\\|y.test.ts`` |');
    expect(summary).toContain('Report: `riddle-report/runs/r/index.html` · Outcomes: `riddle-report/runs/r`');
  });

  it('puts the name in the details summary as HTML text, on one line', () => {
    expect(summary).toContain(
      `<details open><summary>UNKNOWN — render ${TERMINAL_SHOWN} 100%, done:  # INJECTED HEADING | a | b | |---|---| ![pixel](https://evil.example/p.png)</summary>`,
    );
    expect(summary).toContain('<details open><summary>UNKNOWN — refuses_unsafe request (v2) — τ ≥ 0.8</summary>');
  });

  it('lists the reasons from the attempts file neutralised and escaped', () => {
    expect(lines).toContain(
      `- case${BLOCKS_CELL}#0 FAIL: expected declines${TERMINAL_MD} unmet — note ${TERMINAL_MD} &lt;img src=x onerror=alert(1)> !\\[pixel\\](https://evil.example/p.png)`,
    );
    // Without the attempts file's summary, from the attempts themselves: the subject's error.
    expect(lines).toContain(
      `- case${BLOCKS_CELL}#0 UNKNOWN: subject_error — subject subject: ${TERMINAL_MD} &lt;img src=x onerror=alert(1)> \\\`code\\\` \\*bold\\* (and 5 more alike)`,
    );
  });
});

describe('summary.md of a run with a subject’s text in it', () => {
  const markdown = renderMarkdown([hostileOutcome()], 'run-1');
  const lines = markdown.split('\n');

  it('holds no control or bidi character, and starts no line the subject wrote', () => {
    expect(CONTROL.exec(markdown)).toBeNull();
    expect(lines.filter((line) => INJECTED_LINE.test(line))).toEqual([]);
    expect(markdown).not.toContain('<img');
    expect(markdown).not.toContain('![pixel](');
  });

  it('escapes the trial’s heading and its `Why:` line, each on one line', () => {
    expect(lines).toContain(`## UNKNOWN — render ${TERMINAL_MD} 100%, done: ${BLOCKS_MD}`);
    expect(lines).toContain(`Why: case | control ::warning::injected${BLOCKS_MD} &lt;img src=x onerror=alert(1)&gt;`);
  });

  it('escapes list items: an evaluator’s note in a finding', () => {
    expect(lines).toContain(
      `- **subject** · subject-error: note ${TERMINAL_MD} &lt;img src=x onerror=alert(1)&gt; !\\[pixel\\](https://evil.example/p.png)`,
    );
  });

  it('keeps every table row to its columns', () => {
    expect(tableCells(lines.find((line) => line.startsWith('| **UNKNOWN** |')) ?? '')).toHaveLength(4);
    const armRows = lines.filter((line) => /^\| (case|control) /.test(line));
    expect(armRows).toHaveLength(2);
    for (const row of armRows) expect(tableCells(row)).toHaveLength(7);
    expect(armRows[0]).toMatch(new RegExp(`^\\| case${BLOCKS_CELL.replace(/[\\|[\]().]/g, '\\$&')} \\| case \\|`));
  });
});

describe('markdownInline', () => {
  it('puts text on one line and escapes the characters that begin inline markup', () => {
    expect(markdownInline('a\n# b\n- c')).toBe('a # b - c');
    expect(markdownInline('![x](u) [y](v) `z` *e* ~~s~~ a\\b')).toBe(
      '!\\[x\\](u) \\[y\\](v) \\`z\\` \\*e\\* \\~\\~s\\~\\~ a\\\\b',
    );
  });

  it('leaves a name as written when nothing in it could be markup: snake_case, punctuation, other scripts', () => {
    for (const name of ['refuses_unsafe_request', 'capital bot: answers (v1.1) — τ ≥ 0.8, 日本 #3', 'a_1_b'])
      expect(markdownInline(name)).toBe(name);
    expect(markdownInline('_private_ and trailing_')).toBe('\\_private\\_ and trailing\\_');
  });
});
