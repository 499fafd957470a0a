// Imported into every Node process of a measured run (NODE_OPTIONS=--import): as a process exits it notes its main
// thread's CPU and the whole process's (the difference is V8's compiler and garbage-collector threads, and libuv's
// pool), one JSON line per process in the file BENCH_THREADS names; a workload imports `threadCpuMs` from it to note its
// worker's own, which Vitest stops without an exit. Not a test and not part of riddle.
import { appendFileSync, readFileSync } from 'node:fs';

const file = process.env.BENCH_THREADS;
/** USER_HZ: /proc reports CPU time in ticks of 10 ms. */
const MS_PER_TICK = 10;
/** This thread's user + system CPU in ms, from /proc (clock ticks of 10 ms); Linux only. */
export function threadCpuMs() {
  const stat = readFileSync('/proc/thread-self/stat', 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) * MS_PER_TICK;
}
if (file && process.platform === 'linux')
  process.on('exit', () => {
    const used = process.cpuUsage();
    const line = {
      pid: process.pid,
      ppid: process.ppid,
      threadMs: threadCpuMs(),
      processMs: (used.user + used.system) / 1000,
    };
    appendFileSync(file, `${JSON.stringify(line)}\n`);
  });
