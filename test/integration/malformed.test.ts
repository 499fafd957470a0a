import { describe, expect, it } from 'vitest';
import { fixture, runVitest, tempDir } from './support.js';

describe('malformed trial declarations', () => {
  it('fail at collection with the trial and the field named', async () => {
    const run = await runVitest(fixture('malformed'), [
      '--reporter=riddle',
      `--outputFile.riddle=${tempDir('malformed')}`,
    ]);
    expect(run.exitCode).toBe(1);
    const expected = [
      /trial "arm without input" \(trials\/missing-input\.test\.ts\): case\.input: is missing/,
      /trial "expects a criterion the rubric lacks" \(trials\/unknown-criterion\.test\.ts\): case\.expect: unknown criterion "answrs"/,
      /trial "asks for no attempts" \(trials\/zero-attempts\.test\.ts\): repeat\.n: must be a whole number ≥ 1, got 0/,
      /trial "threshold of one" \(trials\/bad-threshold\.test\.ts\): rubric\.threshold\.rate: must be strictly between 0 and 1, got 1/,
      /trial "same name twice" \(trials\/duplicate-names\.test\.ts\): name: another trial in this file has the same name/,
    ];
    for (const pattern of expected) expect(run.output).toMatch(pattern);
  });
});
