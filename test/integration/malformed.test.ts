import { existsSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { fixture, runVitest, tempDir, type VitestRun } from './support.js';

/** Each malformed declaration, the field its error names and the words it must say. */
const MALFORMED: readonly { trial: string; file: string; field: string; says: RegExp }[] = [
  {
    trial: 'misspelt repeat',
    file: 'misspelt-repeat',
    field: 'repet',
    says: /is not an option; did you mean "repeat"\? Accepted: subject, /,
  },
  {
    trial: 'misspelt seed',
    file: 'misspelt-seed',
    field: 'repeat.sed',
    says: /is not an option; did you mean "seed"\? Accepted: n, order, seed, concurrency, stop/,
  },
  { trial: 'misspelt passOn', file: 'misspelt-pass-on', field: 'passon', says: /did you mean "passOn"\?/ },
  {
    trial: 'misspelt needs',
    file: 'misspelt-needs',
    field: 'rubric.criteria.answers.neds',
    says: /did you mean "needs"\? Accepted: description, needs, required, target, labels/,
  },
  {
    trial: 'unknown evidence grade',
    file: 'unknown-grade',
    field: 'rubric.criteria.answers.needs',
    says: /got the string 'reciept'; did you mean 'receipt'\? Accepted: judgment, text, observation, receipt/,
  },
  {
    trial: 'unknown order',
    file: 'unknown-order',
    field: 'repeat.order',
    says: /got the string 'interleave'; did you mean 'interleaved'\? Accepted: sequential, interleaved, shuffled/,
  },
  {
    trial: 'unknown missing-evidence policy',
    file: 'unknown-missing-evidence',
    field: 'rubric.missingEvidence',
    says: /got the string 'ignore'\. Accepted: bound, exclude/,
  },
  {
    trial: 'unknown effect class',
    file: 'unknown-effect-class',
    field: 'effectClass',
    says: /got the string 'nuclear'\. Accepted: none, read, write, external, irreversible/,
  },
  {
    trial: 'rubric as a sentence',
    file: 'rubric-string',
    field: 'rubric',
    says: /expected a rubric \{ criteria, threshold, … \} or a Rubric record, got the string 'be good'/,
  },
  { trial: 'n as a string', file: 'n-as-string', field: 'repeat.n', says: /expected a number, got the string '20'/ },
  {
    trial: 'fixture that is a file',
    file: 'fixture-file',
    field: 'fixtures of arm "case"',
    says: /"trials\/common\.js" is a file, not a folder/,
  },
];

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

describe('malformed trial declarations', () => {
  const calls = path.join(tempDir('malformed-calls'), 'subject-calls.log');
  let run: VitestRun;

  beforeAll(async () => {
    run = await runVitest(fixture('malformed'), ['--reporter=riddle', `--outputFile.riddle=${tempDir('malformed')}`], {
      RIDDLE_MALFORMED_CALLS: calls,
    });
  });

  it('fail the run before any attempt: the subject is never called', () => {
    expect(run.exitCode, run.output).not.toBe(0);
    expect(existsSync(calls), run.output).toBe(false);
  });

  for (const language of ['ts', 'js'] as const) {
    for (const bad of MALFORMED) {
      it(`${bad.trial}, in a ${language === 'ts' ? 'TypeScript' : 'JavaScript'} trial file: names trial, file:line, field and what is accepted`, () => {
        // `trial(…)` is on line 7 of the TypeScript files (after the `any` declaration) and line 4 of the JavaScript ones.
        const line = language === 'ts' ? 7 : 4;
        const place = `trials/${bad.file}.test.${language}:${line}`;
        const message = new RegExp(
          `trial "${escape(bad.trial)} \\(${language}\\)" \\(${escape(place)}\\): ${escape(bad.field)}: [^\\n]*${bad.says.source}`,
        );
        expect(run.output).toMatch(message);
      });
    }
  }

  it('keeps the checks that need the records: unknown criteria, ranges, missing input, duplicate names', () => {
    const expected = [
      /trial "arm without input" \(trials\/missing-input\.test\.ts:4\): case\.input: is missing/,
      /trial "expects a criterion the rubric lacks" \(trials\/unknown-criterion\.test\.ts:4\): case\.expect: unknown criterion "answrs"/,
      /trial "asks for no attempts" \(trials\/zero-attempts\.test\.ts:4\): repeat\.n: must be a whole number ≥ 1, got the number 0/,
      /trial "threshold of one" \(trials\/bad-threshold\.test\.ts:4\): rubric\.threshold\.rate: must be strictly between 0 and 1, got the number 1/,
      /trial "same name twice" \(trials\/duplicate-names\.test\.ts:\d+\): name: another trial in this file has the same name/,
    ];
    for (const pattern of expected) expect(run.output).toMatch(pattern);
  });

  it('refuses a trial declared after Vitest collected the file (in a hook or a test), which it would drop unrun', () => {
    const expected = [
      /trial "declared in beforeAll" \(trials\/trial-in-hook\.test\.ts:7\): where it is declared: trial\(\) was called while the file’s tests ran/,
      /trial "declared in a group’s beforeAll" \(trials\/trial-in-group-hook\.test\.ts:7\): where it is declared: [^\n]*declare trials at the top level of the file or inside describe\(\)/,
      /trial "declared in a test" \(trials\/trial-in-test\.test\.ts:6\): where it is declared: /,
      /trial "given a timeout" \(trials\/third-argument\.test\.ts:5\): trial\(…\): takes a name and a declaration, nothing more/,
    ];
    for (const pattern of expected) expect(run.output).toMatch(pattern);
  });
});
