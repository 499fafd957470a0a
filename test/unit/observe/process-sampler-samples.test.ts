import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, test, vi } from 'vitest';

// When the sampler reads, what counts: its interval is driven by hand here, so what a test sees never depends on how
// fast a busy machine runs it.
const interval = vi.hoisted(() => ({ ticks: [] as (() => void)[] }));
vi.mock('node:timers', async (importOriginal) => {
  const real = await importOriginal<typeof import('node:timers')>();
  return {
    ...real,
    setInterval: (callback: () => void) => {
      interval.ticks.push(callback);
      return { unref: () => {} };
    },
    clearInterval: () => {},
  };
});
const { processTree, sampleTree } = await import('../../../src/observe/process-sampler.js');

/** One sample of the sampler started last, as its interval would take it. */
const tick = () => interval.ticks.at(-1)?.();

const started: ChildProcess[] = [];
afterEach(() => {
  for (const child of started.splice(0)) if (child.pid !== undefined) process.kill(-child.pid, 'SIGKILL');
  interval.ticks.length = 0;
});

const lines = (child: ChildProcess) => {
  const heard: string[] = [];
  const waiting: (() => void)[] = [];
  let buffered = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    buffered += chunk.toString();
    const parts = buffered.split('\n');
    buffered = parts.pop() ?? '';
    heard.push(...parts);
    for (const wake of waiting.splice(0)) wake();
  });
  /** The next line the process prints. */
  return async (): Promise<string> => {
    while (heard.length === 0) await new Promise<void>((resolve) => waiting.push(resolve));
    return heard.shift() ?? '';
  };
};

/** A Node process standing in for an isolation engine's launcher: it starts `command` when told, and says when its child is reaped. */
function startLauncher(command: string, args: string[]) {
  const script = `
    const { spawn } = require('node:child_process');
    let child;
    process.stdin.on('data', (line) => {
      if (String(line).startsWith('start')) {
        child = spawn(${JSON.stringify(command)}, ${JSON.stringify(args)}, { stdio: 'ignore' });
        process.stdout.write(child.pid + '\\n');
        child.on('exit', () => process.stdout.write('reaped\\n'));
      }
    });
    process.stdout.write('ready\\n');`;
  const child = spawn(process.execPath, ['-e', script], { detached: true, stdio: ['pipe', 'pipe', 'inherit'] });
  started.push(child);
  return { root: child.pid ?? -1, stdin: child.stdin, next: lines(child) };
}

describe.runIf(process.platform === 'linux')('what the process sampler counts', () => {
  test('a process that ended before the first sample is not measured, not given the figures of its first instant', async () => {
    const child = spawn('/bin/true', [], { detached: true, stdio: 'ignore' });
    const sampler = sampleTree(child.pid ?? -1);
    await new Promise((resolve) => child.once('exit', resolve));
    expect(sampler.stop()).toEqual({ cpuMs: null, peakRssBytes: null });
    expect(sampler.note).toBeNull();
  });

  test('a process still running at stop is read then, a last time', async () => {
    const launcher = startLauncher('/bin/sleep', ['60']);
    expect(await launcher.next()).toBe('ready');
    const resources = sampleTree(launcher.root).stop();
    // A Node process holds well over 10 MB.
    expect(resources.peakRssBytes).toBeGreaterThan(10 * 2 ** 20);
    expect(resources.cpuMs).not.toBeNull();
  });

  test("under a launcher only the subject's processes count, not the launcher's own", async () => {
    const launcher = startLauncher('/bin/sleep', ['60']);
    expect(await launcher.next()).toBe('ready');
    launcher.stdin?.write('start\n');
    await launcher.next();
    const resources = sampleTree(launcher.root, 1).stop();
    // sleep holds a megabyte or two; the Node launcher, tens.
    expect(resources.peakRssBytes).toBeGreaterThan(0);
    expect(resources.peakRssBytes).toBeLessThan(10 * 2 ** 20);
  });

  test("a child still running the launcher's program (not yet exec'd into the subject) is the launcher's", async () => {
    const launcher = startLauncher(process.execPath, ['-e', 'setInterval(() => {}, 1000)']);
    expect(await launcher.next()).toBe('ready');
    launcher.stdin?.write('start\n');
    await launcher.next();
    expect(sampleTree(launcher.root, 1).stop()).toEqual({ cpuMs: null, peakRssBytes: null });
  });

  test("the memory a launcher's copy held before it exec'd the subject is not the subject's", async () => {
    const folder = mkdtempSync(path.join(os.tmpdir(), 'riddle-sampler-exec-'));
    const go = path.join(folder, 'go');
    // A shell launcher whose forked copy grows past 30 MB, then waits for `go` before it execs the subject.
    const script = `mkfifo ${go}; ( x=$(head -c 30000000 /dev/zero | tr '\\0' a); echo big; read line < ${go}; exec /bin/sleep 60 ) & wait`;
    const child = spawn('/bin/sh', ['-c', script], { detached: true, stdio: ['ignore', 'pipe', 'inherit'] });
    started.push(child);
    const next = lines(child);
    expect(await next()).toBe('big');
    const root = child.pid ?? -1;
    const sampler = sampleTree(root, 1);
    tick(); // reads the copy's high-water mark
    writeFileSync(go, 'go\n');
    const execd = () =>
      processTree(root, 1).some((pid) => readFileSync(`/proc/${pid}/comm`, 'latin1').trim() === 'sleep');
    // Bounded by the test's timeout; a busy machine only makes it wait longer.
    while (!execd()) await new Promise((resolve) => setImmediate(resolve));
    const resources = sampler.stop();
    expect(resources.peakRssBytes).toBeGreaterThan(0);
    expect(resources.peakRssBytes).toBeLessThan(10 * 2 ** 20);
  });

  test('under a launcher the subject is looked for at every sample until found, not only every other one', async () => {
    const launcher = startLauncher('/bin/sleep', ['60']);
    expect(await launcher.next()).toBe('ready');
    const sampler = sampleTree(launcher.root, 1);
    tick(); // a sample that searches the tree in any case: no subject yet
    launcher.stdin?.write('start\n');
    const subject = Number(await launcher.next());
    tick(); // a sample that would not search the tree again
    process.kill(subject, 'SIGKILL');
    expect(await launcher.next()).toBe('reaped');
    // Only that sample can have seen the subject: it is gone by the last reading.
    expect(sampler.stop().peakRssBytes).toBeGreaterThan(0);
  });
});
