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

describe('riddle/core', () => {
  it('exports every public value of every framework-free module', () => {
    const modules = { model, statistics, evaluate, aggregate, observe, run, report, data };
    const missing = Object.entries(modules).flatMap(([name, exports]) =>
      Object.keys(exports)
        .filter((key) => !(key in core))
        .map((key) => `${name}.${key}`),
    );
    expect(missing).toEqual([]);
  });
});
