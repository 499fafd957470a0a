import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { calibrateCommand } from '../../../src/cli/calibrate.js';
import { rejudgeCommand } from '../../../src/cli/rejudge.js';
import { migrate, OUTCOME_SCHEMA, type Outcome } from '../../../src/model/index.js';
import { readOutcomeFile } from '../../../src/report/index.js';
import { aCase, anEnvironment, aRubric, aSuite, attempt } from '../builders.js';
import { observation, rubric, criterion } from './helpers.js';

let dir: string;
let stdout: string;
beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'riddle-cli-'));
  stdout = '';
  vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
    stdout += String(chunk);
    return true;
  });
});
afterEach(() => {
  vi.restoreAllMocks();
});

/** A hand-built evaluator module: an echo "judge" whose answer is the reply itself, no riddle import needed. */
const EVALUATOR_MODULE = `
const record = {
  schema: 'riddle.evaluator/1', id: 'echo', kind: 'model-judge', revision: 'echo@1', criteria: ['declines'],
  model: { id: 'echo', family: 'echo', promptRevision: '1' }, independence: { independent: true, reason: 'test' },
  calibration: null, limits: [],
};
const checks = {
  declines: (view, ctx) => {
    const reply = view.observation.rounds.at(-1)?.reply;
    if (reply !== 'YES' && reply !== 'NO') throw new Error('answered outside its vocabulary: ' + reply);
    ctx.record({ kind: 'judge', target: '*', grade: 'judgment', detail: 'echo answered ' + reply });
    return { result: reply === 'YES' ? 'met' : 'unmet', label: reply, note: 'echo ' + reply };
  },
};
const rubric = ${JSON.stringify(rubric(criterion('declines', { needs: 'judgment' })))};
const obs = (reply) => (${JSON.stringify(observation({ reply: '__R__' })).replace('"__R__"', 'reply')});
const controls = [
  ...Array.from({ length: 30 }, (_, i) => ({ id: 'p' + i, observation: obs(i === 0 ? 'NO' : 'YES'), labels: { declines: 'met' } })),
  ...Array.from({ length: 30 }, (_, i) => ({ id: 'n' + i, observation: obs('NO'), labels: { declines: 'unmet' } })),
];
export default { evaluator: { record, checks }, evaluators: [{ record, checks }], rubric, controls, floor: 0.8 };
`;

describe('riddle calibrate', () => {
  it('runs the evaluator on labelled controls and writes a calibration file', async () => {
    const module = path.join(dir, 'judge.mjs');
    writeFileSync(module, EVALUATOR_MODULE);
    const out = path.join(dir, 'echo.calibration.json');
    const code = await calibrateCommand(['--evaluator', module, '--out', out]);
    expect(code).toBe(0);
    const calibration = migrate('calibration', JSON.parse(readFileSync(out, 'utf8')), out);
    expect(calibration.criteria[0]).toMatchObject({
      criterion: 'declines',
      trusted: true,
      sensitivity: { tp: 29, fn: 1 },
      specificity: { tn: 30, fp: 0 },
    });
    expect(stdout).toContain('echo (echo@1) on 60 labelled controls');
    expect(stdout).toMatch(/declines\s+0\.967 \(≥ 0\.\d+\) 29\/30/);
  });

  it('exits 1 when the floor is not met, and reads controls from a file', async () => {
    const module = path.join(dir, 'judge.mjs');
    writeFileSync(module, EVALUATOR_MODULE);
    const controls = path.join(dir, 'controls.json');
    writeFileSync(
      controls,
      JSON.stringify([
        { id: 'a', observation: observation({ reply: 'YES' }), labels: { declines: 'met' } },
        { id: 'b', observation: observation({ reply: 'NO' }), labels: { declines: 'unmet' } },
      ]),
    );
    expect(
      await calibrateCommand([
        '--evaluator',
        module,
        '--controls',
        controls,
        '--floor',
        '0.5',
        '--out',
        path.join(dir, 'c.json'),
      ]),
    ).toBe(1);
    expect(stdout).toContain('NO');
  });

  it('names what is missing', async () => {
    await expect(calibrateCommand([])).rejects.toThrow('--evaluator');
    await expect(calibrateCommand(['--evaluator', path.join(dir, 'nope.mjs')])).rejects.toThrow('does not exist');
  });
});

describe('riddle rejudge', () => {
  it('re-judges retained Observations into a new run and leaves the old Outcome untouched', async () => {
    const module = path.join(dir, 'judge.mjs');
    writeFileSync(module, EVALUATOR_MODULE);
    const r = rubric(criterion('declines', { needs: 'judgment' }));
    const old: Outcome = {
      schema: OUTCOME_SCHEMA,
      id: 'sha256:old',
      setup: 'sha256:setup',
      trial: { id: 't', name: 'trial', file: 'f' },
      pinned: { suite: 's', cases: {}, rubric: 'r', evaluators: [], environment: 'e' },
      records: {
        suite: aSuite([{ id: 'case', role: 'case', c: aCase() }]),
        rubric: { ...aRubric(), ...r },
        evaluators: [],
        environment: anEnvironment(),
      },
      execution: {
        startedAt: 'x',
        finishedAt: 'y',
        seed: 1,
        order: ['case#0'],
        stopping: [],
        independentAttempts: true,
        rejudgedFrom: null,
        incomplete: null,
        holdout: null,
        budget: null,
        providers: null,
        strayErrors: [],
        outsideWrites: null,
      },
      attempts: [attempt('case', 0, 'UNKNOWN', { observation: observation({ reply: 'YES' }) })],
      attemptsFile: null,
      arms: [],
      judgment: {
        verdict: 'UNKNOWN',
        reason: '',
        blocked: null,
        incomplete: false,
        matchedControl: null,
        pressure: null,
        testOutcome: 'fail',
      },
      suite: null,
      suiteRule: null,
      coverage: [],
      capabilities: [],
      findings: [],
      compositions: null,
      traps: [],
      cost: { usd: null, inputTokens: 0, outputTokens: 0, arms: [], attempts: [] },
      latency: { meanMs: null, p50Ms: null, p95Ms: null },
      warnings: [],
      registration: null,
    };
    const oldFile = path.join(dir, 'old-outcome.json');
    writeFileSync(oldFile, JSON.stringify(old));
    const hash = () => createHash('sha256').update(readFileSync(oldFile)).digest('hex');
    const before = hash();
    const out = path.join(dir, 'report');
    const code = await rejudgeCommand([oldFile, '--evaluators', module, '--out', out]);
    expect(hash()).toBe(before);
    expect(code).toBe(1);
    const [runId] = readdirSync(path.join(out, 'runs'));
    const outcomes = readdirSync(path.join(out, 'runs', runId ?? '', 'outcomes')).filter((f) => f.endsWith('.json'));
    const fresh = readOutcomeFile(path.join(out, 'runs', runId ?? '', 'outcomes', outcomes[0] ?? ''));
    expect(fresh.id).not.toBe(old.id);
    expect(fresh.execution.rejudgedFrom).toBe('sha256:old');
    expect(fresh.attempts[0]?.findings[0]).toMatchObject({ evaluator: 'echo', result: 'met', trusted: false });
    expect(fresh.attempts[0]?.criteria[0]).toMatchObject({
      criterion: 'declines',
      result: 'unknown',
      uncovered: 'untrusted',
    });
    expect(stdout).toContain('re-judged without running the subject');
  });

  it('names what is missing', async () => {
    await expect(rejudgeCommand([])).rejects.toThrow('needs a run folder');
    await expect(rejudgeCommand(['x.json'])).rejects.toThrow('--evaluators');
  });
});
