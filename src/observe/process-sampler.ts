import { existsSync, readdirSync, readFileSync } from 'node:fs';
import type { RoundResources } from './subject.js';

/** /proc reports CPU times in USER_HZ ticks, which Linux fixes at 100 per second for user space. */
const MS_PER_TICK = 10;
const INTERVAL_MS = 25;

interface ProcessSample {
  pgrp: number;
  /** utime + stime + cutime + cstime: the process and its reaped descendants, in ms. */
  cpuMs: number;
  rssBytes: number;
  hwmBytes: number;
}

function readSample(pid: string): ProcessSample | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name may hold spaces and parentheses: fields start after the last ')'.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const field = (n: number) => Number(fields[n - 3]);
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = (name: string) => Number(new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? 0) * 1024;
    return {
      pgrp: field(5),
      cpuMs: (field(14) + field(15) + field(16) + field(17)) * MS_PER_TICK,
      rssBytes: kb('VmRSS'),
      hwmBytes: kb('VmHWM'),
    };
  } catch {
    return null; // the process ended between listing and reading
  }
}

export interface GroupSampler {
  /** Stop sampling and give the figures; null where nothing could be read. */
  stop(): RoundResources;
  /** Why figures are missing, when they are. */
  readonly note: string | null;
}

/**
 * Sample the CPU time and resident memory of a process group from /proc every 25 ms. Summing `cutime`/`cstime`
 * of live members counts every reaped descendant once (in its reaper), so CPU time covers the whole tree; the
 * last interval before the group ends is not seen, so both figures are lower bounds. Peak memory is the larger of
 * the group's summed RSS at any sample and any single member's own high-water mark.
 */
export function sampleGroup(pgid: number): GroupSampler {
  if (!existsSync('/proc/self/stat')) {
    return {
      stop: () => ({ cpuMs: null, peakRssBytes: null }),
      note: 'CPU time and peak memory need Linux /proc; not measured here',
    };
  }
  let cpuMs: number | null = null;
  let peakRssBytes: number | null = null;
  const sample = () => {
    let cpu = 0;
    let rss = 0;
    let hwm = 0;
    let members = 0;
    for (const pid of readdirSync('/proc')) {
      if (!/^\d+$/.test(pid)) continue;
      const found = readSample(pid);
      if (found === null || found.pgrp !== pgid) continue;
      members += 1;
      cpu += found.cpuMs;
      rss += found.rssBytes;
      hwm = Math.max(hwm, found.hwmBytes);
    }
    if (members === 0) return;
    cpuMs = Math.max(cpuMs ?? 0, cpu);
    peakRssBytes = Math.max(peakRssBytes ?? 0, rss, hwm);
  };
  sample();
  const timer = setInterval(sample, INTERVAL_MS);
  timer.unref();
  return {
    note: null,
    stop() {
      clearInterval(timer);
      return { cpuMs, peakRssBytes };
    },
  };
}
