import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { fixture, readLatestRun, runVitest, tempDir } from './support.js';

function* files(dir: string): Generator<string> {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) yield* files(full);
    else yield full;
  }
}

const planted = {
  PLANTED_API_KEY: 'sk-proj-PLANTEDkey0123456789abcdef',
  PLANTED_DB_PASSWORD: 'correct-horse-PLANTED-battery',
  // Not secret by its name, but by its value's known key prefix.
  PLANTED_PLAIN: 'ghp_PLANTEDtoken0123456789abcdefABCDEF',
  PLANTED_VISIBLE: 'just-a-region-eu-west-1',
};

describe('secrets in the environment', () => {
  it('never reach any artifact of a run, whatever the subject does with them', async () => {
    const reportDir = tempDir('secrets');
    const blobDir = tempDir('secrets-blob');
    const run = await runVitest(fixture('secrets'), ['--reporter=riddle', `--outputFile.riddle=${reportDir}`, '--reporter=blob', `--outputFile.blob=${path.join(blobDir, 'blob.json')}`], planted);
    expect(run.exitCode).toBe(0);
    const { outcomes } = readLatestRun(reportDir);
    const outcome = outcomes[0]!;
    // The leak was observed (so the test can fail): the subject did echo, write and throw.
    expect(outcome.attempts.map((a) => a.status).sort()).toEqual(['completed', 'completed', 'subject_error']);
    expect(JSON.stringify(outcome)).toContain('[redacted]');
    expect(outcome.records.environment.variables).toEqual({
      PLANTED_API_KEY: '[redacted]',
      PLANTED_DB_PASSWORD: '[redacted]',
      PLANTED_PLAIN: '[redacted]',
      PLANTED_VISIBLE: 'just-a-region-eu-west-1',
    });
    const leaks: string[] = [];
    const secrets = [planted.PLANTED_API_KEY, planted.PLANTED_DB_PASSWORD, planted.PLANTED_PLAIN];
    for (const file of [...files(reportDir), ...files(blobDir)]) {
      const text = readFileSync(file, 'latin1');
      for (const secret of secrets) if (text.includes(secret)) leaks.push(`${path.basename(file)} holds ${secret.slice(0, 8)}…`);
    }
    expect(leaks).toEqual([]);
    for (const secret of secrets) expect(run.output).not.toContain(secret);
  });
});
