import { describe, expect, it } from 'vitest';
import { attribute, summarizeCompositions } from '../../../src/aggregate/index.js';
import { compositionFindings } from '../../../src/evaluate/findings-compositions.js';
import type { AttemptRecord, CompositionTrace, Verdict } from '../../../src/model/index.js';
import { observation } from '../evaluate/helpers.js';
import { fakeContext, pipeline, type Behaviour } from './pipeline.js';

const task = { goal: 'draft and send' };

async function traceOf(behaviour: Behaviour): Promise<CompositionTrace> {
  const response = await pipeline(behaviour).respond(task, fakeContext());
  if (!response.composition) throw new Error('no trace');
  return response.composition;
}

function attempt(index: number, trace: CompositionTrace, verdict: Verdict): AttemptRecord {
  return {
    arm: 'case',
    index,
    sequence: index,
    seed: index,
    status: trace.stopped.kind === 'finished' ? 'completed' : 'subject_error',
    verdict,
    reason: '',
    observation: observation({ composition: trace }),
    findings: [],
    criteria: [],
    claims: [],
    error: null,
    startedAt: '2026-01-01T00:00:00.000Z',
    durationMs: 1,
    sandbox: null,
    pressure: null,
  } as unknown as AttemptRecord;
}

describe('attribution along the path', () => {
  it('a handoff that breaks its type is the producer’s', async () => {
    const attribution = attribute(await traceOf({ planner: 'wrong-type' }), 'UNKNOWN');
    expect(attribution).toMatchObject({
      kind: 'invalid-handoff',
      composition: 'planner',
      consumer: 'executor',
      chain: [{ composition: 'planner', iteration: 1, state: 'invalid-output' }],
    });
  });

  it('a consumer that crashes on a valid payload is the consumer’s, with the valid path before it', async () => {
    const attribution = attribute(await traceOf({ reviewer: 'crash' }), 'UNKNOWN');
    expect(attribution).toEqual({
      kind: 'crash',
      composition: 'reviewer',
      note: 'reviewer timed out',
      chain: [
        { composition: 'planner', iteration: 1, state: 'met' },
        { composition: 'executor', iteration: 1, state: 'met' },
        { composition: 'reviewer', iteration: 1, state: 'crashed' },
      ],
    });
  });

  it('an unmet end-to-end criterion goes to the first composition whose own criterion failed', async () => {
    // The executor does half the work and the lenient reviewer approves it: the executor failed first.
    const attribution = attribute(await traceOf({ executor: 'poor', reviewer: 'lenient' }), 'FAIL');
    expect(attribution).toMatchObject({
      kind: 'criterion',
      composition: 'executor',
      criterion: 'everyStepDone',
      note: '1 of 2 steps done',
      chain: [
        { composition: 'planner', state: 'met' },
        { composition: 'executor', state: 'unmet-criterion' },
      ],
    });
  });

  it('nothing is attributed when the attempt passed; unattributed with the path when no own criterion failed', async () => {
    const good = await traceOf({});
    expect(attribute(good, 'PASS')).toEqual({ kind: 'none' });
    const unattributed = attribute(good, 'FAIL');
    expect(unattributed.kind).toBe('unattributed');
    expect(unattributed.kind === 'unattributed' && unattributed.chain.map((l) => l.state)).toEqual([
      'met',
      'met',
      'met',
    ]);
  });
});

describe('per-composition results and findings', () => {
  it('summarises each composition with exact intervals and routes findings to the owning team', async () => {
    const suite = pipeline({ executor: 'poor', reviewer: 'lenient' });
    const poor = await traceOf({ executor: 'poor', reviewer: 'lenient' });
    const attempts = Array.from({ length: 12 }, (_, i) => attempt(i, poor, 'FAIL'));
    const summary = summarizeCompositions(suite.composition, attempts, 0.8, 0.05);
    expect(summary?.fingerprint).toBe(suite.fingerprint);
    const [planner, executor, reviewer] = summary?.results ?? [];
    expect(planner).toMatchObject({ composition: 'planner', ran: 12, successes: 12, verdict: 'UNKNOWN' });
    expect(executor).toMatchObject({ composition: 'executor', ran: 12, successes: 0, verdict: 'FAIL', attributed: 12 });
    expect(executor?.criteria[0]).toMatchObject({ criterion: 'everyStepDone', met: 0, judged: 12, rate: 0 });
    expect(executor?.interval?.lower).toBe(0);
    expect(executor?.interval?.upper).toBeCloseTo(0.2646, 3);
    expect(reviewer).toMatchObject({ verdict: 'FAIL', attributed: 0 });
    const findings = compositionFindings({ attempts, compositions: summary });
    const criterion = findings.find((f) => f.kind === 'composition-criterion');
    expect(criterion).toMatchObject({
      owner: 'subject',
      composition: { name: 'executor', owner: 'execution-team', version: 'executor-poor' },
      severity: 'error',
      attemptCount: 12,
    });
    expect(criterion?.attempts).toHaveLength(12);
    expect(criterion?.message).toContain("executor's own criterion everyStepDone");
    expect(criterion?.message).toContain('planner ✓ → executor ✗ unmet-criterion');
    expect(findings.filter((f) => f.kind === 'composition-verdict').map((f) => f.composition?.name)).toEqual([
      'executor',
      'reviewer',
    ]);
    // The same problem in another run keeps its id, whatever the counts.
    const again = compositionFindings({
      attempts: attempts.slice(0, 5),
      compositions: summarizeCompositions(suite.composition, attempts.slice(0, 5), 0.8, 0.05),
    });
    expect(again.find((f) => f.kind === 'composition-criterion')?.id).toBe(criterion?.id);
  });

  it('a broken handoff becomes the producer team’s finding with the handoff as evidence', async () => {
    const suite = pipeline({ planner: 'wrong-type' });
    const trace = await traceOf({ planner: 'wrong-type' });
    const attempts = [attempt(0, trace, 'UNKNOWN')];
    const summary = summarizeCompositions(suite.composition, attempts, 0.8, 0.05);
    expect(summary?.results.map((r) => [r.composition, r.ran, r.notReached, r.invalidOutputs])).toEqual([
      ['planner', 1, 0, 1],
      ['executor', 0, 1, 0],
      ['reviewer', 0, 1, 0],
    ]);
    const [finding] = compositionFindings({ attempts, compositions: summary });
    expect(finding).toMatchObject({
      kind: 'invalid-handoff',
      composition: { owner: 'planning-team' },
      attempts: [{ arm: 'case', index: 0 }],
      evidence: [{ kind: 'handoff', target: 'planner → executor', grade: 'observation' }],
    });
    expect(finding?.evidence[0]?.detail).toContain(`payload sha256:${trace.handoffs[1]?.payload.sha256}`);
  });
});
