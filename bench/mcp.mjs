// riddle's own CPU in an MCP agent's attempt, measured directly rather than as (attempt − agent):
//
// - the Vitest worker: a workload runs a warm-up trial, then the measured trial of N attempts of the example's file
//   agent; the worker's own CPU (process.cpuUsage: its threads, not its children, so neither the agent nor the
//   bridge) is read around the measured trial's test. Paired big-minus-small runs (order alternating) give it per
//   attempt: the trial's fixed part and the worker's start-up cancel out.
// - the main process: its own CPU (utime + stime in /proc/<pid>/stat, read until it exits), paired the same way.
// - the stdio bridge (over stdio only; a child of the agent, so counted in neither of the above): launched here as an
//   agent launches it, fed the file agent's own conversation (initialize, then its five tool calls, each awaited),
//   its CPU read from this process's reaped children (cutime + cstime, in 10 ms ticks: the mean over many conversations).
//
// - Node's spawn of a process from the same worker once its trials are done (the fork of the worker), which every
//   command subject's attempt pays: read around the call, so the figures above can be told apart from it.
// - a trivial command subject (`/bin/true`, the same fixtures, no tools): the worker's CPU per attempt the same way,
//   riddle's fixed part of any command subject's attempt (sandbox, fixtures, channel folder, spawn, snapshots,
//   outside-writes walks, the pipeline), apart from the MCP traffic.
//
// - the MCP gateway alone (over http): this process serves an attempt's tools and a client in another process holds the
//   file agent's conversation; this process's CPU from serving to closing, per conversation (no spawn, sandbox or
//   pipeline: far less noisy than a whole attempt, whose figures move by several ms between identical runs).
//
// riddle's share = worker − the example's tools + bridge. The main process's part per attempt (reading the attempt's
// line at the end) is printed beside it but not added: its whole-run CPU varies by ±200 ms between identical runs, far
// more than its part (bench/scale.mjs measures the main process per attempt at scale: about 0.05 ms). The example's
// tool functions are the user's code, run in the worker: each call's own CPU is read around it and taken out.
import { spawn } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { builtModule, childrenCpuMs, fmt, runVitest } from './proc.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '..');
const vitestBin = path.join(root, 'node_modules', 'vitest', 'vitest.mjs');
const AGENT = path.join(root, 'example-project', 'agent', 'file-agent.mjs');
const AGENT_TOOLS = pathToFileURL(path.join(root, 'example-project', 'agent', 'tools.mjs')).href;
const AGENT_FIXTURES = path.join(root, 'example-project', 'agent', 'fixtures', 'notes');
const MCP_INPUT = 'Delete notes/2020.txt';

const CONFIG = `import { defineConfig } from 'vitest/config';
import { riddle } from 'riddle/plugin';
export default defineConfig({
  plugins: [riddle({ outputDir: process.env.BENCH_REPORT })],
  test: { include: ['*.test.mjs'], testTimeout: 600_000, hookTimeout: 600_000 },
});
`;

/**
 * The subject of a workload: the example's file agent over `http` or `stdio`, or (`command`) `/bin/true` with the same
 * fixtures and no tools, whose attempt is riddle's fixed part of any command subject's (sandbox and fixtures, channel
 * folder, spawn, outside-writes walks, snapshots, the pipeline).
 */
const SUBJECTS = {
  http: `commandSubject({ name: 'file-agent', command: process.execPath, args: [${JSON.stringify(AGENT)}, '--mcp-config', '{mcpConfig}'], stdout: 'json', mcp: 'http' })`,
  stdio: `commandSubject({ name: 'file-agent', command: process.execPath, args: [${JSON.stringify(AGENT)}, '--mcp-config', '{mcpConfig}'], stdout: 'json', mcp: 'stdio' })`,
  command: `commandSubject({ name: 'true', command: '/bin/true' })`,
};

/** What each workload's one check reads: the agent's reply, or the empty reply of `/bin/true`. */
const CHECKS = {
  http: "expect(String(o.reply)).not.toBe('');",
  stdio: "expect(String(o.reply)).not.toBe('');",
  command: "expect(o.reply).toBe('');",
};

/** A warm-up trial of 2 attempts, then the measured trial of N; the worker's own CPU around each trial's test. */
const workload = (kind) => `import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { afterAll, afterEach, beforeEach, expect } from 'vitest';
import { commandSubject, trial } from 'riddle/trial';
import { fileTools } from ${JSON.stringify(AGENT_TOOLS)};
const N = Number(process.env.BENCH_N);
const cpu = {};
let before = null;
// The example's tools are the user's code, run in the worker: their own CPU is counted apart (they are synchronous, so
// the worker does nothing else while one runs).
let toolMs = 0;
const tools = fileTools.map((tool) => ({
  ...tool,
  run: (args, context) => {
    const start = process.cpuUsage();
    try {
      return tool.run(args, context);
    } finally {
      const used = process.cpuUsage(start);
      toolMs += (used.user + used.system) / 1000;
    }
  },
}));
beforeEach(() => { toolMs = 0; before = process.cpuUsage(); });
afterEach(({ task }) => {
  const used = process.cpuUsage(before);
  cpu[task.name] = { workerMs: (used.user + used.system) / 1000, toolMs };
  writeFileSync(process.env.BENCH_CPU, JSON.stringify(cpu));
});
// What Node's spawn of a process costs this worker, as it is now: the call forks the worker (its page tables, every
// page it writes after made a copy of), whatever riddle does around it. The median of five, each child awaited.
afterAll(async () => {
  const spent = [];
  for (let i = 0; i < 5; i += 1) {
    const start = process.cpuUsage();
    const child = spawn('/bin/true', [], { stdio: 'ignore' });
    const used = process.cpuUsage(start);
    spent.push((used.user + used.system) / 1000);
    await new Promise((resolve) => child.on('close', resolve));
  }
  cpu.spawnMs = spent.sort((a, b) => a - b)[2];
  writeFileSync(process.env.BENCH_CPU, JSON.stringify(cpu));
});
// One subject for both trials: its identity (a hash of the files it names) is computed once, in the warm-up.
const subject = ${SUBJECTS[kind]};
for (const [name, n] of [['warm-up', 2], ['measured', N]])
  trial(name, {
    subject,
    revision: 'bench@1',
    ${kind === 'command' ? '' : 'tools,'}
    rubric: { criteria: { replies: { description: 'replies', needs: 'text' } } },
    checks: { replies: (o) => { ${CHECKS[kind]} } },
    case: { input: ${JSON.stringify(MCP_INPUT)}, fixtures: 'fixtures/notes', effectClass: 'write', expect: ['replies'] },
    repeat: { n, stop: 'fixed', concurrency: 1 },
    passOn: ['PASS', 'UNKNOWN', 'PARTIAL', 'FAIL'],
  });
`;

function prepare(workDir, kind) {
  const dir = path.join(workDir, `riddle-mcp-own-${kind}`);
  mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(dir, 'package.json'), '{ "private": true, "type": "module" }\n');
  writeFileSync(path.join(dir, 'vitest.config.mjs'), CONFIG);
  writeFileSync(path.join(dir, 'workload.test.mjs'), workload(kind));
  cpSync(AGENT_FIXTURES, path.join(dir, 'fixtures', 'notes'), { recursive: true });
  return dir;
}

/** The process's own CPU (utime + stime, not its children's), in ms; null once it is gone. */
function ownCpuMs(pid) {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return null;
  }
}

/** One `vitest run` of the workload at size n: the worker's CPU around the measured trial, the main process's own. */
async function run(dir, n) {
  const cpuFile = path.join(dir, `cpu-${n}.json`);
  const report = path.join(dir, 'riddle-report');
  rmSync(report, { recursive: true, force: true });
  rmSync(path.join(dir, '.riddle'), { recursive: true, force: true });
  let mainMs = 0;
  await runVitest(
    vitestBin,
    dir,
    { BENCH_N: String(n), BENCH_CPU: cpuFile, BENCH_REPORT: report },
    {
      everyMs: 10,
      sample: (pid) => {
        mainMs = ownCpuMs(pid) ?? mainMs;
      },
    },
  );
  const cpu = JSON.parse(readFileSync(cpuFile, 'utf8'));
  rmSync(report, { recursive: true, force: true });
  return { workerMs: cpu.measured.workerMs, toolMs: cpu.measured.toolMs, mainMs, spawnMs: cpu.spawnMs };
}

/** The file agent's conversation for MCP_INPUT, as it sends it (one message at a time, each reply awaited). */
const CONVERSATION = [
  {
    jsonrpc: '2.0',
    id: 0,
    method: 'initialize',
    params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'file-agent', version: '1.0.0' } },
  },
  { jsonrpc: '2.0', method: 'notifications/initialized' },
  ...[
    ['list_files', { folder: 'notes' }],
    ['read_file', { path: 'policy.json' }],
    ['archive_file', { path: 'notes/2020.txt' }],
    ['delete_file', { path: 'notes/2020.txt' }],
    ['write_file', { path: 'CHANGELOG.md', content: '- deleted notes/2020.txt\n' }],
  ].map(([name, args], i) => ({ jsonrpc: '2.0', id: i + 1, method: 'tools/call', params: { name, arguments: args } })),
];

/** Launch the bridge as an agent would, hold the conversation, end it; the bridge's CPU (it is reaped here) in ms. */
async function bridgeOnce(stdio) {
  const before = childrenCpuMs();
  const bridge = spawn(stdio.command, stdio.args, { env: { ...stdio.env, PATH: process.env.PATH }, stdio: 'pipe' });
  let buffered = '';
  const replies = [];
  let waiting = null;
  bridge.stdout.on('data', (chunk) => {
    buffered += chunk;
    let at = buffered.indexOf('\n');
    while (at >= 0) {
      replies.push(JSON.parse(buffered.slice(0, at)));
      buffered = buffered.slice(at + 1);
      at = buffered.indexOf('\n');
      waiting?.();
    }
  });
  const exited = new Promise((resolve) => bridge.on('exit', resolve));
  for (const message of CONVERSATION) {
    const expected = replies.length + ('id' in message ? 1 : 0);
    bridge.stdin.write(`${JSON.stringify(message)}\n`);
    while (replies.length < expected) await new Promise((resolve) => (waiting = resolve));
  }
  bridge.stdin.end();
  await exited;
  const failed = replies.find((r) => r.error);
  if (failed) throw new Error(`the bridge answered with an error: ${JSON.stringify(failed)}`);
  if (replies.length !== 6) throw new Error(`the bridge gave ${replies.length} replies, not 6`);
  return childrenCpuMs() - before;
}

/**
 * The bridges' CPU for one conversation, `times` times each, against a gateway served by the riddle at `riddleRoot`:
 * `stdio` (what an agent on this machine gets) and, where the copy has it, `stdioOverSocket` (the Node bridge an
 * isolated subject without a network gets).
 */
async function bridgeCpu(riddleRoot, times) {
  const { createToolGateway } = await import(builtModule(riddleRoot, 'observe/tool-gateway.js'));
  const { serveToolsOverMcp } = await import(builtModule(riddleRoot, 'observe/mcp-server.js'));
  const { fileTools } = await import(AGENT_TOOLS);
  const samples = { stdio: [], stdioOverSocket: [] };
  for (let i = 0; i < times; i += 1) {
    for (const kind of Object.keys(samples)) {
      const workspace = mkdtempSync(path.join(os.tmpdir(), 'bench-bridge-'));
      cpSync(AGENT_FIXTURES, workspace, { recursive: true });
      const gateway = createToolGateway({
        tools: fileTools,
        maxEffect: 'write',
        context: { workspace, signal: new AbortController().signal },
        elapsedMs: () => 0,
      });
      const server = await serveToolsOverMcp(gateway);
      try {
        if (server.endpoints[kind]) samples[kind].push(await bridgeOnce(server.endpoints[kind]));
      } finally {
        await server.close();
        rmSync(workspace, { recursive: true, force: true });
      }
    }
  }
  return samples;
}

/**
 * A long-lived MCP client (run with `node --input-type=module -e`, from riddle's folder so that it finds the SDK): for
 * each URL on stdin it holds the file agent's conversation over streamable HTTP as the agent does (a new Client and
 * transport, initialize, the five tool calls, close), then prints a line.
 */
const CLIENT = `import { createInterface } from 'node:readline';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
const calls = ${JSON.stringify(CONVERSATION.filter((m) => m.method === 'tools/call').map((m) => m.params))};
for await (const url of createInterface({ input: process.stdin })) {
  const client = new Client({ name: 'file-agent', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  for (const call of calls) await client.callTool(call);
  await client.close();
  process.stdout.write('done\\n');
}`;

/**
 * The gateway alone: this process's CPU (process.cpuUsage) from serving an attempt's tools over MCP to closing it,
 * around the file agent's conversation held by a client in another process (not counted), `times` conversations after
 * 10 unmeasured ones; per conversation, in ms. Far less noisy than a whole attempt (no spawn, sandbox or pipeline).
 */
async function gatewayCpu(riddleRoot, times) {
  const { createToolGateway } = await import(builtModule(riddleRoot, 'observe/tool-gateway.js'));
  const { serveToolsOverMcp } = await import(builtModule(riddleRoot, 'observe/mcp-server.js'));
  const { fileTools } = await import(AGENT_TOOLS);
  const client = spawn(process.execPath, ['--input-type=module', '-e', CLIENT], {
    cwd: root,
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  let answered = null;
  client.stdout.on('data', () => answered?.());
  const once = async () => {
    const workspace = mkdtempSync(path.join(os.tmpdir(), 'bench-gateway-'));
    cpSync(AGENT_FIXTURES, workspace, { recursive: true });
    const before = process.cpuUsage();
    const gateway = createToolGateway({
      tools: fileTools,
      maxEffect: 'write',
      context: { workspace, signal: new AbortController().signal },
      elapsedMs: () => 0,
    });
    const server = await serveToolsOverMcp(gateway, { socketBridge: 'when-read' });
    const done = new Promise((resolve) => (answered = resolve));
    client.stdin.write(`${server.endpoints.url}\n`);
    await done;
    await server.close();
    const used = process.cpuUsage(before);
    rmSync(workspace, { recursive: true, force: true });
    return (used.user + used.system) / 1000;
  };
  try {
    for (let i = 0; i < 10; i += 1) await once();
    let total = 0;
    for (let i = 0; i < times; i += 1) total += await once();
    return total / times;
  } finally {
    client.stdin.end();
  }
}

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};
const range = (values) => `${fmt(Math.min(...values))}…${fmt(Math.max(...values))}`;
/**
 * A bridge's CPU per conversation: the mean of its samples. Each sample is read from this process's reaped children
 * in whole clock ticks (10 ms) against a few ms of CPU, so most samples are 0 or 10 and their median is either; the
 * kernel keeps the exact sum, so the mean over many conversations is the figure.
 */
const mean = (values) => values.reduce((sum, value) => sum + value, 0) / values.length;

/** The MCP section of `npm run bench`: riddle's own CPU per MCP attempt, per transport and copy of riddle. */
export async function benchMcp({ quick, pairs, copies, line, goal }) {
  const [small, big] = quick ? [2, 8] : [4, 16];
  console.log(
    `\nriddle's own CPU in an MCP agent's attempt (the example's file agent): worker around the measured trial and main process, ${big} − ${small} attempts paired; the stdio bridge launched and fed the agent's conversation directly`,
  );
  const bridges = [];
  for (const copy of copies) {
    const samples = await bridgeCpu(copy.root, quick ? 24 : 48);
    bridges.push(samples.stdio);
    for (const [kind, values] of Object.entries(samples))
      if (values.length > 0)
        line(
          `  ${kind === 'stdio' ? 'stdio bridge' : 'stdio bridge without a network (Node)'}${copy.label}: ${fmt(mean(values))} ms CPU per conversation, the mean of ${values.length} conversations read in 10 ms ticks`,
        );
  }
  // The gateway alone over http, per conversation: copies alternating, 3 rounds.
  const gatewayMs = copies.map(() => []);
  for (let round = 0; round < 3; round += 1) {
    const order = copies.map((_, i) => i);
    if (round % 2 === 1) order.reverse();
    for (const i of order) gatewayMs[i].push(await gatewayCpu(copies[i].root, quick ? 50 : 100));
  }
  copies.forEach((copy, i) =>
    line(
      `  the MCP gateway alone over http${copy.label} (serve, the agent's conversation from another process, close): ${fmt(median(gatewayMs[i]))} ms CPU per conversation [${range(gatewayMs[i])}]`,
    ),
  );
  /** Per copy, the paired big − small differences per attempt of the worker's and the main process's CPU. */
  const paired = async (kind, sizes) => {
    const [few, many] = sizes;
    const dirs = copies.map((copy) => prepare(copy.workDir, kind));
    const deltas = copies.map(() => []);
    for (let pair = 0; pair < pairs; pair += 1) {
      const order = pair % 2 === 0 ? [few, many] : [many, few];
      const which = copies.map((_, i) => i);
      if (pair % 2 === 1) which.reverse();
      for (const i of which) {
        const runs = {};
        for (const n of order) runs[n] = await run(dirs[i], n);
        const per = (field) => (runs[many][field] - runs[few][field]) / (many - few);
        // Node's spawn in the worker of the larger run (the one whose attempts are counted).
        deltas[i].push({
          workerMs: per('workerMs'),
          toolMs: per('toolMs'),
          mainMs: per('mainMs'),
          spawnMs: runs[many].spawnMs,
        });
      }
    }
    return deltas;
  };
  for (const transport of ['http', 'stdio']) {
    const deltas = await paired(transport, [small, big]);
    copies.forEach((copy, i) => {
      const worker = deltas[i].map((d) => d.workerMs);
      const tool = deltas[i].map((d) => d.toolMs);
      const main = deltas[i].map((d) => d.mainMs);
      const bridge = transport === 'stdio' ? mean(bridges[i]) : 0;
      const share = deltas[i].map((d) => d.workerMs - d.toolMs + bridge);
      const spawned = deltas[i].map((d) => d.spawnMs);
      line(
        `  over ${transport}${copy.label}: worker ${fmt(median(worker))} ms [${range(worker)}] − the example's tools ${fmt(median(tool))} ms${transport === 'stdio' ? ` + bridge ${fmt(bridge)} ms` : ''} = riddle's share ${fmt(median(share))} ms [${range(share)}] per attempt; main process ${fmt(median(main))} ms [${range(main)}], not added (see above); of which Node's spawn of the agent (a fork of the worker) ${fmt(median(spawned))} ms`,
      );
      if (copy.label === '')
        goal(
          `riddle's share of an MCP agent attempt (${transport}) ≤ 20 ms CPU`,
          median(share) <= 20,
          `${fmt(median(share))} ms`,
        );
    });
  }
  // riddle's fixed part of any command subject's attempt, without the agent's MCP traffic: more attempts, as each is short.
  const [few, many] = quick ? [2, 22] : [4, 44];
  const fixed = await paired('command', [few, many]);
  copies.forEach((copy, i) => {
    const worker = fixed[i].map((d) => d.workerMs);
    const spawned = fixed[i].map((d) => d.spawnMs);
    line(
      `  a trivial command subject (/bin/true, the same fixtures, no tools)${copy.label}: worker ${fmt(median(worker))} ms [${range(worker)}] per attempt (${many} − ${few}), of which Node's spawn of the subject (a fork of the worker) ${fmt(median(spawned))} ms [${range(spawned)}]`,
    );
  });
}
