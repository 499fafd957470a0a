// The core's CPU per attempt, without Vitest: one trial of a function subject conducted by riddle's core (prepare,
// observe, judge, write the attempts file, aggregate, assemble the Outcome) in a fresh Node process, its CPU time read
// with process.cpuUsage around the trial. Paired big-minus-small sizes, order alternating, as bench/run.mjs does; with
// --baseline the other copy runs interleaved, so both share the machine's load. CPU time, not wall: on a busy machine
// it moves far less. This is the part of bench/run.mjs's "riddle attempt" spent in the worker.
//
//   node bench/core.mjs [--quick] [--baseline=/path/to/riddle]
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { builtModule, fmt } from './proc.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));

if (process.argv[2] === '--child') {
  const [, , , riddleRoot, size] = process.argv;
  const core = await import(builtModule(riddleRoot, 'run/index.js'));
  const root = mkdtempSync(path.join(os.tmpdir(), 'riddle-bench-core-'));
  const host = {
    site: { name: 'answers', file: 'bench.test.mjs', path: [], line: 1 },
    root,
    settings: { passOn: null, sealSalt: '' },
    switches: { holdout: false, revealHoldout: false, acceptPolicy: false, recordProviders: false },
    clock: { now: () => Date.now() },
    expect: () => {
      throw new Error('not used: the check throws on its own');
    },
    attempts: new core.AttemptStream(path.join(root, 'answers.attempts.jsonl')),
  };
  const declaration = {
    subject: (input) => `Sure: ${input}`,
    revision: 'bench@1',
    rubric: { criteria: { answers: { description: 'answers', needs: 'text' } } },
    checks: {
      answers: (o) => {
        if (!String(o.reply).startsWith('Sure')) throw new Error(`unexpected reply ${o.reply}`);
      },
    },
    case: { input: 'a', expect: ['answers'] },
    repeat: { n: Number(size), stop: 'fixed' },
    passOn: ['PASS', 'UNKNOWN', 'PARTIAL', 'FAIL'],
  };
  const before = process.cpuUsage();
  const conducted = await core.conductTrial(declaration, host);
  const used = process.cpuUsage(before);
  if (conducted.kind !== 'ran' || conducted.outcome.judgment.verdict !== 'PASS')
    throw new Error(`the bench trial did not pass: ${JSON.stringify(conducted.outcome?.judgment ?? conducted)}`);
  rmSync(root, { recursive: true, force: true });
  process.stdout.write(JSON.stringify({ cpuMs: (used.user + used.system) / 1000 }));
  process.exit(0);
}

const quick = process.argv.includes('--quick');
const baseline = process.argv.find((a) => a.startsWith('--baseline='))?.slice(11) ?? null;
const copies = [
  { label: 'this', root: path.resolve(here, '..') },
  ...(baseline ? [{ label: 'baseline', root: path.resolve(baseline) }] : []),
];
const [small, big] = quick ? [500, 5000] : [1000, 10000];
const PAIRS = quick ? 5 : 9;

function child(riddleRoot, n) {
  return new Promise((resolve, reject) => {
    const run = spawn(process.execPath, [fileURLToPath(import.meta.url), '--child', riddleRoot, String(n)], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    run.stdout.on('data', (d) => {
      out += d;
    });
    run.on('error', reject);
    run.on('close', (code) => (code === 0 ? resolve(JSON.parse(out).cpuMs) : reject(new Error(`exited ${code}`))));
  });
}

const deltas = copies.map(() => []);
for (let pair = 0; pair < PAIRS; pair += 1) {
  const order = copies.map((copy, i) => [copy, i]);
  if (pair % 2 === 1) order.reverse();
  for (const [copy, i] of order) {
    const sizes = pair % 2 === 0 ? [small, big] : [big, small];
    const cpu = {};
    for (const n of sizes) cpu[n] = await child(copy.root, n);
    deltas[i].push((cpu[big] - cpu[small]) / (big - small));
  }
}
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
console.log(
  `core CPU per attempt (one trial of ${big} − ${small} attempts, function subject, no Vitest), ${PAIRS} pairs, load ${os.loadavg()[0].toFixed(1)}`,
);
copies.forEach((copy, i) =>
  console.log(
    `  ${copy.label.padEnd(9)} ${fmt(median(deltas[i]))} ms/attempt [${fmt(Math.min(...deltas[i]))}…${fmt(Math.max(...deltas[i]))}]`,
  ),
);
if (copies.length > 1) console.log(`  this / baseline: ${(median(deltas[0]) / median(deltas[1])).toFixed(2)}×`);
