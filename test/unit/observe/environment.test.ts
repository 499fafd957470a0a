import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import {
  adoptHarnessVersions,
  adoptRunFacts,
  captureEnvironment,
  captureRunFacts,
  captureRunFactsOf,
  forgetRunFacts,
  harnessVersions,
  runFacts,
  type EnvironmentInput,
} from '../../../src/observe/index.js';
import { processSecretValues } from '../../../src/observe/secrets.js';
import { sha256 } from '../../../src/model/index.js';

// Count the git processes riddle starts, to show the run facts are captured once.
const gitCalls = vi.hoisted(() => ({ count: 0 }));
vi.mock('node:child_process', async (importOriginal) => {
  const actual = await importOriginal<typeof import('node:child_process')>();
  return {
    ...actual,
    execFile: ((...args: Parameters<typeof actual.execFile>) => {
      if (args[0] === 'git') gitCalls.count += 1;
      return actual.execFile(...args);
    }) as typeof actual.execFile,
  };
});

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
  isolation: { engine: 'bubblewrap', network: 'none' },
  independentAttempts: true,
  notes: [],
};

describe('captureEnvironment', () => {
  test('records the machine, harness versions, project state, prompts and tools by fingerprint', async () => {
    const environment = await captureEnvironment(input);
    expect(environment.runtime.node).toBe(process.version);
    expect(environment.isolation).toEqual({ engine: 'bubblewrap', network: 'none' });
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

  test('variables only from the allowlist, secret-looking values redacted, unset ones absent', async () => {
    process.env.RIDDLE_ENV_TEST_MODEL = 'gpt-test';
    process.env.RIDDLE_ENV_TEST_API_KEY = 'abc123abc123';
    process.env.RIDDLE_ENV_TEST_OTHER = 'not listed';
    try {
      expect((await captureEnvironment(input)).variables).toEqual({
        RIDDLE_ENV_TEST_API_KEY: expect.stringMatching(/^\[redacted [0-9a-f]{12}\]$/),
        RIDDLE_ENV_TEST_MODEL: 'gpt-test',
      });
    } finally {
      delete process.env.RIDDLE_ENV_TEST_MODEL;
      delete process.env.RIDDLE_ENV_TEST_API_KEY;
      delete process.env.RIDDLE_ENV_TEST_OTHER;
    }
  });

  test("the run's harness versions are adopted when they name this riddle's version, and refused otherwise", () => {
    const root = mkdtempSync(path.join(os.tmpdir(), 'riddle-harness-'));
    try {
      const own = harnessVersions(process.cwd()).riddle;
      for (const provided of [null, 'v', {}, { riddle: own }, { riddle: '0.0.0-other', vitest: '9.9.9' }])
        expect(adoptHarnessVersions(root, provided)).toBe(false);
      expect(adoptHarnessVersions(root, { riddle: own, vitest: '9.9.9' })).toBe(true);
      expect(harnessVersions(root)).toEqual({ riddle: own, vitest: '9.9.9' });
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });

  test('declared versions win over the detected ones', async () => {
    expect((await captureEnvironment({ ...input, versions: { riddle: '9.9.9', vitest: '8.8.8' } })).harness).toEqual({
      riddle: '9.9.9',
      vitest: '8.8.8',
    });
  });
});

describe('run facts', () => {
  let repo = '';
  const git = (...args: string[]) =>
    execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', ...args], { cwd: repo, encoding: 'utf8' }).trim();
  beforeEach(() => {
    repo = mkdtempSync(path.join(os.tmpdir(), 'riddle-run-facts-'));
    git('init', '-q');
    writeFileSync(path.join(repo, 'package-lock.json'), '{}');
    git('add', '.');
    git('commit', '-q', '-m', 'first');
    forgetRunFacts();
  });
  afterEach(() => {
    forgetRunFacts();
    rmSync(repo, { recursive: true, force: true });
  });

  test('git commit, status and lockfile are captured once for many trials, and are right', async () => {
    const before = gitCalls.count;
    const environments = await Promise.all(
      Array.from({ length: 20 }, () => captureEnvironment({ ...input, projectRoot: repo })),
    );
    expect(gitCalls.count - before).toBe(2); // rev-parse and status, once
    for (const environment of environments)
      expect(environment.project).toEqual({
        gitCommit: git('rev-parse', 'HEAD'),
        dirty: false,
        lockfileSha256: expect.stringMatching(/^[0-9a-f]{64}$/),
      });
  });

  test('kept until forgotten: a change after the capture shows in the next run, not this one', async () => {
    expect((await runFacts(repo)).project.dirty).toBe(false);
    writeFileSync(path.join(repo, 'package-lock.json'), '{"changed":true}');
    expect((await runFacts(repo)).project.dirty).toBe(false);
    forgetRunFacts();
    const fresh = await runFacts(repo);
    expect(fresh.project.dirty).toBe(true);
    expect(fresh.project.gitCommit).toBe(git('rev-parse', 'HEAD'));
  });

  test('facts captured once for the run are adopted as they are, and anything else is refused', async () => {
    const captured = await captureRunFacts(repo);
    forgetRunFacts();
    const before = gitCalls.count;
    const provided = { ...captured, project: { ...captured.project, gitCommit: 'c0ffee' } };
    expect(adoptRunFacts(repo, provided)).toBe(true);
    expect((await captureEnvironment({ ...input, projectRoot: repo })).project.gitCommit).toBe('c0ffee');
    expect(gitCalls.count).toBe(before);
    forgetRunFacts();
    for (const value of [
      null,
      undefined,
      'facts',
      {},
      { project: captured.project },
      { ...captured, project: { ...captured.project, dirty: 'no' } },
      { ...captured, runtime: { ...captured.runtime, cpuCount: 'two' } },
    ])
      expect(adoptRunFacts(repo, value)).toBe(false);
    // Refused: this process captures its own.
    expect((await runFacts(repo)).project.gitCommit).toBe(git('rev-parse', 'HEAD'));
    expect(gitCalls.count - before).toBe(2);
  });

  test('a git that does not answer leaves the commit and status unknown rather than holding the capture', async () => {
    const bin = mkdtempSync(path.join(os.tmpdir(), 'riddle-hung-git-'));
    writeFileSync(path.join(bin, 'git'), '#!/bin/sh\nexec sleep 30\n', { mode: 0o755 });
    const pathBefore = process.env.PATH;
    process.env.PATH = `${bin}${path.delimiter}${pathBefore ?? ''}`;
    try {
      const facts = await captureRunFacts(repo, 200);
      expect(facts.project.gitCommit).toBeNull();
      expect(facts.project.dirty).toBeNull();
      expect(facts.project.lockfileSha256).toMatch(/^[0-9a-f]{64}$/);
    } finally {
      process.env.PATH = pathBefore;
      rmSync(bin, { recursive: true, force: true });
    }
  });

  test('a lockfile that is not a regular file is recorded as unknown, without waiting on it', async () => {
    // A FIFO in the lockfile's place (a subject can write outside its workspace): opening it to read would wait for a
    // writer for good, and the run's start with it.
    rmSync(path.join(repo, 'package-lock.json'));
    execFileSync('mkfifo', [path.join(repo, 'package-lock.json')]);
    expect((await captureRunFacts(repo)).project.lockfileSha256).toBeNull();
    // A folder of the name is no lockfile: the search goes on to the next name.
    rmSync(path.join(repo, 'package-lock.json'));
    mkdirSync(path.join(repo, 'package-lock.json'));
    writeFileSync(path.join(repo, 'yarn.lock'), 'lock');
    expect((await captureRunFacts(repo)).project.lockfileSha256).toBe(sha256('lock'));
  });

  test("several roots at once: one status per repository, each root's own lockfile, none outside a repository", async () => {
    const pkg = path.join(repo, 'packages', 'a');
    mkdirSync(pkg, { recursive: true });
    writeFileSync(path.join(pkg, 'pnpm-lock.yaml'), 'a');
    git('add', '.');
    git('commit', '-q', '-m', 'package a');
    writeFileSync(path.join(repo, 'untracked.txt'), 'x');
    const outside = mkdtempSync(path.join(os.tmpdir(), 'riddle-run-facts-outside-'));
    try {
      const before = gitCalls.count;
      const facts = await captureRunFactsOf([repo, pkg, outside, pkg]);
      // A call per root (its repository and commit), and the status once for the repository both roots are in.
      expect(gitCalls.count - before).toBe(4);
      const commit = git('rev-parse', 'HEAD');
      expect(facts.get(repo)?.project).toEqual({ gitCommit: commit, dirty: true, lockfileSha256: sha256('{}') });
      expect(facts.get(pkg)?.project).toEqual({ gitCommit: commit, dirty: true, lockfileSha256: sha256('a') });
      expect(facts.get(outside)?.project.gitCommit).toBeNull();
      expect(facts.get(outside)?.project.dirty).toBeNull();
      expect(facts.get(outside)?.runtime).toEqual(facts.get(repo)?.runtime);
      // Each root alone gives the same facts.
      for (const root of [repo, pkg, outside]) expect(await captureRunFacts(root)).toEqual(facts.get(root));
    } finally {
      rmSync(outside, { recursive: true, force: true });
    }
  });

  test('a repository without a commit has an unknown commit and status', async () => {
    const fresh = mkdtempSync(path.join(os.tmpdir(), 'riddle-run-facts-fresh-'));
    try {
      execFileSync('git', ['init', '-q'], { cwd: fresh });
      const facts = await captureRunFacts(fresh);
      expect(facts.project.gitCommit).toBeNull();
      expect(facts.project.dirty).toBeNull();
    } finally {
      rmSync(fresh, { recursive: true, force: true });
    }
  });

  test('outside a git work tree the commit and status are null, not a failure', async () => {
    const plain = mkdtempSync(path.join(os.tmpdir(), 'riddle-run-facts-plain-'));
    try {
      const facts = await runFacts(plain);
      expect(facts.project.gitCommit).toBeNull();
      expect(facts.project.dirty).toBeNull();
    } finally {
      rmSync(plain, { recursive: true, force: true });
    }
  });
});

describe('secret values of process.env', () => {
  afterEach(() => {
    delete process.env.RIDDLE_ENV_TEST_LATE_TOKEN;
  });

  test('read once and kept for attempts, read afresh when a trial captures its Environment', async () => {
    const kept = processSecretValues();
    expect(processSecretValues()).toBe(kept);
    process.env.RIDDLE_ENV_TEST_LATE_TOKEN = 'late-token-value-0001';
    expect(processSecretValues()).not.toContain('late-token-value-0001');
    await captureEnvironment(input);
    expect(processSecretValues()).toContain('late-token-value-0001');
  });
});
