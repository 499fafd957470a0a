// riddle benchmark: whole `vitest run` processes of generated workloads, riddle beside plain Vitest doing the same
// work, in the same run. Each figure is a paired difference (a big and a small size run back to back, their order
// alternating), so process start-up and collection cancel out; the median and the range of the pairs are shown.
// Not a test: nothing here fails on a threshold; it says whether each goal is met, with the measured figure.
//
//   npm run bench             full run (several minutes on 2 cores)
//   npm run bench -- --quick  3 pairs instead of 5 and smaller sizes
//   npm run bench -- --only=attempts,trials,project,files,io,scale,sampler,mcp
//   npm run bench -- --pairs=9                    more big/small pairs per figure (on a busy machine)
//   npm run bench -- --baseline=/path/to/riddle   also runs every riddle workload against another built copy of riddle
//                                                 (a checkout with dist/ and node_modules/), interleaved with this one
//   npm run bench -- --work=DIR                   the folder the workloads run in (default: /dev/shm where there is
//                                                 one, else the temporary folder); the run prints what creating a file
//                                                 costs there
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  builtModule,
  childrenCpuMs,
  defaultWorkRoot,
  fileCreationMs,
  fmt,
  folderBytes,
  installRiddle,
  removeAtExit,
  runVitest,
  threadCpuOf,
  tree,
} from './proc.mjs';
import { fileURLToPath, pathToFileURL } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '..');
// Where workloads run: a memory-backed folder (/dev/shm) where there is one with room, else the system's temporary folder. A
// trial writes its Outcome to a file of its own, and on the machine these figures were taken creating a file on disk
// cost 0.04–0.98 ms of CPU (the same folder, minutes apart; /dev/shm 0.015): per-trial figures on disk moved with it.
// The run prints the cost where it runs; `--work=DIR` measures on a disk of choice.
const workRoot = path.resolve(process.argv.find((a) => a.startsWith('--work='))?.slice(7) ?? defaultWorkRoot());
// A folder of this run's own: several benchmarks may run at once (bench/scale.mjs, or another engineer's run).
const work = path.join(workRoot, `riddle-bench-${process.pid}`);
const vitestBin = path.join(root, 'node_modules', 'vitest', 'vitest.mjs');
const quick = process.argv.includes('--quick');
const only =
  process.argv
    .find((a) => a.startsWith('--only='))
    ?.slice(7)
    .split(',') ?? null;
const wanted = (name) => only === null || only.includes(name);
const pairsArg = Number(process.argv.find((a) => a.startsWith('--pairs='))?.slice(8));
const PAIRS = pairsArg > 0 ? pairsArg : quick ? 3 : 5;
const baselineRoot = process.argv.find((a) => a.startsWith('--baseline='))?.slice(11) ?? null;
if (baselineRoot !== null && !existsSync(path.join(baselineRoot, 'dist', 'vitest', 'index.js')))
  throw new Error(`--baseline=${baselineRoot}: no built riddle there (dist/vitest/index.js); run its build first`);
/**
 * The copies of riddle measured: this checkout, and the baseline when given (a checkout with dist/ and node_modules/).
 * Each has a workload folder of its own, where the copy is installed as a package.
 */
const copies = [
  { label: '', root, workDir: work },
  ...(baselineRoot ? [{ label: ' (baseline)', root: path.resolve(baselineRoot), workDir: `${work}-baseline` }] : []),
];
// Each copy installed in its work folder, as a package (bench/proc.mjs installRiddle): workloads resolve it there.
removeAtExit(copies.map((copy) => copy.workDir));
for (const copy of copies) installRiddle(copy.root, copy.workDir);

function treeRssBytes(pid) {
  let total = 0;
  for (const member of tree(pid)) {
    try {
      total += Number(readFileSync(`/proc/${member}/statm`, 'utf8').split(' ')[1]) * 4096;
    } catch {
      // ended meanwhile
    }
  }
  return total;
}

/** Run `vitest run` in a workload folder; CPU of the whole process tree, wall, peak summed RSS, exit time. */
async function vitestRun(dir, env) {
  const cpuBefore = childrenCpuMs();
  const started = performance.now();
  let peakRss = 0;
  const { output, exitedAt, pid } = await runVitest(vitestBin, dir, env, {
    everyMs: 50,
    sample: (pid) => {
      peakRss = Math.max(peakRss, treeRssBytes(pid));
    },
  });
  return { cpuMs: childrenCpuMs() - cpuBefore, wallMs: performance.now() - started, peakRss, exitedAt, output, pid };
}

// ---------------------------------------------------------------------------------------------------------------
// Workloads. Each is a folder under bench/.work with a config and one test file whose size comes from BENCH_N, and
// which writes the start and end of its test phase (beforeAll / afterAll, epoch ms) to BENCH_TIMES, with the worker's
// CPU until then: its main thread's, and the whole process's (the rest is V8's compiler and garbage-collector threads
// and libuv's pool).

const PACKAGE = '{ "private": true, "type": "module" }\n';
const RIDDLE_CONFIG = `import { defineConfig } from 'vitest/config';
import { riddle } from 'riddle/plugin';
export default defineConfig({
  plugins: [riddle({ outputDir: process.env.BENCH_REPORT })],
  test: { include: ['*.test.mjs'], maxConcurrency: 50, testTimeout: 600_000, hookTimeout: 600_000 },
});
`;
const PLAIN_CONFIG = `import { defineConfig } from 'vitest/config';
export default defineConfig({ test: { include: ['*.test.mjs'], maxConcurrency: 50, testTimeout: 600_000 } });
`;
const PHASE = `import { writeFileSync } from 'node:fs';
import { threadCpuMs } from ${JSON.stringify(pathToFileURL(path.join(here, 'thread-cpu.mjs')).href)};
import { afterAll, beforeAll } from 'vitest';
const N = Number(process.env.BENCH_N);
let phaseStart = 0;
beforeAll(() => { phaseStart = Date.now(); });
afterAll(() => {
  const used = process.cpuUsage();
  const worker = process.platform === 'linux' ? { threadMs: threadCpuMs(), processMs: (used.user + used.system) / 1000 } : null;
  writeFileSync(process.env.BENCH_TIMES, JSON.stringify({ start: phaseStart, end: Date.now(), span: globalThis.benchSpan ?? null, worker }));
});
`;

/** A subject awaiting 20 ms, noting when the first call started and the last ended (globalThis.benchSpan). */
const WAITING_SUBJECT = `const subject = async (input) => {
  const span = (globalThis.benchSpan ??= { first: Date.now(), last: 0 });
  await sleep(20);
  span.last = Date.now();
  return 'Sure: ' + input;
};
`;

/** A trial named `name` (its source) of a function subject with one mechanical check, repeated by `repeat` (source). */
const answersTrial = (name, repeat) => `trial(${name}, {
  subject: (input) => 'Sure: ' + input,
  revision: 'bench@1',
  rubric: { criteria: { answers: { description: 'answers', needs: 'text' } } },
  checks: { answers: (o) => { expect(String(o.reply)).toMatch(/^Sure/); } },
  case: { input: 'a', expect: ['answers'] },
  repeat: ${repeat},
  passOn: ['PASS', 'UNKNOWN', 'PARTIAL', 'FAIL'],
});`;

/** N trials of one attempt each. */
const ONE_ATTEMPT_TRIALS = `${PHASE}import { expect } from 'vitest';
import { trial } from 'riddle/trial';
for (let i = 0; i < N; i += 1)
  ${answersTrial("'answers ' + i", "{ n: 1, stop: 'fixed' }")}
`;

const workloads = {
  /** One trial of N attempts of a function subject with one mechanical check. */
  'riddle-attempts': {
    config: RIDDLE_CONFIG,
    test: `${PHASE}import { expect } from 'vitest';
import { trial } from 'riddle/trial';
${answersTrial("'answers'", "{ n: N, stop: 'fixed' }")}
`,
  },
  /** N plain tests doing the same work: call the function, check its reply. */
  'plain-attempts': {
    config: PLAIN_CONFIG,
    test: `${PHASE}import { expect, test } from 'vitest';
const subject = (input) => 'Sure: ' + input;
for (let i = 0; i < N; i += 1) test('answers ' + i, () => { expect(subject('a')).toMatch(/^Sure/); });
`,
  },
  /** N trials of one attempt each; their registrations kept between runs (n is the same in every size). */
  'riddle-trials': {
    config: RIDDLE_CONFIG,
    keepRegistrations: true,
    test: ONE_ATTEMPT_TRIALS,
  },
  /** The same one-attempt trials in a project of 2,000 files of its own (in 50 folders), as real projects are. */
  'riddle-trials-in-project': {
    config: RIDDLE_CONFIG,
    keepRegistrations: true,
    projectFiles: 2000,
    test: ONE_ATTEMPT_TRIALS,
  },
  /** One trial of N attempts of a 20 ms I/O-bound subject at concurrency 50. */
  'riddle-io': {
    config: RIDDLE_CONFIG,
    test: `${PHASE}import { setTimeout as sleep } from 'node:timers/promises';
import { expect } from 'vitest';
import { trial } from 'riddle/trial';
${WAITING_SUBJECT}trial('waits', {
  subject,
  revision: 'bench@1',
  rubric: { criteria: { answers: { description: 'answers', needs: 'text' } } },
  checks: { answers: (o) => { expect(String(o.reply)).toMatch(/^Sure/); } },
  case: { input: 'a', expect: ['answers'] },
  repeat: { n: N, stop: 'fixed', concurrency: 50 },
  passOn: ['PASS', 'UNKNOWN', 'PARTIAL', 'FAIL'],
});
`,
  },
  /** N concurrent plain tests (maxConcurrency 50) awaiting the same 20 ms. */
  'plain-io': {
    config: PLAIN_CONFIG,
    test: `${PHASE}import { setTimeout as sleep } from 'node:timers/promises';
import { test } from 'vitest';
${WAITING_SUBJECT}for (let i = 0; i < N; i += 1)
  test.concurrent('waits ' + i, async ({ expect }) => { expect(await subject('a')).toMatch(/^Sure/); });
`,
  },
  /** N test files of one one-attempt trial each: what a project whose trials sit in their own files pays per file. */
  'riddle-files': {
    config: RIDDLE_CONFIG,
    keepRegistrations: true,
    perFile: `import { expect } from 'vitest';
import { trial } from 'riddle/trial';
${answersTrial("'answers'", "{ n: 1, stop: 'fixed' }")}
`,
  },
  /** The same test files in a project of 2,000 files of its own (in 50 folders): each worker watches them. */
  'riddle-files-in-project': {
    config: RIDDLE_CONFIG,
    keepRegistrations: true,
    projectFiles: 2000,
    perFile: `import { expect } from 'vitest';
import { trial } from 'riddle/trial';
${answersTrial("'answers'", "{ n: 1, stop: 'fixed' }")}
`,
  },
  /** N test files of one plain test each. */
  'plain-files': {
    config: PLAIN_CONFIG,
    perFile: `import { expect, test } from 'vitest';
const subject = (input) => 'Sure: ' + input;
test('answers', () => { expect(subject('a')).toMatch(/^Sure/); });
`,
  },
};

function prepare(name, workDir = work, n = 0) {
  const dir = path.join(workDir, name);
  mkdirSync(dir, { recursive: true });
  const workload = workloads[name];
  writeFileSync(path.join(dir, 'package.json'), PACKAGE);
  writeFileSync(path.join(dir, 'vitest.config.mjs'), workload.config);
  // The project's own files, which riddle watches for writes outside the workspaces of unisolated subjects.
  for (let i = 0; i < (workload.projectFiles ?? 0); i += 1) {
    const folder = path.join(dir, 'data', `d${i % 50}`);
    if (i < 50) mkdirSync(folder, { recursive: true });
    writeFileSync(path.join(folder, `f${i}.txt`), 'x');
  }
  if (workload.perFile === undefined) writeFileSync(path.join(dir, 'workload.test.mjs'), workload.test);
  else {
    // n files, the first with the phase's hooks (a file's own afterAll: the phase ends as the last file's test does).
    for (const file of readdirSync(dir)) if (file.endsWith('.test.mjs')) rmSync(path.join(dir, file));
    for (let i = 0; i < n; i += 1)
      writeFileSync(path.join(dir, `f${i}.test.mjs`), `${i === 0 ? PHASE : ''}${workload.perFile}`);
  }
  return dir;
}

/** One measured run of a workload at size n. */
async function measure(name, n, workDir = work) {
  const dir = prepare(name, workDir, n);
  const times = path.join(dir, `times-${n}.json`);
  const report = path.join(dir, 'riddle-report');
  rmSync(report, { recursive: true, force: true });
  // A run registers its declared policy: where n changes between sizes, every run starts with no registrations; where
  // it does not (one-attempt trials), they are kept, as in a project whose registrations are committed.
  if (!workloads[name].keepRegistrations) rmSync(path.join(dir, '.riddle'), { recursive: true, force: true });
  const threads = path.join(dir, `threads-${n}.jsonl`);
  rmSync(threads, { force: true });
  const run = await vitestRun(dir, {
    BENCH_N: String(n),
    BENCH_TIMES: times,
    BENCH_REPORT: report,
    ...threadCpuOf.env(threads),
  });
  const phase = JSON.parse(readFileSync(times, 'utf8'));
  const artifactBytes = folderBytes(report);
  rmSync(report, { recursive: true, force: true });
  return {
    ...run,
    phaseMs: phase.end - phase.start,
    // Where the subject noted them: from the phase's start to its first call, and from its last return to the end.
    span: phase.span && {
      before: phase.span.first - phase.start,
      calls: phase.span.last - phase.span.first,
      after: phase.end - phase.span.last,
    },
    afterPhaseMs: run.exitedAt - phase.end,
    artifactBytes,
    // CPU by thread (Linux): the worker's until its phase ended, the main process's whole run.
    // A workload of many files has a worker per file: only its first file notes a worker's CPU, so none is split.
    threads:
      workloads[name].perFile === undefined
        ? threadCpuOf.split(phase.worker, threadCpuOf.read(threads, run.pid))
        : null,
  };
}

/**
 * Paired big-minus-small differences per unit, order alternating; each field's median and range. With several work
 * folders (copies of riddle) each pair runs in every one, their order alternating too, so the copies share the
 * machine's load; the deltas come back per folder, in the order given.
 */
async function paired(name, small, big, workDirs = [work]) {
  const deltas = workDirs.map(() => []);
  for (let pair = 0; pair < PAIRS; pair += 1) {
    const order = pair % 2 === 0 ? [small, big] : [big, small];
    const folders = workDirs.map((dir, i) => [dir, i]);
    if (pair % 2 === 1) folders.reverse();
    for (const [dir, i] of folders) {
      const runs = {};
      for (const n of order) runs[n] = await measure(name, n, dir);
      const per = (field) => (runs[big][field] - runs[small][field]) / (big - small);
      const threads = runs[big].threads && runs[small].threads;
      deltas[i].push({
        cpuMs: per('cpuMs'),
        wallMs: per('wallMs'),
        phaseMs: per('phaseMs'),
        threads: threads
          ? Object.fromEntries(
              Object.keys(runs[big].threads).map((k) => [
                k,
                (runs[big].threads[k] - runs[small].threads[k]) / (big - small),
              ]),
            )
          : null,
        big: runs[big],
      });
    }
  }
  return workDirs.length === 1 ? deltas[0] : deltas;
}

/** `paired` for a riddle workload in every copy measured: one labelled list of deltas per copy. */
async function pairedCopies(name, small, big) {
  const all = await paired(
    name,
    small,
    big,
    copies.map((c) => c.workDir),
  );
  return copies.map((copy, i) => ({ label: copy.label, deltas: copies.length === 1 ? all : all[i] }));
}

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};
const spread = (values) => `${fmt(Math.min(...values))}…${fmt(Math.max(...values))}`;

const lines = [];
const goals = [];
function line(text) {
  lines.push(text);
  console.log(text);
}
function goal(name, met, figure) {
  goals.push({ name, met, figure });
  console.log(`  goal: ${name}: ${met ? 'met' : 'NOT met'} (${figure})`);
}
function describe(label, deltas, unit) {
  const cpu = deltas.map((d) => d.cpuMs);
  const wall = deltas.map((d) => d.wallMs);
  line(
    `  ${label.padEnd(44)} CPU ${fmt(median(cpu)).padStart(7)} ms/${unit} [${spread(cpu)}]   wall ${fmt(median(wall)).padStart(7)} ms/${unit} [${spread(wall)}]`,
  );
  // Where the CPU went, by thread: V8 compiles hot functions and collects garbage on threads of its own, so a
  // process's CPU is more than its JavaScript's; the medians of each part (they need not add up to the total's).
  if (deltas.every((d) => d.threads)) {
    const part = (k) => fmt(median(deltas.map((d) => d.threads[k])));
    line(
      `  ${''.padEnd(44)} by thread: worker's main ${part('workerMain')}, worker's others ${part('workerOthers')} (V8's compiler and GC, libuv's pool), main process's main ${part('mainMain')}, its others ${part('mainOthers')}`,
    );
  }
  return { cpu: median(cpu), wall: median(wall) };
}

console.log(
  `riddle benchmark${quick ? ' (quick)' : ''}: ${PAIRS} big/small pairs per figure, node ${process.version}, ${os.cpus().length} cores, load ${os.loadavg()[0].toFixed(1)}`,
);
console.log(
  `workloads in ${workRoot}: creating a file there (written, closed, renamed) costs ${fmt(fileCreationMs(work))} ms of CPU\n`,
);

/** riddle's CPU and wall per attempt (the attempts section), to tell a one-attempt trial's fixed part from its attempt. */
let perAttempt = null;
/** riddle's CPU and wall per one-attempt trial (the trials section), beside which the project section is read. */
let perTrial = null;

if (wanted('attempts')) {
  // Two spans of one trial's attempts. Over the first thousands V8 is still optimising riddle's code on its helper
  // threads (about 0.7 s of compiling by 2,000 attempts here; `--trace-opt-verbose`), a once-per-worker cost that an
  // early span counts as per attempt; the later span is what each further attempt costs. Both are shown; the goal is
  // read on the later one, and the first span's excess is shown as the worker's warm-up.
  const [first, small, big] = quick ? [200, 2000, 12000] : [200, 2000, 20000];
  console.log(
    `per attempt: one trial of ${big} − ${small} attempts (function subject), and of its first ${small} − ${first}, beside as many plain tests`,
  );
  const [riddle, ...others] = (await pairedCopies('riddle-attempts', small, big)).map((c) =>
    describe(`riddle attempt${c.label}`, c.deltas, 'attempt'),
  );
  perAttempt = riddle;
  const plain = describe('plain Vitest test', await paired('plain-attempts', small, big), 'test');
  const [early, ...earlyOthers] = (await pairedCopies('riddle-attempts', first, small)).map((c) =>
    describe(`riddle attempt, the first ${small}${c.label}`, c.deltas, 'attempt'),
  );
  const earlyPlain = describe(
    `plain Vitest test, the first ${small}`,
    await paired('plain-attempts', first, small),
    'test',
  );
  for (const [i, other] of others.entries())
    line(
      `  baseline / this: ${(other.cpu / riddle.cpu).toFixed(2)}× CPU per attempt (the first ${small}: ${((earlyOthers[i]?.cpu ?? Number.NaN) / early.cpu).toFixed(2)}×)`,
    );
  line(
    `  a worker's warm-up (the first ${small} attempts beyond as many later ones): ${fmt((early.cpu - riddle.cpu) * (small - first))} ms CPU, once; plain Vitest's: ${fmt((earlyPlain.cpu - plain.cpu) * (small - first))} ms`,
  );
  const ratio = riddle.cpu / plain.cpu;
  line(
    `  ratio riddle / plain: ${ratio.toFixed(2)}× (the first ${small}: ${(early.cpu / earlyPlain.cpu).toFixed(2)}×)`,
  );
  goal(
    'per-attempt CPU ≤ 0.05 ms',
    riddle.cpu <= 0.05,
    `${fmt(riddle.cpu)} ms; the first ${small}: ${fmt(early.cpu)} ms`,
  );
  goal(
    'per-attempt CPU ≤ 0.15× a plain Vitest test',
    ratio <= 0.15,
    `${ratio.toFixed(2)}×; the first ${small}: ${(early.cpu / earlyPlain.cpu).toFixed(2)}×`,
  );
}

if (wanted('trials')) {
  // Hundreds of trials in the big run: a Vitest process costs about a second and a half of CPU whatever it runs, and
  // its spread from run to run hid a trial's few milliseconds when the runs differed by fifty trials.
  const [small, big] = quick ? [20, 320] : [20, 520];
  console.log(`\nper trial: ${big} − ${small} one-attempt trials, beside as many plain tests`);
  // Registrations are kept between runs (the policy of a one-attempt trial is the same at every size): one run at the
  // big size first registers every trial, so the pairs measure a run whose registrations are in place, as in a project
  // that commits them (a first run also writes each trial's registration).
  for (const copy of copies) await measure('riddle-trials', big, copy.workDir);
  const trialCopies = await pairedCopies('riddle-trials', small, big);
  const [riddle, ...others] = trialCopies.map((c) => describe(`riddle one-attempt trial${c.label}`, c.deltas, 'trial'));
  perTrial = riddle;
  const plain = describe('plain Vitest test', await paired('plain-attempts', small, big), 'test');
  for (const other of others)
    line(
      `  baseline's fixed cost per trial: ${fmt(other.cpu - plain.cpu)} ms CPU, ${fmt(other.wall - plain.wall)} ms wall`,
    );
  // Each pair ran both copies back to back, so the difference within a pair cancels most of the machine's drifting
  // load, which moves the figures of either copy alone by several ms a trial from one pair to the next.
  for (const other of trialCopies.slice(1)) {
    const saved = other.deltas.map((d, i) => d.cpuMs - (trialCopies[0]?.deltas[i]?.cpuMs ?? Number.NaN));
    line(`  baseline − this, within each pair: ${fmt(median(saved))} ms CPU per trial [${spread(saved)}]`);
  }
  line(
    `  a one-attempt trial beyond a plain test: ${fmt(riddle.cpu - plain.cpu)} ms CPU, ${fmt(riddle.wall - plain.wall)} ms wall`,
  );
  // The fixed part is what a trial costs beyond the one attempt it runs (measured above, when that section ran: an
  // attempt's later cost, as the attempts of hundreds of trials in one worker run compiled code).
  const fixed = riddle.cpu - (perAttempt?.cpu ?? plain.cpu);
  line(
    `  riddle's fixed cost per trial (one-attempt trial − ${perAttempt ? 'riddle attempt' : 'plain test'}): ${fmt(fixed)} ms CPU`,
  );
  goal('per-trial fixed cost ≤ 2 ms', fixed <= 2, `${fmt(fixed)} ms CPU`);
}

if (wanted('project')) {
  const [small, big] = quick ? [20, 320] : [20, 520];
  console.log(`\nper trial in a project of 2,000 files: ${big} − ${small} one-attempt trials`);
  for (const copy of copies) await measure('riddle-trials-in-project', big, copy.workDir);
  const [riddle, ...others] = (await pairedCopies('riddle-trials-in-project', small, big)).map((c) =>
    describe(`riddle one-attempt trial${c.label}`, c.deltas, 'trial'),
  );
  for (const other of others) line(`  baseline / this: ${(other.cpu / riddle.cpu).toFixed(2)}× CPU per trial`);
  if (perTrial)
    line(`  beyond the same trial in a near-empty project: ${fmt(riddle.cpu - perTrial.cpu)} ms CPU per trial`);
}

if (wanted('files')) {
  // Vitest runs each test file in a fresh worker: what riddle costs a file beyond a plain test file is mostly loading
  // it (its modules, zod's, the schemas built as they load), once a worker.
  const [small, big] = quick ? [2, 10] : [4, 20];
  console.log(
    `\nper test file: ${big} − ${small} test files of one one-attempt trial each, beside as many plain test files`,
  );
  for (const copy of copies) await measure('riddle-files', big, copy.workDir);
  const [riddle, ...others] = (await pairedCopies('riddle-files', small, big)).map((c) =>
    describe(`riddle test file${c.label}`, c.deltas, 'file'),
  );
  const plain = describe('plain Vitest test file', await paired('plain-files', small, big), 'file');
  for (const other of others)
    line(`  baseline's cost per file beyond a plain one: ${fmt(other.cpu - plain.cpu)} ms CPU`);
  line(
    `  a trial's test file beyond a plain one: ${fmt(riddle.cpu - plain.cpu)} ms CPU, ${fmt(riddle.wall - plain.wall)} ms wall`,
  );
  // Every worker watches the project's files for writes outside the workspaces: a project's size is paid per file.
  for (const copy of copies) await measure('riddle-files-in-project', big, copy.workDir);
  const [inProject, ...othersInProject] = (await pairedCopies('riddle-files-in-project', small, big)).map((c) =>
    describe(`riddle test file, project of 2,000 files${c.label}`, c.deltas, 'file'),
  );
  for (const other of othersInProject)
    line(`  baseline / this, in the project: ${(other.cpu / inProject.cpu).toFixed(2)}× CPU per file`);
  line(`  beyond the same test file in a near-empty project: ${fmt(inProject.cpu - riddle.cpu)} ms CPU per file`);
}

if (wanted('io')) {
  const [small, big] = [100, 1000];
  const ideal = (n) => (n / 50) * 20;
  console.log(`\n20 ms I/O-bound subject at concurrency 50: ${big} attempts (ideal test phase ${ideal(big)} ms)`);
  const report = (label, deltas, isGoal) => {
    const phase = deltas.map((d) => d.big.phaseMs);
    const efficiency = phase.map((p) => ideal(big) / p);
    const marginal = deltas.map((d) => (ideal(big) - ideal(small)) / (big - small) / d.phaseMs);
    // One thread runs every attempt's own work: at this CPU per attempt, the test phase cannot be shorter than
    // big × CPU however well the waits overlap, which bounds the efficiency even on an idle machine.
    const cpu = median(deltas.map((d) => d.cpuMs));
    const ceiling = ideal(big) / Math.max(ideal(big), big * cpu);
    line(
      `  ${label.padEnd(32)} test phase ${fmt(median(phase))} ms [${spread(phase)}]: ${(100 * median(efficiency)).toFixed(0)}% of ideal (marginal ${(100 * median(marginal)).toFixed(0)}%), CPU ${fmt(cpu)} ms/attempt (one core's ceiling at that CPU: ${(100 * ceiling).toFixed(0)}%)`,
    );
    // The phase in three: before the first call (the trial's start), the calls (ideal: the rounds of 20 ms), after the
    // last (the trial's end); medians of the big runs.
    const spans = deltas.map((d) => d.big.span).filter((span) => span !== null && span !== undefined);
    if (spans.length > 0)
      line(
        `  ${''.padEnd(32)} before the first call ${fmt(median(spans.map((s) => s.before)))} ms, calls ${fmt(median(spans.map((s) => s.calls)))} ms (ideal ${ideal(big)}), after the last ${fmt(median(spans.map((s) => s.after)))} ms`,
      );
    if (isGoal)
      goal(
        '20 ms I/O, 1,000 attempts at concurrency 50 ≥ 95% of ideal wall',
        median(efficiency) >= 0.95,
        `${(100 * median(efficiency)).toFixed(1)}%`,
      );
  };
  for (const copy of await pairedCopies('riddle-io', small, big))
    report(`riddle${copy.label}`, copy.deltas, copy.label === '');
  report('plain Vitest (test.concurrent)', await paired('plain-io', small, big), false);
  // The machine's ceiling at this moment: a bare pool of 50 in this process, no test framework at all.
  const bare = [];
  for (let i = 0; i < PAIRS; i += 1) {
    let next = 0;
    const started = performance.now();
    await Promise.all(
      Array.from({ length: 50 }, async () => {
        while (next < big) {
          next += 1;
          await new Promise((resolve) => setTimeout(resolve, 20));
        }
      }),
    );
    bare.push(ideal(big) / (performance.now() - started));
  }
  line(`  ${'bare pool of 50 in one process'.padEnd(32)} ${(100 * median(bare)).toFixed(0)}% of ideal`);
}

// riddle's own CPU in an MCP agent's attempt: worker, main process and stdio bridge measured directly (bench/mcp.mjs).
if (wanted('mcp')) await (await import('./mcp.mjs')).benchMcp({ quick, pairs: PAIRS, copies, line, goal });

// One trial of 10k / 30k / 100k attempts: after-test time, peak RSS, linearity (bench/scale.mjs).
if (wanted('scale')) await (await import('./scale.mjs')).benchScale({ quick, copies, line, goal });

if (wanted('sampler')) {
  // The sampler's own CPU time (process.cpuUsage of this process: its threads, not the watched tree) while it watches
  // a Node subject and its Node child, minus the same wait without it, in rounds alternating with the copies measured.
  const samplers = [];
  for (const copy of copies) {
    const module = await import(builtModule(copy.root, 'observe/process-sampler.js'));
    samplers.push({ label: copy.label, sampleTree: module.sampleTree, shares: [] });
  }
  const seconds = quick ? 2 : 4;
  const rounds = quick ? 5 : 9;
  const hostProcesses = readdirSync('/proc').filter((p) => /^\d+$/.test(p)).length;
  console.log(
    `\n/proc sampler watching a Node subject and its Node child for ${seconds} s, ${rounds} rounds, each beside the same wait unwatched (${hostProcesses} processes on the host)`,
  );
  const watchOnce = async (sampleTree) => {
    const wait = `setTimeout(() => {}, ${seconds * 1000})`;
    const script = `require('node:child_process').spawn(process.execPath, ['-e', '${wait}'], { stdio: 'ignore' }); ${wait}`;
    const child = spawn(process.execPath, ['-e', script], { detached: true, stdio: 'ignore' });
    await new Promise((r) => setTimeout(r, 200));
    const cpuBefore = process.cpuUsage();
    const wallBefore = performance.now();
    const watching = sampleTree?.(child.pid);
    await new Promise((r) => child.on('exit', r));
    watching?.stop();
    const used = process.cpuUsage(cpuBefore);
    return { cpuMs: (used.user + used.system) / 1000, wallMs: performance.now() - wallBefore };
  };
  for (let round = 0; round < rounds; round += 1) {
    const order = round % 2 === 0 ? samplers : [...samplers].reverse();
    for (const sampler of order) {
      const watched = await watchOnce(sampler.sampleTree);
      const unwatched = await watchOnce(null);
      sampler.shares.push((watched.cpuMs - unwatched.cpuMs) / watched.wallMs);
    }
  }
  const pct = (share) => `${(100 * share).toFixed(2)}%`;
  for (const { label, shares } of samplers) {
    const share = median(shares);
    line(
      `  sampler${label}: ${pct(share)} of a core [${pct(Math.min(...shares))}…${pct(Math.max(...shares))}] (CPU time, median of ${rounds})`,
    );
    if (label === '') goal('sampler ≤ 1% of a core', share <= 0.01, pct(share));
  }
}

console.log('\nsummary');
for (const { name, met, figure } of goals) console.log(`  ${met ? 'met    ' : 'NOT met'}  ${name}: ${figure}`);
