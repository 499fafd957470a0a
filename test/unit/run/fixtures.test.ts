import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { pinFixtures, resolveTrial } from '../../../src/run/index.js';
import { aCase, aSuite } from '../builders.js';

const root = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'riddle-fixture-paths-')));
const project = path.join(root, 'project');
mkdirSync(path.join(project, 'fixtures', 'notes'), { recursive: true });
writeFileSync(path.join(project, 'fixtures', 'notes', 'a.txt'), 'a');
mkdirSync(path.join(root, 'elsewhere'));
symlinkSync(path.join(root, 'elsewhere'), path.join(project, 'fixtures', 'linked-out'));
symlinkSync(path.join(project, 'fixtures', 'notes'), path.join(project, 'fixtures', 'linked-in'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const site = { name: 'copies fixtures', file: 'a.test.ts', path: [] };
const declare = (fixtures: string) =>
  resolveTrial(site, {
    subject: () => 'ok',
    rubric: { criteria: { ok: 'ok' } },
    checks: { ok: () => undefined },
    case: { input: 'go', expect: ['ok'], fixtures },
  });

describe('fixture paths', () => {
  test.each([
    ['../../../../etc', /case\.fixtures: "\.\.\/\.\.\/\.\.\/\.\.\/etc" leads out of the project root/],
    ['fixtures/../../x', /leads out of the project root/],
    ['/etc', /is absolute/],
    ['', /relative to the project root/],
  ])('%j is a declaration error naming the trial and field', (fixtures, message) => {
    expect(() => declare(fixtures)).toThrow(message);
    expect(() => declare(fixtures)).toThrow(/trial "copies fixtures" \(a\.test\.ts\)/);
  });

  test('a folder inside the project, even through a link that stays inside, is pinned', async () => {
    for (const relative of ['fixtures/notes', 'fixtures/linked-in', './fixtures/x/../notes']) {
      const { suite, folders } = await pinFixtures(
        aSuite([{ id: 'case', role: 'case', c: aCase() }]),
        { case: relative },
        project,
      );
      expect(folders.case).toBe(path.join(project, path.normalize(relative)));
      expect(suite.arms[0]?.case.fixtures?.fingerprint).toMatch(/^sha256:/);
    }
  });

  test('a symbolic link leading out of the project root is refused, not followed', async () => {
    await expect(
      pinFixtures(aSuite([{ id: 'case', role: 'case', c: aCase() }]), { case: 'fixtures/linked-out' }, project),
    ).rejects.toThrow(
      /fixtures of arm "case": "fixtures\/linked-out" resolves through a symbolic link to .*elsewhere, outside the project root/,
    );
  });
});
