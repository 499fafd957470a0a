import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import * as core from '../../src/core.js';
import * as aggregate from '../../src/aggregate/index.js';
import * as data from '../../src/data/index.js';
import * as evaluate from '../../src/evaluate/index.js';
import * as model from '../../src/model/index.js';
import * as observe from '../../src/observe/index.js';
import * as report from '../../src/report/index.js';
import * as run from '../../src/run/index.js';
import * as statistics from '../../src/statistics/index.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const read = (file: string) => readFileSync(path.join(root, file), 'utf8');
const lines = (text: string) =>
  text
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line && !line.startsWith('#'));

/** `kind name  (module)` for every name src/core.ts exports, as the API report lists them. */
function surfaceOfCore(): string[] {
  const entries: string[] = [];
  for (const [, list, module] of read('src/core.ts').matchAll(/export\s+\{([^}]*)\}\s+from '\.\/(\w+)\/index\.js'/g)) {
    for (const item of (list ?? '').split(',').map((s) => s.trim())) {
      if (!item) continue;
      const isType = item.startsWith('type ');
      entries.push(`${isType ? 'type ' : 'value'} ${item.replace(/^type\s+/, '')}  (${module})`);
    }
  }
  return entries.sort((a, b) => a.slice(6).localeCompare(b.slice(6), 'en'));
}

const internal = new Set(lines(read('api/core-internal.txt')));

describe('riddle/core', () => {
  it('matches the checked API report (regenerate with npm run api:update after a deliberate change)', () => {
    expect(surfaceOfCore()).toEqual(lines(read('api/core.api.txt')));
  });

  it('exports at run time exactly the values the report lists', () => {
    const values = surfaceOfCore()
      .filter((entry) => entry.startsWith('value'))
      .map((entry) => entry.slice(6).split(' ')[0]);
    expect(Object.keys(core).sort()).toEqual([...values].sort());
  });

  it('decides every value a framework-free module exports: public, or listed as internal', () => {
    const modules = { model, statistics, evaluate, aggregate, observe, run, report, data };
    const undecided = Object.entries(modules).flatMap(([name, exports]) =>
      Object.keys(exports)
        .filter((key) => !(key in core) && !internal.has(key))
        .map((key) => `${name}.${key}`),
    );
    expect(undecided).toEqual([]);
  });

  it('keeps internals out', () => {
    for (const name of ['DEFAULTS', 'writeFileAtomic', 'lnGamma', 'runAttempt', 'createEvidenceRecorder'])
      expect(internal.has(name) && !(name in core), name).toBe(true);
  });
});
