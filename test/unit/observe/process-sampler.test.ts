import { spawn, type ChildProcess } from 'node:child_process';
import { afterEach, describe, expect, test } from 'vitest';
import { processTree, sampleTree } from '../../../src/observe/process-sampler.js';

// A process that starts a child, which starts a grandchild; each prints its pid and then waits to be killed.
const TREE = `
const { spawn } = require('node:child_process');
const depth = Number(process.argv[1]);
process.stdout.write(process.pid + '\\n'); // a string: console.log would colour a bare number under FORCE_COLOR
if (depth > 0) spawn(process.execPath, ['-e', process.env.TREE_SCRIPT, String(depth - 1)], { stdio: ['ignore', 'inherit', 'inherit'] });
setInterval(() => {}, 1000);
`;

const started: ChildProcess[] = [];
afterEach(() => {
  for (const child of started.splice(0)) if (child.pid !== undefined) process.kill(-child.pid, 'SIGKILL');
});

/** Start a detached process tree of the given depth; resolves with the pids it printed, root first. */
function startTree(depth: number): Promise<{ root: number; pids: number[] }> {
  const child = spawn(process.execPath, ['-e', TREE, String(depth)], {
    detached: true,
    stdio: ['ignore', 'pipe', 'inherit'],
    env: { ...process.env, TREE_SCRIPT: TREE },
  });
  started.push(child);
  return new Promise((resolve, reject) => {
    // A tree whose script fails must fail the test at once, not leave it waiting for pids.
    child.on('exit', (code) => reject(new Error(`the tree's root exited (${code}) before printing every pid`)));
    const pids: number[] = [];
    let buffered = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      buffered += chunk.toString();
      const lines = buffered.split('\n');
      buffered = lines.pop() ?? '';
      pids.push(...lines.filter(Boolean).map(Number));
      if (pids.length === depth + 1) resolve({ root: child.pid ?? -1, pids });
    });
  });
}

describe.runIf(process.platform === 'linux')('the process sampler', () => {
  test('follows a child and a grandchild, and lists no unrelated process', async () => {
    const [watched, unrelated] = await Promise.all([startTree(2), startTree(1)]);
    const tree = processTree(watched.root);
    expect(tree[0]).toBe(watched.root);
    expect([...tree].sort()).toEqual([...watched.pids].sort());
    for (const pid of [...unrelated.pids, process.pid]) expect(tree).not.toContain(pid);
  });

  test("measures the tree's CPU time and memory", async () => {
    const watched = await startTree(1);
    const sampler = sampleTree(watched.root);
    const resources = sampler.stop();
    expect(sampler.note).toBeNull();
    expect(resources.cpuMs).toBeGreaterThanOrEqual(0);
    // Two Node processes hold well over 10 MB between them.
    expect(resources.peakRssBytes).toBeGreaterThan(10 * 2 ** 20);
  });

  test('a process that has ended leaves an empty tree behind its pid', async () => {
    const watched = await startTree(0);
    const [child] = started.splice(0);
    process.kill(-(child?.pid ?? 0), 'SIGKILL');
    await new Promise((resolve) => child?.once('exit', resolve));
    const resources = sampleTree(watched.root).stop();
    expect(resources).toEqual({ cpuMs: null, peakRssBytes: null });
  });
});
