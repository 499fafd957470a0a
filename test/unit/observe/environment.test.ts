import { describe, expect, test } from 'vitest';
import { captureEnvironment, type EnvironmentInput } from '../../../src/observe/index.js';

const root = new URL('../../../', import.meta.url).pathname;
const input: EnvironmentInput = {
  subject: { kind: 'function', name: 's', revision: 'r1', revisionSource: 'declared' },
  tools: [
    { name: 'b', description: 'B', effect: 'write', inputSchema: { type: 'object' }, run: () => null },
    { name: 'a', description: 'A', effect: 'read', inputSchema: { type: 'object' }, run: () => null },
  ],
  prompts: { system: 'You are careful.' },
  dependencies: [],
  budgets: { timeoutMs: 1000, maxOutputBytes: 2000, maxRounds: 3 },
  maxEffect: 'write',
  variables: ['RIDDLE_ENV_TEST_MODEL', 'RIDDLE_ENV_TEST_API_KEY', 'RIDDLE_ENV_TEST_UNSET'],
  projectRoot: root,
  independentAttempts: true,
  notes: [],
};

describe('captureEnvironment', () => {
  test('records the machine, harness versions, project state, prompts and tools by fingerprint', () => {
    const environment = captureEnvironment(input);
    expect(environment.runtime.node).toBe(process.version);
    expect(environment.runtime.cpuCount).toBeGreaterThan(0);
    expect(environment.harness.riddle).toMatch(/^\d+\.\d+\.\d+/);
    expect(environment.harness.vitest).toMatch(/^4\./);
    expect(environment.project.gitCommit).toMatch(/^[0-9a-f]{40}$/);
    expect(environment.project.lockfileSha256).toMatch(/^[0-9a-f]{64}$/);
    expect(environment.prompts).toEqual([{ name: 'system', fingerprint: expect.stringMatching(/^sha256:/) }]);
    expect(JSON.stringify(environment)).not.toContain('You are careful.');
    expect(environment.tools.map((t) => [t.name, t.effect])).toEqual([
      ['a', 'read'],
      ['b', 'write'],
    ]);
    expect(environment.budgets).toEqual({ timeoutMs: 1000, maxOutputBytes: 2000, maxRounds: 3 });
    expect(environment.effectPolicy).toEqual({ maxEffect: 'write' });
  });

  test('variables only from the allowlist, secret-looking values redacted, unset ones absent', () => {
    process.env.RIDDLE_ENV_TEST_MODEL = 'gpt-test';
    process.env.RIDDLE_ENV_TEST_API_KEY = 'abc123abc123';
    process.env.RIDDLE_ENV_TEST_OTHER = 'not listed';
    try {
      expect(captureEnvironment(input).variables).toEqual({
        RIDDLE_ENV_TEST_API_KEY: '[redacted]',
        RIDDLE_ENV_TEST_MODEL: 'gpt-test',
      });
    } finally {
      delete process.env.RIDDLE_ENV_TEST_MODEL;
      delete process.env.RIDDLE_ENV_TEST_API_KEY;
      delete process.env.RIDDLE_ENV_TEST_OTHER;
    }
  });

  test('declared versions win over the detected ones', () => {
    expect(captureEnvironment({ ...input, versions: { riddle: '9.9.9', vitest: '8.8.8' } }).harness).toEqual({
      riddle: '9.9.9',
      vitest: '8.8.8',
    });
  });
});
