import { describe, expect, it } from 'vitest';
import { createVitest } from 'vitest/node';
import { fixture, readLatestRun, runVitest, tempDir } from './support.js';

const root = fixture('ide-discovery');

describe('IDE test explorers', () => {
  it('find testTrial blocks by static discovery, as the VS Code extension does, but not trial blocks', async () => {
    const vitest = await createVitest('test', { root, watch: false, reporters: [] });
    try {
      const specifications = await vitest.globTestSpecifications();
      const modules = await vitest.experimental_parseSpecifications(specifications);
      const names = modules.flatMap((m) => [...m.children.allTests()].map((t) => t.name));
      expect(names).toContain('an ordinary test');
      expect(names).toContain('listed before the first run');
      expect(names).toContain('listed under a local alias of testTrial');
      expect(names).not.toContain('listed only after the first run');
      expect(names).not.toContain('not listed: a test-like local name for trial');
    } finally {
      await vitest.close();
    }
  });

  it('run a trial picked by name, as the extension does with --testNamePattern, whole', async () => {
    const reportDir = tempDir('ide');
    const run = await runVitest(root, [
      '--reporter=riddle',
      `--outputFile.riddle=${reportDir}`,
      '--testNamePattern',
      '^listed before the first run$',
    ]);
    expect(run.exitCode).toBe(0);
    const { outcomes } = readLatestRun(reportDir);
    expect(outcomes.map((o) => o.trial.name)).toEqual(['listed before the first run']);
    expect(outcomes[0]?.attempts).toHaveLength(14);
  });
});
