import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { commandSubject, functionSubject } from '../../../src/observe/index.js';
import { gitRevision } from '../../../src/observe/revision.js';

const repo = mkdtempSync(path.join(os.tmpdir(), 'riddle-revision-'));
afterAll(() => rmSync(repo, { recursive: true, force: true }));
const git = (...args: string[]) =>
  execFileSync('git', ['-C', repo, '-c', 'user.email=t@t', '-c', 'user.name=t', ...args], { encoding: 'utf8' }).trim();

describe('subject revisions', () => {
  test('git: the commit when clean; commit + a hash of the differences when dirty', async () => {
    git('init', '-q');
    writeFileSync(path.join(repo, 'agent.mjs'), 'v1');
    git('add', '.');
    git('commit', '-qm', 'one');
    const commit = git('rev-parse', 'HEAD');
    expect(await gitRevision(repo)).toEqual({ commit, dirty: false, revision: commit });
    writeFileSync(path.join(repo, 'agent.mjs'), 'v2');
    const edited = await gitRevision(repo);
    expect(edited).toMatchObject({
      commit,
      dirty: true,
      revision: expect.stringMatching(new RegExp(`^${commit}-dirty-[0-9a-f]{12}$`)),
    });
    writeFileSync(path.join(repo, 'extra.txt'), 'untracked');
    const more = await gitRevision(repo);
    expect(more.revision).not.toBe(edited.revision);
    const subject = functionSubject({ name: 'f', revision: 'git', sourceDir: repo, run: () => null });
    expect(await subject.identify()).toEqual({
      kind: 'function',
      name: 'f',
      revision: more.revision,
      revisionSource: 'git',
    });
  });

  test('git outside a work tree is a configuration mistake with the fix', async () => {
    const subject = functionSubject({ name: 'f', revision: 'git', sourceDir: os.tmpdir(), run: () => null });
    await expect(subject.identify()).rejects.toThrow(/revision 'git' needs .* inside a git work tree/);
  });

  test('package: name@version', async () => {
    writeFileSync(path.join(repo, 'package.json'), JSON.stringify({ name: 'agent', version: '2.1.0' }));
    const subject = commandSubject({ name: 'c', command: 'node', revision: 'package', sourceDir: repo });
    expect(await subject.identify()).toEqual({
      kind: 'command',
      name: 'c',
      revision: 'agent@2.1.0',
      revisionSource: 'package',
    });
  });

  test('a command without a declared revision is fingerprinted with the files it names', async () => {
    writeFileSync(path.join(repo, 'cli.mjs'), 'console.log(1)');
    const make = () => commandSubject({ name: 'c', command: 'node', args: ['cli.mjs', '--flag'], sourceDir: repo });
    const first = await make().identify();
    expect(first).toMatchObject({
      kind: 'command',
      revisionSource: 'content',
      revision: expect.stringMatching(/^[0-9a-f]{12}$/),
    });
    expect((await make().identify()).revision).toBe(first.revision);
    writeFileSync(path.join(repo, 'cli.mjs'), 'console.log(2)');
    expect((await make().identify()).revision).not.toBe(first.revision);
  });
});
