import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, test, vi } from 'vitest';
import { fingerprint, Registrations, type DeclaredPolicy } from '../../../src/model/index.js';
import {
  checkRegistration,
  recordRegistration,
  REGISTRATIONS_FILE,
  writePendingRegistrations,
} from '../../../src/run/registrations.js';

const policy = (n: number): DeclaredPolicy => ({
  n,
  order: 'interleaved',
  seed: 1,
  stop: { kind: 'fixed' },
  threshold: { rate: 0.9, alpha: 0.05 },
  missingEvidence: 'unknown',
  aggregation: { disputed: 'both' },
});

const roots: string[] = [];
const project = () => {
  const root = mkdtempSync(path.join(os.tmpdir(), 'riddle-registrations-'));
  roots.push(root);
  return root;
};
afterEach(async () => {
  vi.useRealTimers();
  vi.restoreAllMocks();
  // Nothing a test left waiting is written into the next test's project.
  await writePendingRegistrations().catch(() => {});
  for (const root of roots.splice(0)) rmSync(root, { recursive: true, force: true });
});

/** Register a trial as a run does, then write what is waiting, as a test file's end does. */
async function register(root: string, trialId: string, declared: DeclaredPolicy, outcome: string) {
  const check = checkRegistration(root, trialId, declared, false);
  await recordRegistration(root, trialId, declared, check, outcome);
  await writePendingRegistrations();
  return check;
}

const readRegistrations = (root: string) =>
  JSON.parse(readFileSync(path.join(root, REGISTRATIONS_FILE), 'utf8')) as Registrations;

describe('registrations written together', () => {
  test('many trials registered in a row are written by one rewrite, and seen as registered before it', async () => {
    const root = project();
    const ids = Array.from({ length: 200 }, (_, i) => `trial-${String(i).padStart(3, '0')}`);
    for (const id of ids) {
      const check = checkRegistration(root, id, policy(5), false);
      expect(check.status).toBe('registered');
      await recordRegistration(root, id, policy(5), check, `outcome-${id}`);
    }
    // Not one write per trial: nothing is written until the registrations are written together.
    expect(existsSync(path.join(root, REGISTRATIONS_FILE))).toBe(false);
    expect(checkRegistration(root, 'trial-007', policy(5), false).status).toBe('unchanged');
    expect(checkRegistration(root, 'trial-007', policy(6), false).status).toBe('changed');
    await writePendingRegistrations();
    const written = readRegistrations(root);
    expect(Object.keys(written.trials)).toEqual(ids);
    expect(written.trials['trial-199']?.outcome).toBe('outcome-trial-199');
  });

  test('are written after a short wait when no host asks', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const root = project();
    const check = checkRegistration(root, 'a', policy(5), false);
    await recordRegistration(root, 'a', policy(5), check, 'outcome-a');
    expect(existsSync(path.join(root, REGISTRATIONS_FILE))).toBe(false);
    // Past any wait: it grows with the time the last write took.
    await vi.advanceTimersByTimeAsync(600_000);
    vi.useRealTimers();
    // The write itself waits on nothing faked; the lock is free.
    await writePendingRegistrations();
    expect(Object.keys(readRegistrations(root).trials)).toEqual(['a']);
  });

  /** Trial `a` registered, and written at the wait into a project whose `.riddle` became a file: the write fails. */
  async function failedAtTheWait(): Promise<{ root: string; check: ReturnType<typeof checkRegistration> }> {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const root = project();
    const check = checkRegistration(root, 'a', policy(5), false);
    // The folder the registrations and their lock go into cannot be made.
    writeFileSync(path.join(root, '.riddle'), 'not a folder');
    await recordRegistration(root, 'a', policy(5), check, 'outcome-a');
    // Past any wait: it grows with the time the last write took.
    await vi.advanceTimersByTimeAsync(600_000);
    vi.useRealTimers();
    // The failed write settles (its promises) before anything comes next.
    await new Promise((resolve) => setImmediate(resolve));
    return { root, check };
  }

  test('a write that failed at the wait fails the next trial that registers', async () => {
    const { root, check } = await failedAtTheWait();
    await expect(recordRegistration(root, 'b', policy(5), check, 'outcome-b')).rejects.toThrow(
      /policies of earlier trials could not be registered: .*(ENOTDIR|EEXIST)/,
    );
    rmSync(path.join(root, '.riddle'));
  });

  test('a write that failed at the wait, with no trial registering after it, fails the host asking to write', async () => {
    const { root } = await failedAtTheWait();
    await expect(writePendingRegistrations()).rejects.toThrow(/could not be registered/);
    // Told once.
    await writePendingRegistrations();
    rmSync(path.join(root, '.riddle'));
  });
});

describe('registrations read once per change of the file', () => {
  test('checking many trials against an unchanged file parses it once', async () => {
    const root = project();
    await register(root, 'a', policy(5), 'outcome-a');
    await register(root, 'b', policy(5), 'outcome-b');
    const parse = vi.spyOn(Registrations, 'safeParse');
    for (let i = 0; i < 20; i += 1) expect(checkRegistration(root, 'a', policy(5), false).status).toBe('unchanged');
    expect(checkRegistration(root, 'b', policy(6), false).status).toBe('changed');
    expect(parse).not.toHaveBeenCalled();
  });

  test('a file replaced by another process (or by hand) is read afresh', async () => {
    const root = project();
    await register(root, 'a', policy(5), 'outcome-a');
    expect(checkRegistration(root, 'a', policy(5), false).status).toBe('unchanged');
    const file = path.join(root, REGISTRATIONS_FILE);
    const other = JSON.parse(readFileSync(file, 'utf8')) as Registrations;
    const registered = other.trials.a;
    if (!registered) throw new Error('trial a was not registered');
    // Another worker registers trial c and changes a's registration: same file, new content.
    other.trials.c = { ...registered, outcome: 'outcome-c' };
    other.trials.a = { ...registered, policy: 'sha256:0' };
    writeFileSync(file, JSON.stringify(other));
    expect(checkRegistration(root, 'a', policy(5), false).status).toBe('changed');
    expect(checkRegistration(root, 'c', policy(5), false).status).toBe('unchanged');
    writeFileSync(file, '{ not json');
    expect(() => checkRegistration(root, 'a', policy(5), false)).toThrow(/registrations\.json is not valid JSON/);
  });

  test('registering keeps every earlier registration, in the file and in what later checks see', async () => {
    const root = project();
    for (const id of ['c', 'a', 'b']) await register(root, id, policy(5), `outcome-${id}`);
    const written = JSON.parse(readFileSync(path.join(root, REGISTRATIONS_FILE), 'utf8')) as Registrations;
    expect(Object.keys(written.trials)).toEqual(['a', 'b', 'c']);
    expect(written.trials.b?.outcome).toBe('outcome-b');
    for (const id of ['a', 'b', 'c']) expect(checkRegistration(root, id, policy(5), false).status).toBe('unchanged');
    // A check that was made before another trial registered does not undo that registration when it records.
    const stale = checkRegistration(root, 'd', policy(5), false);
    await register(root, 'e', policy(5), 'outcome-e');
    await recordRegistration(root, 'd', policy(5), stale, 'outcome-d');
    await writePendingRegistrations();
    const after = JSON.parse(readFileSync(path.join(root, REGISTRATIONS_FILE), 'utf8')) as Registrations;
    expect(Object.keys(after.trials)).toEqual(['a', 'b', 'c', 'd', 'e']);
  });
});

describe('a policy registered before its record stored absent options as null', () => {
  test('reads omitted and null options alike, and a declared option as a change', async () => {
    const root = project();
    const withSummary = (summary: Record<string, unknown>): DeclaredPolicy => ({
      ...policy(4),
      aggregation: { matchedControl: 'each-arm', passOn: ['PASS'], summary },
    });
    // Registered when the TrialSuite record omitted undeclared summary options (riddle.trial-suite/2).
    await register(root, 'suite', withSummary({ dataset: 'd', repeated: { rule: { k: 4, atLeast: 0.5 } } }), 'o-1');
    const asNull = withSummary({
      dataset: 'd',
      criterion: null,
      groupBy: null,
      reference: null,
      panel: null,
      alpha: null,
      repeated: { rule: { k: 4, atLeast: 0.5 } },
      rule: null,
    });
    expect(checkRegistration(root, 'suite', asNull, false).status).toBe('unchanged');
    const declared = withSummary({ dataset: 'd', repeated: { rule: { k: 4, atLeast: 0.5 } }, alpha: 0.01 });
    expect(checkRegistration(root, 'suite', declared, false).status).toBe('changed');
    // Only the field declared anew is named: the registered nulls read as not declared, as the fingerprint reads them.
    expect(checkRegistration(root, 'suite', declared, false).changes).toEqual([
      { field: 'aggregation.summary.alpha', registered: null, declared: 0.01 },
    ]);
  });

  test('names each field a changed policy changed, with the registered and the declared value', async () => {
    const root = project();
    await register(root, 't', policy(44), 'sha256:first');
    const changed = { ...policy(20), stop: { kind: 'curtail' }, threshold: { rate: 0.8, alpha: 0.05 } };
    const check = checkRegistration(root, 't', changed, false);
    expect(check).toMatchObject({ status: 'changed', earlierOutcome: 'sha256:first' });
    expect(check.changes).toEqual([
      { field: 'n', registered: 44, declared: 20 },
      { field: 'stop.kind', registered: 'fixed', declared: 'curtail' },
      { field: 'threshold.rate', registered: 0.9, declared: 0.8 },
    ]);
    expect(checkRegistration(root, 't', changed, true)).toMatchObject({ status: 'accepted', changes: check.changes });
    expect(checkRegistration(root, 't', policy(44), false)).toMatchObject({ status: 'unchanged', changes: null });
    expect(checkRegistration(root, 'new', policy(44), false)).toMatchObject({ status: 'registered', changes: null });
  });

  test('reads a registration fingerprinted with its nulls (a trial without a summary: `summary: null`) as unchanged', () => {
    const root = project();
    const plain: DeclaredPolicy = {
      ...policy(6),
      aggregation: { matchedControl: 'each-arm', passOn: ['PASS'], summary: null },
    };
    const registrations: Registrations = {
      schema: 'riddle.registrations/1',
      trials: { t: { policy: fingerprint(plain), declared: plain, outcome: 'o-1' } },
    };
    mkdirSync(path.join(root, path.dirname(REGISTRATIONS_FILE)), { recursive: true });
    writeFileSync(path.join(root, REGISTRATIONS_FILE), JSON.stringify(registrations));
    expect(checkRegistration(root, 't', plain, false).status).toBe('unchanged');
    expect(checkRegistration(root, 't', policy(7), false).status).toBe('changed');
  });
});

describe('a registrations file read by a worker', () => {
  const write = (root: string, trials: Record<string, unknown>) => {
    mkdirSync(path.join(root, '.riddle'), { recursive: true });
    writeFileSync(
      path.join(root, REGISTRATIONS_FILE),
      JSON.stringify({ schema: 'riddle.registrations/1', trials }, null, 2),
    );
  };
  const entry = (n: number) => ({ policy: fingerprint(policy(n)), declared: policy(n), outcome: `outcome-${n}` });

  test("checks a trial's own entry, naming the file and the field when it is malformed", () => {
    const root = project();
    write(root, { mine: { ...entry(5), declared: { ...policy(5), n: 'five' } } });
    expect(() => checkRegistration(root, 'mine', policy(5), false)).toThrow(
      `riddle: ${path.join(root, REGISTRATIONS_FILE)} is not a registrations file (trials."mine".declared.n: `,
    );
  });

  test("lets a trial run when another trial's entry is malformed, and keeps that entry as it was when writing", async () => {
    const root = project();
    const broken = { policy: 42, declared: 'hand-edited' };
    write(root, { other: broken, registered: entry(5) });
    expect(checkRegistration(root, 'registered', policy(5), false).status).toBe('unchanged');
    await register(root, 'new', policy(3), 'outcome-new');
    expect(readRegistrations(root).trials).toEqual({ new: expect.any(Object), other: broken, registered: entry(5) });
  });

  test('refuses a file that is not one, naming it', () => {
    const root = project();
    mkdirSync(path.join(root, '.riddle'));
    writeFileSync(
      path.join(root, REGISTRATIONS_FILE),
      JSON.stringify({ schema: 'riddle.registrations/9', trials: {} }),
    );
    expect(() => checkRegistration(root, 'any', policy(5), false)).toThrow(/is not a registrations file \(/);
    writeFileSync(path.join(root, REGISTRATIONS_FILE), '{ not json');
    expect(() => checkRegistration(root, 'any', policy(5), false)).toThrow(/is not valid JSON; restore it/);
  });
});

describe('registrations of a process killed before it wrote them', () => {
  const journalOf = (root: string, pid = process.pid) =>
    path.join(root, '.riddle', `registrations.pending.${os.hostname()}.${pid}.jsonl`);
  /** The pid of a process that has exited. */
  const deadPid = () => Number(execFileSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))']));

  test('are kept in a journal as they are made, which is gone once they are written', async () => {
    const root = project();
    const check = checkRegistration(root, 'a', policy(5), false);
    await recordRegistration(root, 'a', policy(5), check, 'outcome-a');
    expect(existsSync(path.join(root, REGISTRATIONS_FILE))).toBe(false);
    const [line] = readFileSync(journalOf(root), 'utf8').trim().split('\n');
    expect(JSON.parse(line ?? '')).toMatchObject({ trial: 'a', entry: { outcome: 'outcome-a' }, accepted: false });
    await writePendingRegistrations();
    expect(existsSync(journalOf(root))).toBe(false);
    expect(readRegistrations(root).trials.a?.outcome).toBe('outcome-a');
  });

  test('are merged by the next process that reads them, so a policy changed since is reported as changed', () => {
    const root = project();
    // What a worker killed just after its trial ended left: its journal, the last line cut short.
    const pid = deadPid();
    const entry = {
      policy: fingerprint(policy(20)),
      declared: policy(20),
      outcome: 'sha256:seen',
    };
    mkdirSync(path.join(root, '.riddle'), { recursive: true });
    writeFileSync(
      journalOf(root, pid),
      `${JSON.stringify({ trial: 'seen', entry, accepted: false })}\n{"trial":"cut sh`,
    );
    const check = checkRegistration(root, 'seen', policy(15), false);
    expect(check).toMatchObject({ status: 'changed', earlierOutcome: 'sha256:seen' });
    expect(readRegistrations(root).trials.seen?.outcome).toBe('sha256:seen');
    expect(existsSync(journalOf(root, pid))).toBe(false);
  });

  test('of a process still running are left to it', () => {
    const root = project();
    mkdirSync(path.join(root, '.riddle'), { recursive: true });
    // The parent of this test's process: alive, and not this process.
    const live = journalOf(root, process.ppid);
    writeFileSync(
      live,
      `${JSON.stringify({ trial: 'live', entry: { policy: 'p', declared: policy(5), outcome: 'o' }, accepted: false })}\n`,
    );
    expect(checkRegistration(root, 'live', policy(5), false).status).toBe('registered');
    expect(existsSync(live)).toBe(true);
  });
});
