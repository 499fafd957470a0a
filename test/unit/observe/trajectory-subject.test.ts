import { describe, expect, it } from 'vitest';
import { CASE_SCHEMA, systemClock, type Case, type RecordedConversation } from '../../../src/model/index.js';
import {
  attemptIndependence,
  observeAttempt,
  recordedFollowUps,
  recordedRounds,
  trajectorySubject,
} from '../../../src/observe/index.js';

const run = (rounds: RecordedConversation['rounds']): RecordedConversation => ({ system: 'policy', rounds });

/** Trial 0 cancels in two turns (one failed call first); trial 1 gives up in one turn. */
const runs = new Map([
  [
    'task-1',
    [
      run([
        {
          input: 'Cancel ABC123',
          toolCalls: [{ id: 'c1', tool: 'get_reservation_details', arguments: { id: 'ABC123' }, result: '{}' }],
          reply: 'Shall I?',
        },
        {
          input: 'Yes',
          toolCalls: [
            { id: 'c2', tool: 'cancel_reservation', arguments: { id: 'ABC12' }, result: 'Error: not found' },
            { id: 'c3', tool: 'cancel_reservation', arguments: { id: 'ABC123' }, result: '{"status":"cancelled"}' },
          ],
          reply: 'Cancelled.',
        },
        { input: 'Thanks! ###STOP###', toolCalls: [], reply: null },
      ]),
      run([{ input: 'Cancel ABC123', toolCalls: [], reply: 'I cannot.' }]),
    ],
  ],
]);

const EFFECTS = { get_reservation_details: 'read', cancel_reservation: 'write' } as const;

function caseOf(maxRounds: number): Case {
  return {
    schema: CASE_SCHEMA,
    id: 'task-1',
    input: 'Cancel reservation ABC123 (the simulated user instruction)',
    followUps: recordedFollowUps(maxRounds),
    fixtures: null,
    expect: [],
    forbid: [],
    oracle: null,
    effectClass: 'write',
    stop: { timeoutMs: 10_000, maxOutputBytes: 1024, maxRounds },
    dependencies: [],
    sealed: false,
    tags: {},
    pressure: null,
    trap: null,
  };
}

const recorded = trajectorySubject({
  name: 'tau',
  revision: 'tau@1',
  runs,
  tools: EFFECTS,
  failed: (result) => result.startsWith('Error:'),
  independence: 'recorded-samples',
});

const observe = (attempt: number, maxRounds = recordedRounds(runs.get('task-1') ?? [])) =>
  observeAttempt({
    arm: 'task-1',
    attempt,
    seed: 1,
    case: caseOf(maxRounds),
    subject: recorded.subject,
    tools: recorded.tools,
    clock: systemClock,
  });

describe('trajectorySubject', () => {
  it('replays attempt i from recording i: one round per user turn with its recorded input and the agent reply', async () => {
    expect(recordedFollowUps(recordedRounds(runs.get('task-1') ?? []))).toEqual([{ recordedUserTurn: 2 }]);
    const first = await observe(0);
    expect(first.status).toBe('completed');
    expect(first.observation?.rounds.map((r) => [r.index, r.input, r.reply])).toEqual([
      [1, 'Cancel ABC123', 'Shall I?'],
      [2, 'Yes', 'Cancelled.'],
    ]);
    // The closing user turn the agent never answered is a note, so the attempt's final reply is the agent's.
    expect(first.observation?.notes).toContain(
      'the recording ends with a user turn the agent did not answer: Thanks! ###STOP###',
    );
    const second = await observe(1);
    // The recording ends after one turn: the attempt ends with it, though the Case allows two rounds.
    expect(second.observation?.rounds.map((r) => r.reply)).toEqual(['I cannot.']);
  });

  it('re-issues every call through the gateway: effect class, admission, round, recorded result or failure', async () => {
    const { observation } = await observe(0);
    expect(
      observation?.toolRequests.map((r) => ({
        round: r.round,
        tool: r.tool,
        effect: r.effect,
        admitted: r.admitted,
        result: r.result,
        error: r.error,
      })),
    ).toEqual([
      { round: 1, tool: 'get_reservation_details', effect: 'read', admitted: true, result: '{}', error: null },
      {
        round: 2,
        tool: 'cancel_reservation',
        effect: 'write',
        admitted: true,
        result: null,
        error: 'Error: not found',
      },
      {
        round: 2,
        tool: 'cancel_reservation',
        effect: 'write',
        admitted: true,
        result: '{"status":"cancelled"}',
        error: null,
      },
    ]);
    expect(observation?.observers).toContainEqual({ part: 'toolRequests', observer: 'tool-gateway', grade: 'receipt' });
  });

  it('is a subject error when the Case allows fewer rounds than the recording has', async () => {
    const cut = await observe(0, 1);
    expect(cut.status).toBe('subject_error');
    expect(cut.error?.message).toContain('has 2 rounds but the Case allows 1');
  });

  it('declares its independence; a replay without a declaration is not independent', async () => {
    const identity = await recorded.subject.identify();
    expect(identity).toMatchObject({ kind: 'replay', revision: 'tau@1', revisionSource: 'declared' });
    expect(attemptIndependence(recorded.subject, identity)).toBe('recorded-samples');
    expect(attemptIndependence({}, identity)).toBe('not-independent');
    expect(attemptIndependence({}, { ...identity, kind: 'function' })).toBe('independent');
  });

  it('refuses recordings that call a tool whose effect class is not declared', () => {
    expect(() =>
      trajectorySubject({ name: 'tau', runs, tools: { cancel_reservation: 'write' }, independence: 'not-independent' }),
    ).toThrow('the recordings call get_reservation_details; declare the effect class of each in `tools`');
  });
});
