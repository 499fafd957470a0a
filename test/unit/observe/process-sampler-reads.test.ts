import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import { afterEach, describe, expect, test, vi } from 'vitest';

// What the sampler reads, and what it makes of a hostile command name: every path it opens is one of the watched
// tree's own /proc entries (never /proc itself or another process), and fields are found after the last ')'.
const opened: string[] = [];
vi.mock('node:fs', async (importOriginal) => {
  const real = await importOriginal<typeof import('node:fs')>();
  const spy =
    <A extends unknown[], R>(f: (path: string, ...rest: A) => R) =>
    (path: string, ...rest: A): R => {
      opened.push(path);
      return f(path, ...rest);
    };
  return { ...real, default: real, openSync: spy(real.openSync), readdirSync: spy(real.readdirSync) };
});
const { sampleTree } = await import('../../../src/observe/process-sampler.js');

const started: ChildProcess[] = [];
afterEach(() => {
  for (const child of started.splice(0)) if (child.pid !== undefined) process.kill(-child.pid, 'SIGKILL');
  opened.length = 0;
});

/** Start a detached Node process running `script`; resolves with its pid and its child's once it prints them. */
function start(script: string): Promise<number[]> {
  const child = spawn(process.execPath, ['-e', script], { detached: true, stdio: ['ignore', 'pipe', 'inherit'] });
  started.push(child);
  return new Promise((resolve) => {
    let heard = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      heard += chunk.toString();
      if (heard.endsWith('\n')) resolve(heard.trim().split(' ').map(Number));
    });
  });
}

describe.runIf(process.platform === 'linux')('the process sampler reads', () => {
  test("only the watched tree's own /proc entries, however many processes the host has", async () => {
    const unrelated = await start(`console.log(process.pid + ' 0'); setInterval(() => {}, 1000);`);
    const tree = await start(
      `const c = require('node:child_process').spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' });
       console.log(process.pid + ' ' + c.pid); setInterval(() => {}, 1000);`,
    );
    opened.length = 0;
    const watching = sampleTree(tree[0] ?? -1);
    await new Promise((resolve) => setTimeout(resolve, 700));
    watching.stop();
    const ours = new Set(tree.map(String));
    const pids = opened.map((file) => /^\/proc\/(\d+)\//.exec(file)?.[1] ?? file);
    expect(new Set(pids)).toEqual(ours);
    expect(pids).not.toContain(String(unrelated[0]));
  });

  test('CPU time and memory past a command name holding spaces and parentheses', async () => {
    // Burns 400 ms of CPU under a hostile name, then waits: the sampler starts after the burn and sees all of it.
    const [pid] = await start(
      `process.title = 'x) 1 2 (y) 3'; while (process.cpuUsage().user < 400_000);
       console.log(process.pid + ' 0'); setInterval(() => {}, 1000);`,
    );
    const watching = sampleTree(pid ?? -1);
    await new Promise((resolve) => setTimeout(resolve, 300));
    const resources = watching.stop();
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    expect(stat).toContain('(x) 1 2 (y) 3)');
    // The process is idle by now: its CPU time as /proc says, read the plain way.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const actualMs = [11, 12, 13, 14].reduce((sum, i) => sum + Number(fields[i]), 0) * 10;
    expect(actualMs).toBeGreaterThanOrEqual(400);
    expect(Math.abs((resources.cpuMs ?? 0) - actualMs)).toBeLessThanOrEqual(50);
    expect(resources.peakRssBytes).toBeGreaterThan(10 * 2 ** 20);
  });
});
