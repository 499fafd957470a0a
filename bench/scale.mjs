// riddle at scale: one trial of 10k / 30k / 100k attempts of a trivial function subject, each a whole `vitest run`
// process. Per size: the test phase, the phase after the tests (afterAll's end to the process's exit: reporter,
// artifacts, worker shutdown), CPU and peak RSS of the whole process tree, and the artifacts' size; the written run
// index and attempts file are checked against the size (a run that lost attempts is no figure). Not a test: the
// goals are printed as met or not, nothing fails on a threshold.
//
//   node bench/scale.mjs [--quick] [--sizes=10000,30000] [--baseline=/path/to/riddle]
//   npm run bench -- --only=scale            (bench/run.mjs calls benchScale)
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import {
  childrenCpuMs,
  defaultWorkRoot,
  fmt,
  folderBytes,
  installRiddle,
  removeAtExit,
  runVitest,
  tree,
} from './proc.mjs';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '..');
/** Where workloads run unless told (as bench/run.mjs). */
const defaultWork = path.join(defaultWorkRoot(), `riddle-bench-${process.pid}`);

/** Bytes per page, the unit of /proc/<pid>/statm. */
const PAGE = 4096;

/** RSS of every process of the tree now, and each one's own peak so far (VmHWM), in bytes. */
function treeMemory(pid, peaks) {
  let total = 0;
  for (const member of tree(pid)) {
    try {
      total += Number(readFileSync(`/proc/${member}/statm`, 'utf8').split(' ')[1]) * PAGE;
      const hwm = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${member}/status`, 'utf8'));
      if (hwm) peaks.set(member, Math.max(peaks.get(member) ?? 0, Number(hwm[1]) * 1024));
    } catch {
      // ended meanwhile
    }
  }
  return total;
}

/** Clock ticks per second of /proc/<pid>/stat's CPU times (USER_HZ, 100 on Linux). */
const TICKS = 100;

/** CPU time the process has used so far (user and system), in ms; null once it ended. */
function processCpuMs(pid) {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command name (which may hold spaces), from the third: utime and stime are the 14th and 15th.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / TICKS;
  } catch {
    return null;
  }
}

/** `vitest run` in a folder: CPU of the whole tree, wall, peak summed RSS (sampled), summed per-process peaks. */
async function vitestRun(vitestBin, dir, env) {
  const cpuBefore = childrenCpuMs();
  const started = performance.now();
  let peakRss = 0;
  const peaks = new Map();
  // The main process's own CPU (Vitest and the riddle reporter), as last read before it exited.
  let mainCpuMs = 0;
  let mainPid = null;
  const { output, exitedAt } = await runVitest(vitestBin, dir, env, {
    everyMs: 25,
    sample: (pid) => {
      mainPid = pid;
      peakRss = Math.max(peakRss, treeMemory(pid, peaks));
      mainCpuMs = processCpuMs(pid) ?? mainCpuMs;
    },
  });
  const wallMs = performance.now() - started;
  const cpuMs = childrenCpuMs() - cpuBefore;
  const peakPerProcess = [...peaks.values()].reduce((a, b) => a + b, 0);
  const peakMain = peaks.get(mainPid) ?? 0;
  const peakWorker = Math.max(0, ...[...peaks].filter(([pid]) => pid !== mainPid).map(([, peak]) => peak));
  return { cpuMs, wallMs, peakRss, peakPerProcess, peakMain, peakWorker, mainCpuMs, exitedAt, output };
}

const PACKAGE = '{ "private": true, "type": "module" }\n';
const CONFIG = `import { defineConfig } from 'vitest/config';
import { riddle } from 'riddle/plugin';
export default defineConfig({
  plugins: [riddle({ outputDir: process.env.BENCH_REPORT, progress: false })],
  test: { include: ['*.test.mjs'], testTimeout: 1_800_000, hookTimeout: 600_000 },
});
`;
/** The test phase noted by afterAll, for every workload. */
const PHASE = `import { writeFileSync } from 'node:fs';
import { afterAll, beforeAll, expect } from 'vitest';
import { trial } from 'riddle/trial';
let phaseStart = 0;
beforeAll(() => { phaseStart = Date.now(); });
afterAll(() => { writeFileSync(process.env.BENCH_TIMES, JSON.stringify({ start: phaseStart, end: Date.now() })); });
`;
/**
 * The workloads, each BENCH_N attempts in one trial of a function subject with one mechanical check: `case`, one Case
 * repeated BENCH_N times; `suite`, a data-driven suite of BENCH_N / 2 rows (Cases) of 2 attempts each, as a dataset of
 * prompts is run. Every tenth row's reply fails its check, so the rows' verdicts differ.
 */
const TESTS = {
  case: `${PHASE}trial('answers', {
  subject: (input) => 'Sure: ' + input,
  revision: 'bench@1',
  rubric: { criteria: { answers: { description: 'answers', needs: 'text' } } },
  checks: { answers: (o) => { expect(String(o.reply)).toMatch(/^Sure/); } },
  case: { input: 'a', expect: ['answers'] },
  repeat: { n: Number(process.env.BENCH_N), stop: 'fixed' },
  passOn: ['PASS', 'UNKNOWN', 'PARTIAL', 'FAIL'],
});
`,
  suite: `${PHASE}trial.suite('rows', {
  subject: (input) => (Number(input.slice(4)) % 10 === 0 ? 'No' : 'Sure: ' + input),
  revision: 'bench@1',
  rubric: { criteria: { answers: { description: 'answers', needs: 'text' } } },
  checks: { answers: (o) => { expect(String(o.reply)).toMatch(/^Sure/); } },
  cases: Array.from({ length: Number(process.env.BENCH_N) / 2 }, (_, i) => ({
    id: 'row-' + i,
    role: 'case',
    input: 'row ' + i,
    expect: ['answers'],
  })),
  repeat: { n: 2, stop: 'fixed' },
  passOn: ['PASS', 'UNKNOWN', 'PARTIAL', 'FAIL'],
});
`,
};

/** Lines of a file, counted a chunk at a time. */
function lineCount(file) {
  let count = 0;
  const text = readFileSync(file);
  for (let i = text.indexOf(10); i !== -1; i = text.indexOf(10, i + 1)) count += 1;
  return count;
}

/** What the run wrote must hold the whole trial: one Outcome whose attempts file has n lines. */
function checkArtifacts(report, n) {
  const index = JSON.parse(readFileSync(path.join(report, 'index.json'), 'utf8'));
  if (index.trials.length !== 1)
    throw new Error(`scale run of ${n}: the run index lists ${index.trials.length} trials`);
  const outcomeFile = path.join(report, index.trials[0].outcome);
  const outcome = JSON.parse(readFileSync(outcomeFile, 'utf8'));
  const lines = lineCount(path.join(path.dirname(outcomeFile), outcome.attemptsFile));
  if (lines !== n || outcome.execution.order.length !== n)
    throw new Error(`scale run of ${n}: ${lines} attempt lines, ${outcome.execution.order.length} in the order run`);
}

/**
 * One measured run of a trial of n attempts (`kind`: one Case, or a suite of n / 2 rows, see TESTS) against the riddle
 * built at `riddleRoot`, in a workload folder under `workDir` (see bench/run.mjs on where workloads run).
 */
export async function measureScale(n, riddleRoot = root, workDir = defaultWork, kind = 'case') {
  const dir = path.join(workDir, `riddle-scale-${kind}`);
  mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(dir, 'package.json'), PACKAGE);
  writeFileSync(path.join(dir, 'vitest.config.mjs'), CONFIG);
  writeFileSync(path.join(dir, 'workload.test.mjs'), TESTS[kind]);
  installRiddle(riddleRoot, dir);
  const times = path.join(dir, `times-${n}.json`);
  const report = path.join(dir, 'riddle-report');
  rmSync(report, { recursive: true, force: true });
  rmSync(path.join(dir, '.riddle'), { recursive: true, force: true });
  const vitestBin = path.join(riddleRoot, 'node_modules', 'vitest', 'vitest.mjs');
  const run = await vitestRun(vitestBin, dir, { BENCH_N: String(n), BENCH_TIMES: times, BENCH_REPORT: report });
  const phase = JSON.parse(readFileSync(times, 'utf8'));
  checkArtifacts(report, n);
  const artifactBytes = folderBytes(report);
  rmSync(report, { recursive: true, force: true });
  const warned = /Timeout terminating/.test(run.output);
  return {
    n,
    kind,
    ...run,
    phaseMs: phase.end - phase.start,
    afterPhaseMs: run.exitedAt - phase.end,
    artifactBytes,
    warned,
  };
}

const mb = (bytes) => `${(bytes / 2 ** 20).toFixed(0)} MB`;

/**
 * The scale figures, for every copy of riddle measured (`copies`: `{ label, root, workDir }` as bench/run.mjs keeps
 * them, `root` the copy's checkout, `workDir` its workload folder), sizes alternating between copies; `line` prints a result,
 * `goal` a goal met or not.
 */
export async function benchScale({ quick = false, sizes = null, copies = [{ label: '', root }], line, goal }) {
  const measured = sizes ?? (quick ? [2_000, 6_000, 18_000] : [10_000, 30_000, 100_000]);
  console.log(`\nat scale: one trial of ${measured.join(' / ')} attempts (one run each)`);
  const runs = copies.map(() => []);
  for (const [i, n] of measured.entries()) {
    const order = copies.map((copy, c) => [copy, c]);
    if (i % 2 === 1) order.reverse();
    for (const [copy, c] of order) runs[c].push(await measureScale(n, copy.root, copy.workDir));
  }
  for (const [c, copy] of copies.entries()) {
    const mine = runs[c];
    for (const run of mine)
      line(
        `  ${String(run.n).padStart(7)} attempts${copy.label}: after the tests ${fmt(run.afterPhaseMs)} ms, test phase ${fmt(run.phaseMs)} ms, wall ${fmt(run.wallMs)} ms, CPU ${fmt(run.cpuMs)} ms, peak RSS ${mb(run.peakRss)} (per-process peaks: main ${mb(run.peakMain)}, largest worker ${mb(run.peakWorker)}, all ${mb(run.peakPerProcess)}), main process CPU ${fmt(run.mainCpuMs)} ms (${fmt(run.mainCpuMs / run.n)} ms per attempt), artifacts ${mb(run.artifactBytes)}${run.warned ? ', worker-stop timeout warned' : ''}`,
      );
    if (mine.length < 3) continue;
    // Linear means each further attempt costs the same after the tests: the marginal cost between the two smaller
    // sizes against that between the two larger ones.
    const marginal = (i) => (mine[i + 1].afterPhaseMs - mine[i].afterPhaseMs) / (mine[i + 1].n - mine[i].n);
    const [first, last] = [marginal(0), marginal(mine.length - 2)];
    line(
      `  after the tests${copy.label}, per further attempt: ${fmt(first)} ms (${measured[0]}→${measured[1]}), ${fmt(last)} ms (${measured.at(-2)}→${measured.at(-1)})`,
    );
    if (copy.label !== '') continue;
    const growth = last / Math.max(first, 1e-6);
    goal(
      'after-test phase linear in attempts (marginal cost at the largest sizes ≤ 1.3× that at the smallest, or ≤ 0.02 ms)',
      growth <= 1.3 || last <= 0.02,
      `${growth.toFixed(2)}×, ${fmt(last)} ms per attempt`,
    );
    const peak = Math.max(...mine.map((r) => r.peakRss));
    goal(`peak RSS of the process tree ≤ 300 MB at ${measured.at(-1)} attempts`, peak <= 300 * 2 ** 20, mb(peak));
  }
  // The same goal for a trial of as many attempts that is a data-driven suite: a dataset's rows are each an arm with
  // its own Case and summary in the Outcome, which one repeated Case does not have. The largest size only (a suite of
  // 50,000 rows runs for a minute).
  const largest = measured.at(-1);
  console.log(`\nat scale, a data-driven suite: ${largest / 2} rows of 2 attempts each (one run)`);
  for (const copy of copies) {
    const run = await measureScale(largest, copy.root, copy.workDir, 'suite');
    line(
      `  ${String(largest / 2).padStart(7)} rows${copy.label}: after the tests ${fmt(run.afterPhaseMs)} ms, test phase ${fmt(run.phaseMs)} ms, wall ${fmt(run.wallMs)} ms, CPU ${fmt(run.cpuMs)} ms, peak RSS ${mb(run.peakRss)} (per-process peaks: main ${mb(run.peakMain)}, largest worker ${mb(run.peakWorker)}), artifacts ${mb(run.artifactBytes)}${run.warned ? ', worker-stop timeout warned' : ''}`,
    );
    if (copy.label === '')
      goal(
        `peak RSS of the process tree ≤ 300 MB for a suite of ${largest} attempts (${largest / 2} rows)`,
        run.peakRss <= 300 * 2 ** 20,
        mb(run.peakRss),
      );
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const sizes =
    process.argv
      .find((a) => a.startsWith('--sizes='))
      ?.slice(8)
      .split(',')
      .map(Number) ?? null;
  const baseline = process.argv.find((a) => a.startsWith('--baseline='))?.slice(11) ?? null;
  const copies = [
    { label: '', root, workDir: defaultWork },
    ...(baseline ? [{ label: ' (baseline)', root: path.resolve(baseline), workDir: `${defaultWork}-baseline` }] : []),
  ];
  removeAtExit(copies.map((copy) => copy.workDir));
  await benchScale({
    quick: process.argv.includes('--quick'),
    sizes,
    copies,
    line: (text) => console.log(text),
    goal: (name, met, figure) => console.log(`  goal: ${name}: ${met ? 'met' : 'NOT met'} (${figure})`),
  });
}
