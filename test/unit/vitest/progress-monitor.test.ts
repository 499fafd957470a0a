import { existsSync, readdirSync, rmSync } from 'node:fs';
import { spawn } from 'node:child_process';
import { describe, expect, it, vi } from 'vitest';
import type { Vitest } from 'vitest/node';
import { ProgressMonitor } from '../../../src/vitest/progress.js';

describe('the progress channel at the end of a run', () => {
  it('never fails the run while a worker still writes snapshots into it', async () => {
    let dir = '';
    const provided = { provide: (_key: string, channel: { dir: string }) => void (dir = channel.dir) };
    const monitor = new ProgressMonitor(() => {}, 1_000);
    monitor.start(provided as unknown as Vitest);
    // A worker's last snapshots, written and renamed in a loop as its asynchronous writes land after the trial ended:
    // the folder fills again between being emptied and being removed.
    const writer = spawn(process.execPath, [
      '-e',
      `const fs = require('node:fs'); const dir = ${JSON.stringify(dir)}; let i = 0;
       for (;;) { try { fs.writeFileSync(dir + '/t' + (i++ % 50) + '.json.tmp', '{}'); } catch {} }`,
    ]);
    try {
      await vi.waitFor(() => expect(readdirSync(dir).length).toBeGreaterThan(0), { timeout: 30_000, interval: 5 });
      expect(() => monitor.stop()).not.toThrow();
    } finally {
      writer.kill('SIGKILL');
      await new Promise((resolve) => writer.once('exit', resolve));
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);

  it('removes the channel folder when nothing writes into it', () => {
    let dir = '';
    const monitor = new ProgressMonitor(() => {}, 1_000);
    monitor.start({
      provide: (_key: string, channel: { dir: string }) => void (dir = channel.dir),
    } as unknown as Vitest);
    expect(existsSync(dir)).toBe(true);
    monitor.stop();
    expect(existsSync(dir)).toBe(false);
  });
});
