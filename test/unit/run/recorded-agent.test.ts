import { describe, expect, it } from 'vitest';
import { expect as vitestExpect } from 'vitest';
import { readChatConversation } from '../../../src/data/index.js';
import { changeClaimExtractor, recordedRewardEvaluator, writeActionEvaluator } from '../../../src/evaluate/index.js';
import type { Outcome } from '../../../src/model/index.js';
import { recordedFollowUps, recordedRounds, trajectorySubject } from '../../../src/observe/index.js';
import { resolveTrial, runTrial, type SuiteDeclaration } from '../../../src/run/index.js';
import { anEnvironment } from '../builders.js';

const EFFECTS = { get_reservation_details: 'read', cancel_reservation: 'write' } as const;
const CANCEL = { reservation_id: 'ABC123' };

const call = (id: string, name: string, args: object) => ({
  id,
  type: 'function',
  function: { name, arguments: JSON.stringify(args) },
});

/** A hand-made recorded conversation in OpenAI chat format: look the reservation up, maybe cancel it, then reply. */
function conversation(cancel: 'done' | 'refused' | 'never', reply: string): unknown[] {
  const cancelling =
    cancel === 'never'
      ? []
      : [
          { role: 'assistant', content: null, tool_calls: [call('call_2', 'cancel_reservation', CANCEL)] },
          {
            role: 'tool',
            tool_call_id: 'call_2',
            name: 'cancel_reservation',
            content: cancel === 'done' ? '{"status":"cancelled"}' : 'Error: non-refundable basic economy',
          },
        ];
  return [
    { role: 'system', content: 'airline policy' },
    { role: 'user', content: 'Please cancel ABC123.' },
    { role: 'assistant', content: null, tool_calls: [call('call_1', 'get_reservation_details', CANCEL)] },
    { role: 'tool', tool_call_id: 'call_1', name: 'get_reservation_details', content: '{"cabin":"basic_economy"}' },
    ...cancelling,
    { role: 'assistant', content: reply },
    { role: 'user', content: '###STOP###' },
  ];
}

/** Three recorded trials of one task, each with the reward the benchmark recorded for it. */
const TRIALS = [
  { messages: conversation('done', 'Your reservation ABC123 has been cancelled.'), reward: 1 },
  { messages: conversation('refused', 'Your reservation ABC123 has been cancelled.'), reward: 0 },
  { messages: conversation('never', 'Done! Your reservation ABC123 has been successfully cancelled.'), reward: 0 },
  { messages: conversation('never', 'I cannot cancel a basic economy reservation, sorry.'), reward: 0 },
];

async function run(): Promise<Outcome> {
  const recordings = TRIALS.map((t, i) => readChatConversation(t.messages, `task 0 trial ${i}`));
  const recorded = trajectorySubject({
    name: 'agent',
    revision: 'recorded@1',
    runs: new Map([['task-0', recordings]]),
    tools: EFFECTS,
    failed: (result) => result.startsWith('Error:'),
    independence: 'recorded-samples',
  });
  const declared = {
    subject: recorded.subject,
    tools: recorded.tools,
    rubric: { criteria: { solved: { description: 'the reservation is cancelled', needs: 'receipt' } } },
    evaluators: [
      recordedRewardEvaluator({
        id: 'reward',
        revision: '1',
        criterion: 'solved',
        rewards: (_arm, attempt) => {
          const trial = TRIALS[attempt];
          const calls = recordings[attempt]?.rounds.flatMap((r) =>
            r.toolCalls.map((c) => ({ tool: c.tool, arguments: c.arguments })),
          );
          return trial && calls ? { reward: trial.reward, basis: 'database hash', calls } : undefined;
        },
        withoutBasis: 'as-recorded',
        adjudicator: true,
      }),
      writeActionEvaluator({
        id: 'matcher',
        revision: '1',
        criterion: 'solved',
        expected: () => [{ tool: 'cancel_reservation', arguments: CANCEL }],
        effects: EFFECTS,
      }),
    ],
    claimExtractors: [
      changeClaimExtractor({
        id: 'cancellations/1',
        patterns: [{ pattern: /has been (?:successfully )?cancel+ed/i, tools: ['cancel_reservation'] }],
        identifiers: /\b[A-Z]{3}\d{3}\b/g,
      }),
    ],
    cases: [
      {
        id: 'task-0',
        role: 'case',
        input: 'cancel ABC123',
        followUps: recordedFollowUps(recordedRounds(recordings)),
        expect: ['solved'],
      },
    ],
    repeat: { n: TRIALS.length, order: 'sequential', stop: 'fixed' },
    effectClass: 'external',
    passOn: ['PASS', 'FAIL', 'CONTRADICTED', 'UNKNOWN'],
    summary: { dataset: 'hand-made', criterion: 'solved', reference: 'reward', repeated: { rule: null } },
  } as SuiteDeclaration;
  const resolved = resolveTrial({ name: 'recorded agent', file: 'trials/recorded.test.ts', path: [] }, declared);
  return runTrial(
    { ...resolved, environment: anEnvironment(), unavailable: [], fixtures: {} },
    { clock: { now: () => Date.now() }, expect: vitestExpect },
  );
}

describe('claims of a recorded agent checked against its write receipts, from hand-made conversations', () => {
  it('supports a cancellation the cancel bears out, and contradicts one that failed or was never requested', async () => {
    const outcome = await run();
    const attempts = [...outcome.attempts].sort((a, b) => a.index - b.index);
    expect(attempts.map((a) => a.claims.map((c) => c.status))).toEqual([
      ['supported'],
      ['contradicted'],
      ['contradicted'],
      [],
    ]);
    expect(attempts.map((a) => a.verdict)).toEqual(['PASS', 'CONTRADICTED', 'CONTRADICTED', 'FAIL']);
    expect(attempts[1]?.claims[0]?.note).toBe(
      'claimed done, but cancel_reservation failed: Error: non-refundable basic economy',
    );
    expect(attempts[2]?.claims[0]?.note).toBe(
      'claimed done, but no cancel_reservation on ABC123 was requested by round 1',
    );
    // The write matcher reads the same receipts: only the first trial made the expected cancellation.
    expect(attempts.map((a) => a.findings.find((f) => f.evaluator === 'matcher')?.result)).toEqual([
      'met',
      'unmet',
      'unmet',
      'unmet',
    ]);
    // The suite counts the attempts whose claims the receipts contradict, and lists each.
    expect(outcome.suite?.repeated?.contradicted).toMatchObject({ attempts: 2, cases: 1, claims: 2 });
    expect(outcome.suite?.repeated?.passHatK.map((r) => r.value)).toEqual([0.25, 0, 0, 0]);
  });
});
