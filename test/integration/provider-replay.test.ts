import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Outcome } from '../../src/model/index.js';
import { outcomeNamed, readLatestRun, repoRoot, runVitest, tempDir, type VitestRun } from './support.js';

/** The example's capital bot, run in CI from its committed recordings: no key, no network. */
describe('example-project: a trial replayed from recorded provider traffic', () => {
  const reportDir = tempDir('replay');
  let run: VitestRun;
  let outcome: Outcome;

  beforeAll(async () => {
    run = await runVitest(
      path.join(repoRoot, 'example-project'),
      ['--reporter=riddle', `--outputFile.riddle=${reportDir}`, 'trials/provider-replay.trial.test.ts'],
      // A key in the environment must change nothing: replay never sends a request.
      { OPENAI_API_KEY: 'sk-integration-test-key-that-must-never-be-used', RIDDLE_RECORD: '' },
    );
    outcome = outcomeNamed(readLatestRun(reportDir).outcomes, 'capital bot: answers from recorded provider traffic');
  }, 180_000);

  it('answers every attempt from the recordings, marks them not independent and pins the recordings', () => {
    expect(run.exitCode).toBe(0);
    expect(outcome.attempts.map((a) => [a.status, a.verdict])).toEqual([
      ['completed', 'PASS'],
      ['completed', 'PASS'],
      ['completed', 'PASS'],
    ]);
    expect(outcome.execution.providers).toMatchObject({
      mode: 'replay',
      folder: 'recordings/trials-provider-replay-trial/capital-bot-answers-from-recorded-provider-traffic',
      recordings: expect.stringMatching(/^sha256:/),
    });
    expect(outcome.execution.providers?.attempts.every((a) => a.replayed === 1 && a.failure === null)).toBe(true);
    expect(outcome.execution.independentAttempts).toBe(false);
    const pinned = outcome.records.environment.dependencies.find((d) => d.name.startsWith('recordings '));
    expect(pinned?.detail).toContain(outcome.execution.providers?.recordings ?? 'missing');
  });

  it('costs each attempt from its replayed receipt at the declared price, within the budget', () => {
    const [first] = outcome.attempts;
    expect(first?.observation?.receipts).toEqual([
      expect.objectContaining({
        provider: 'openai',
        model: 'gpt-4o-mini-2024-07-18',
        inputTokens: 27,
        outputTokens: 8,
      }),
    ]);
    // 27 × $0.15/M + 8 × $0.60/M per attempt.
    expect(outcome.cost.attempts.map((a) => a.usd)).toEqual([8.85e-6, 8.85e-6, 8.85e-6]);
    expect(outcome.cost.arms).toEqual([{ arm: 'case', usd: 2.655e-5, inputTokens: 81, outputTokens: 24 }]);
    expect(outcome.execution.budget).toMatchObject({ exhausted: null, blockedAttempts: 0 });
    expect(run.output).toMatch(/cost \$0\.0000266 · 81 in \/ 24 out tokens/);
    expect(run.output).toMatch(/providers replay · 3\/3 requests replayed/);
    const runs = path.join(reportDir, 'runs');
    const [runId] = readdirSync(runs);
    expect(readFileSync(path.join(runs, runId ?? '', 'index.html'), 'utf8')).toContain('<h4>Cost</h4>');
  });
});
