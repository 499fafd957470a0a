import { existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { expect as vitestExpect } from 'vitest';
import {
  conductTrial,
  prepareTrial,
  switchesFromEnvironment,
  TrialDeclarationError,
  type TrialDeclaration,
  type TrialHost,
  type TrialSwitches,
  writePendingRegistrations,
} from '../../../src/run/index.js';
import { readHoldoutLedger } from '../../../src/run/holdout-ledger.js';

// A fake host: no Vitest test context, only what the core asks of a host.
const SWITCHES: TrialSwitches = { holdout: false, revealHoldout: false, acceptPolicy: false, recordProviders: false };

function fakeHost(root: string, switches: Partial<TrialSwitches> = {}): TrialHost {
  let now = Date.parse('2026-01-01T00:00:00Z');
  return {
    site: { name: 'answers yes', file: 'unit.test.ts', path: ['outer'], line: 12 },
    root,
    settings: { passOn: null, sealSalt: '' },
    switches: { ...SWITCHES, ...switches },
    clock: { now: () => (now += 1) },
    expect: vitestExpect,
  };
}

const project = () => {
  const root = mkdtempSync(path.join(os.tmpdir(), 'riddle-prepare-'));
  mkdirSync(path.join(root, 'fixtures', 'notes'), { recursive: true });
  writeFileSync(path.join(root, 'fixtures', 'notes', 'a.txt'), 'first');
  return root;
};

const declaration = (extra: Partial<TrialDeclaration> = {}): TrialDeclaration => ({
  subject: () => 'yes',
  rubric: { criteria: { answers: { description: 'answers yes', needs: 'text' } } },
  checks: {
    answers: (observation: { reply: unknown }) => {
      vitestExpect(String(observation.reply)).toMatch(/^yes/);
    },
  },
  case: { input: 'a', expect: ['answers'], fixtures: 'fixtures/notes' },
  repeat: { n: 3, stop: 'fixed' },
  ...extra,
});

describe('prepareTrial on a fake host', () => {
  it('pins fixtures, checks dependencies, identifies the subject and captures the Environment', async () => {
    const root = project();
    const prepared = await prepareTrial(
      declaration({ dependencies: [{ name: 'RIDDLE_UNIT_UNSET_VARIABLE', kind: 'env', onUnavailable: 'blocked' }] }),
      fakeHost(root),
    );
    if (prepared.kind !== 'ready') throw new Error('expected a ready trial');
    const { plan } = prepared;
    // The host's site, describe path included, names the trial.
    expect(plan.suite.name).toBe('answers yes');
    expect(plan.suite.file).toBe('unit.test.ts');
    expect(plan.fixtures.case).toBe(realpathSync(path.join(root, 'fixtures', 'notes')));
    expect(plan.suite.arms[0]?.case.fixtures).toEqual({
      path: 'fixtures/notes',
      fingerprint: expect.stringMatching(/^sha256:/),
    });
    expect(plan.unavailable.map((u) => u.dependency.name)).toEqual(['RIDDLE_UNIT_UNSET_VARIABLE']);
    expect(plan.environment.subject.revision).toMatch(/^[0-9a-f]{12}$/);
    expect(plan.environment.dependencies.map((d) => d.name)).toContain('RIDDLE_UNIT_UNSET_VARIABLE');
    expect(plan.registration).toEqual(prepared.registration);
    expect(prepared.registration.status).toBe('registered');
    expect(plan.holdout).toBeNull();
    await prepared.close();
  });

  it('editing a fixture gives another pinned Case', async () => {
    const root = project();
    const first = await prepareTrial(declaration(), fakeHost(root));
    writeFileSync(path.join(root, 'fixtures', 'notes', 'a.txt'), 'edited');
    const second = await prepareTrial(declaration(), fakeHost(root));
    if (first.kind !== 'ready' || second.kind !== 'ready') throw new Error('expected ready trials');
    expect(second.plan.suite.arms[0]?.caseFingerprint).not.toBe(first.plan.suite.arms[0]?.caseFingerprint);
  });

  it('skips a holdout trial not asked for, before any access is claimed', async () => {
    const root = project();
    const prepared = await prepareTrial(declaration({ holdout: { budget: 2 } }), fakeHost(root));
    expect(prepared).toEqual({ kind: 'skipped', reason: expect.stringContaining('RIDDLE_HOLDOUT=1') });
    expect(existsSync(path.join(root, '.riddle', 'holdouts.json'))).toBe(false);
  });

  it('throws a declaration error naming the host site for a malformed declaration', async () => {
    const root = project();
    const wrong = { ...declaration(), repet: { n: 3 } } as unknown as TrialDeclaration;
    await expect(prepareTrial(wrong, fakeHost(root))).rejects.toThrow(TrialDeclarationError);
    await expect(prepareTrial(wrong, fakeHost(root))).rejects.toThrow(/unit\.test\.ts:12.*repet/);
  });
});

describe('conductTrial on a fake host', () => {
  it('assembles a holdout run as verdicts and rates only, counts the access and registers the policy', async () => {
    const root = project();
    const conducted = await conductTrial(declaration({ holdout: { budget: 2 } }), fakeHost(root, { holdout: true }));
    if (conducted.kind !== 'ran') throw new Error('expected a run');
    const { outcome } = conducted;
    expect(outcome.judgment.verdict).toBe('UNKNOWN');
    expect(outcome.arms[0]?.run).toBe(3);
    expect(outcome.attempts).toEqual([]);
    expect(outcome.execution.order).toEqual([]);
    expect(outcome.execution.holdout).toEqual({ access: 1, budget: 2 });
    expect(outcome.warnings.some((w) => w.startsWith('holdout: reported as verdict and rate only'))).toBe(true);
    expect(readHoldoutLedger(path.join(root, '.riddle', 'holdouts.json')).entries.map((e) => e.event)).toEqual([
      'access',
    ]);
    // The policy is registered with the Outcome as reported, although its attempts are withheld (written with the
    // registrations of the moment: a test file's end writes them).
    await writePendingRegistrations();
    const registrations = JSON.parse(readFileSync(path.join(root, '.riddle', 'registrations.json'), 'utf8'));
    expect(Object.values(registrations.trials).map((t) => (t as { outcome: string }).outcome)).toEqual([outcome.id]);
  });

  it('keeps a revealed holdout run whole and records the reveal', async () => {
    const root = project();
    const conducted = await conductTrial(
      declaration({ holdout: { budget: 2 } }),
      fakeHost(root, { holdout: true, revealHoldout: true }),
    );
    if (conducted.kind !== 'ran') throw new Error('expected a run');
    expect(conducted.outcome.attempts).toHaveLength(3);
    expect(readHoldoutLedger(path.join(root, '.riddle', 'holdouts.json')).entries.map((e) => e.event)).toEqual([
      'access',
      'reveal',
    ]);
  });

  it('blocks every attempt once the holdout budget is spent', async () => {
    const root = project();
    const host = fakeHost(root, { holdout: true });
    await conductTrial(declaration({ holdout: { budget: 1 } }), host);
    const second = await conductTrial(declaration({ holdout: { budget: 1 } }), host);
    if (second.kind !== 'ran') throw new Error('expected a run');
    expect(second.outcome.arms[0]?.statuses.blocked).toBe(3);
    expect(second.outcome.judgment.blocked).toMatch(/all 1 accesses to this holdout are used/);
  });

  it('fails the test of a passing trial whose declared policy changed after results were seen', async () => {
    const root = project();
    const passing = declaration({ subject: () => 'yes', case: { input: 'a', expect: ['answers'] } });
    const first = await conductTrial({ ...passing, repeat: { n: 14, stop: 'fixed' } }, fakeHost(root));
    if (first.kind !== 'ran') throw new Error('expected a run');
    expect(first.test.outcome).toBe('pass');
    const changed = await conductTrial({ ...passing, repeat: { n: 15, stop: 'fixed' } }, fakeHost(root));
    if (changed.kind !== 'ran') throw new Error('expected a run');
    expect(changed.outcome.judgment.verdict).toBe('PASS');
    expect(changed.test).toEqual({ outcome: 'fail', reason: 'the declared policy changed after results were seen' });
    const accepted = await conductTrial(
      { ...passing, repeat: { n: 15, stop: 'fixed' } },
      fakeHost(root, { acceptPolicy: true }),
    );
    if (accepted.kind !== 'ran') throw new Error('expected a run');
    expect(accepted.test.outcome).toBe('pass');
  });
});

describe('switchesFromEnvironment', () => {
  it('switches on only for the value 1, off when unset, empty or 0', () => {
    expect(switchesFromEnvironment({ RIDDLE_HOLDOUT: '1', RIDDLE_ACCEPT_POLICY: '0', RIDDLE_RECORD: '' })).toEqual({
      holdout: true,
      revealHoldout: false,
      acceptPolicy: false,
      recordProviders: false,
    });
  });

  it('refuses any other value, naming the variable, rather than reading it as off', () => {
    expect(() => switchesFromEnvironment({ RIDDLE_HOLDOUT_REVEAL: 'true' })).toThrow(
      'riddle: RIDDLE_HOLDOUT_REVEAL="true": set it to 1 to switch it on, or to 0 (or unset it)',
    );
    expect(() => switchesFromEnvironment({ RIDDLE_ACCEPT_POLICY: 'yes' })).toThrow(/RIDDLE_ACCEPT_POLICY="yes"/);
  });
});
