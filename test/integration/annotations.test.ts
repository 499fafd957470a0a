import { readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { fixture, runVitest, tempDir, type VitestRun } from './support.js';

const project = fixture('annotations');

/** One run of the fixture (a passing and a failing trial) with these reporters, and what each trial was annotated with. */
async function runWith(
  name: string,
  reporters: (folder: string) => string[],
): Promise<VitestRun & { folder: string; annotations: Record<string, string[]> }> {
  // Each run registers its policy afresh: the runs share the fixture.
  rmSync(path.join(project, '.riddle'), { recursive: true, force: true });
  const folder = tempDir(`annotations-${name}`);
  const record = path.join(folder, 'annotations.jsonl');
  const run = await runVitest(project, reporters(folder), {
    RIDDLE_FIXTURE_REPORT: path.join(folder, 'report'),
    ANNOTATIONS_RECORD: record,
  });
  const annotations: Record<string, string[]> = {};
  for (const line of readFileSync(record, 'utf8').trim().split('\n')) {
    const seen = JSON.parse(line) as { trial: string; annotations: string[] };
    annotations[seen.trial] = seen.annotations;
  }
  return { ...run, folder, annotations };
}

describe("a trial's annotation, made where a reporter shows it", () => {
  let riddleOnly: Awaited<ReturnType<typeof runWith>>;
  let verbose: Awaited<ReturnType<typeof runWith>>;
  let junit: Awaited<ReturnType<typeof runWith>>;

  beforeAll(async () => {
    riddleOnly = await runWith('riddle', () => ['--reporter=riddle']);
    verbose = await runWith('verbose', () => ['--reporter=riddle', '--reporter=verbose']);
    junit = await runWith('junit', (folder) => [
      '--reporter=riddle',
      '--reporter=junit',
      `--outputFile.junit=${path.join(folder, 'junit.xml')}`,
    ]);
  }, 900_000);

  it('only on the failing trial with the riddle reporter alone, which shows annotations of failed tests only', () => {
    expect(riddleOnly.exitCode, riddleOnly.output).toBe(1);
    expect(riddleOnly.annotations).toEqual({ passes: [], fails: ['FAIL — case FAIL 0/14 [0.00, 0.19]'] });
    // Vitest's output shows it under the failed test.
    expect(riddleOnly.output).toContain('↳ FAIL — case FAIL 0/14 [0.00, 0.19]');
    expect(riddleOnly.output).not.toContain('↳ PASS');
  });

  it('on every trial beside the verbose reporter, which shows each test’s annotations', () => {
    expect(verbose.exitCode, verbose.output).toBe(1);
    expect(verbose.annotations).toEqual({
      passes: ['PASS — case PASS 14/14 [0.81, 1.00]'],
      fails: ['FAIL — case FAIL 0/14 [0.00, 0.19]'],
    });
    expect(verbose.output).toContain('↳ PASS — case PASS 14/14 [0.81, 1.00]');
  });

  it('on every trial beside the JUnit reporter, which writes each test’s annotations as properties', () => {
    expect(junit.exitCode, junit.output).toBe(1);
    expect(junit.annotations.passes).toEqual(['PASS — case PASS 14/14 [0.81, 1.00]']);
    const xml = readFileSync(path.join(junit.folder, 'junit.xml'), 'utf8');
    expect(xml).toContain('<property name="riddle" value="PASS — case PASS 14/14 [0.81, 1.00]">');
  });
});
