import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, utimesSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { withFolderLock, withFolderLockSync } from '../../../src/run/folder-lock.js';

const folder = () => mkdtempSync(path.join(os.tmpdir(), 'riddle-folder-lock-'));

/** The pid of a process that has exited. */
const deadPid = () => Number(execFileSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))']));

describe('a lock folder', () => {
  it('left by a process that died is taken over at once, and nothing of it is left after', async () => {
    const dir = folder();
    const lock = path.join(dir, 'registrations.lock');
    mkdirSync(lock);
    writeFileSync(path.join(lock, 'owner.json'), JSON.stringify({ pid: deadPid(), host: os.hostname() }));
    // Were it waited for as a live holder's, this would throw after 5 s: it is taken over instead.
    expect(await withFolderLock(dir, 'registrations', () => 'written')).toBe('written');
    expect(readdirSync(dir)).toEqual([]);
    mkdirSync(lock);
    writeFileSync(path.join(lock, 'owner.json'), JSON.stringify({ pid: deadPid(), host: os.hostname() }));
    expect(withFolderLockSync(dir, 'registrations', () => 'written at exit')).toBe('written at exit');
    expect(readdirSync(dir)).toEqual([]);
  });

  it('left without an owner (by an earlier riddle) is taken over once it has stood a while', async () => {
    const dir = folder();
    const lock = path.join(dir, 'holdouts.lock');
    mkdirSync(lock);
    const past = new Date(Date.now() - 60_000);
    utimesSync(lock, past, past);
    expect(await withFolderLock(dir, 'holdouts', () => 1)).toBe(1);
    expect(existsSync(lock)).toBe(false);
  });

  it('held by a live process is waited for, then refused naming its holder and what to do', async () => {
    const dir = folder();
    const lock = path.join(dir, 'registrations.lock');
    mkdirSync(lock);
    writeFileSync(path.join(lock, 'owner.json'), JSON.stringify({ pid: process.pid, host: os.hostname() }));
    await expect(withFolderLock(dir, 'registrations', () => 1)).rejects.toThrow(
      `riddle: ${lock} has been held by process ${process.pid} on ${os.hostname()} for 5 s; remove the folder if no riddle run is active`,
    );
    expect(existsSync(path.join(lock, 'owner.json'))).toBe(true);
  }, 30_000);
});
