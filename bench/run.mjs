// Benchmarks: each figure is printed as a ratio against a baseline measured in the same run, so the numbers
// compare across machines. Run with `npm run bench` (builds first). Not a test: nothing here fails on a threshold.
import { performance } from 'node:perf_hooks';
import { systemClock } from '../dist/model/index.js';
import { resolveTrial, runTrial } from '../dist/run/index.js';
import { clopperPearson, wilson } from '../dist/statistics/index.js';
import { captureEnvironment } from '../dist/observe/index.js';

function expect(actual) {
  return {
    toMatch(re) {
      if (!re.test(String(actual)))
        throw Object.assign(new Error(`expected ${actual} to match ${re}`), { name: 'AssertionError' });
    },
  };
}

function time(fn, repeat = 5) {
  const samples = [];
  for (let i = 0; i < repeat; i += 1) {
    const start = performance.now();
    fn();
    samples.push(performance.now() - start);
  }
  return samples.sort((a, b) => a - b)[Math.floor(samples.length / 2)];
}

async function timeAsync(fn, repeat = 5) {
  const samples = [];
  for (let i = 0; i < repeat; i += 1) {
    const start = performance.now();
    await fn();
    samples.push(performance.now() - start);
  }
  return samples.sort((a, b) => a - b)[Math.floor(samples.length / 2)];
}

const subject = (input) => `Sure: ${input}`;
const declaration = (n) => ({
  subject,
  revision: 'bench@1',
  rubric: { criteria: { answers: { description: 'answers', needs: 'text' } } },
  checks: { answers: (o) => expect(o.reply).toMatch(/^Sure/) },
  case: { input: 'a', expect: ['answers'] },
  control: { input: 'b', expect: ['answers'] },
  repeat: { n, stop: 'fixed' },
});

async function trialOf(n) {
  const resolved = resolveTrial({ name: 'bench', file: 'bench.mjs', path: [] }, declaration(n));
  const environment = captureEnvironment({
    subject: await resolved.subject.identify(),
    tools: [],
    prompts: {},
    dependencies: [],
    budgets: resolved.suite.arms[0].case.stop,
    maxEffect: 'read',
    variables: [],
    versions: { riddle: 'bench', vitest: 'bench' },
    projectRoot: process.cwd(),
    independentAttempts: true,
    notes: [],
  });
  return runTrial({ ...resolved, environment, unavailable: [], fixtures: {} }, { clock: systemClock, expect });
}

const N = 500;
const baselineAttempts = time(() => {
  for (let i = 0; i < 2 * N; i += 1) expect(subject('a')).toMatch(/^Sure/);
});
const riddleAttempts = await timeAsync(() => trialOf(N));
const perAttempt = riddleAttempts / (2 * N);

const baselineIntervals = time(() => {
  for (let n = 1; n <= 200; n += 1) for (let x = 0; x <= n; x += 5) wilson(x, n);
});
const exactIntervals = time(() => {
  for (let n = 1; n <= 200; n += 1) for (let x = 0; x <= n; x += 5) clopperPearson(x, n);
});

globalThis.gc?.();
const heapBefore = process.memoryUsage().heapUsed;
const big = await trialOf(2000);
globalThis.gc?.();
const heapAfter = process.memoryUsage().heapUsed;
const outcomeBytes = Buffer.byteLength(JSON.stringify(big));

const rows = [
  [
    'trial of 2×500 attempts vs calling the subject + check directly',
    `${(riddleAttempts / baselineAttempts).toFixed(1)}×`,
    `${perAttempt.toFixed(3)} ms per attempt`,
  ],
  [
    'Clopper–Pearson vs Wilson (n ≤ 200)',
    `${(exactIntervals / baselineIntervals).toFixed(1)}×`,
    `${exactIntervals.toFixed(1)} ms for ${200 * 21} intervals`,
  ],
  [
    'heap held by a 2×2000-attempt Outcome vs its JSON size',
    `${((heapAfter - heapBefore) / outcomeBytes).toFixed(1)}×`,
    `${(outcomeBytes / 1e6).toFixed(1)} MB of JSON`,
  ],
];
const width = Math.max(...rows.map((r) => r[0].length));
console.log('riddle benchmarks (ratio against a baseline measured in this run)\n');
for (const [name, ratio, detail] of rows) console.log(`  ${name.padEnd(width)}  ${ratio.padStart(7)}  ${detail}`);
