import { readFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { fixture, readLatestRun, runVitest, tempDir, type VitestRun } from './support.js';

const project = fixture('meta-once');

describe("a trial's Outcome crosses from the worker to the reporter once", () => {
  const reportDir = tempDir('meta-once');
  const record = path.join(tempDir('meta-record'), 'seen.json');
  let run: VitestRun;

  beforeAll(async () => {
    run = await runVitest(project, ['--reporter=riddle', '--reporter=./meta-recorder.mjs'], {
      RIDDLE_FIXTURE_REPORT: reportDir,
      META_RECORD: record,
    });
  }, 900_000);

  it('not with the update sent when its annotation is recorded, only with its result', () => {
    expect(run.exitCode, run.output).toBe(0);
    const seen = JSON.parse(readFileSync(record, 'utf8')) as { trial: string; event: string; outcome: boolean }[];
    for (const trial of ['first', 'second', 'third']) {
      expect(seen.filter((s) => s.trial === trial)).toEqual([
        { trial, event: 'annotate', outcome: false },
        { trial, event: 'result', outcome: true },
      ]);
    }
    expect(
      readLatestRun(reportDir)
        .outcomes.map((o) => o.trial.name)
        .sort(),
    ).toEqual(['first', 'second', 'third']);
  });
});
