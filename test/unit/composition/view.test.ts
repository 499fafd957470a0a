import { describe, expect, it } from 'vitest';
import { createEvidenceRecorder, createObservationView, NoEvidence } from '../../../src/evaluate/index.js';
import { replyObservation, type Observation } from '../../../src/model/index.js';
import { fakeContext, pipeline } from './pipeline.js';

async function observed(behaviour: Parameters<typeof pipeline>[0]): Promise<Observation> {
  const response = await pipeline(behaviour).respond({ goal: 'draft and send' }, fakeContext());
  return { ...replyObservation({ goal: 'draft and send' }, response.reply), composition: response.composition ?? null };
}

describe('view.handoff: a handoff read as evidence', () => {
  it('gives the payload and records it at observation grade', async () => {
    const recorder = createEvidenceRecorder();
    const view = createObservationView(await observed({}), recorder);
    expect(view.handoff('executor', 'reviewer')).toEqual({ done: ['draft', 'send'], quality: 'good' });
    expect(recorder.refs).toEqual([
      expect.objectContaining({ kind: 'handoff', target: 'executor → reviewer', grade: 'observation' }),
    ]);
  });

  it('is no evidence for a handoff that never happened, or a subject that is no Composition Suite', async () => {
    const stopped = createObservationView(await observed({ planner: 'crash' }), createEvidenceRecorder());
    expect(() => stopped.handoff('executor', 'reviewer')).toThrow(NoEvidence);
    expect(() => stopped.handoff('executor', 'reviewer')).toThrow('did not happen (the attempt stopped: crashed)');
    const plain = createObservationView(replyObservation('q', 'a'), createEvidenceRecorder());
    expect(() => plain.handoff(null, 'planner')).toThrow('not a Composition Suite');
  });
});
