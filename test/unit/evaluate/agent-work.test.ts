import { describe, expect, it } from 'vitest';
import {
  changeClaimExtractor,
  checkClaims,
  compareWriteActions,
  gatherFindings,
  recordedRewardEvaluator,
  writeActionEvaluator,
  type EvaluatorDefinition,
  type ExpectedAction,
} from '../../../src/evaluate/index.js';
import type { EffectClass, Observation, ToolRequest } from '../../../src/model/index.js';
import { criterion, observation, rubric, testCase, toolRequest } from './helpers.js';

const EFFECTS: Record<string, EffectClass> = {
  get_reservation_details: 'read',
  cancel_reservation: 'write',
  book_reservation: 'write',
  update_reservation_baggages: 'write',
  transfer_to_human_agents: 'external',
};

const request = (tool: string, args: Record<string, unknown>, extra: Partial<ToolRequest> = {}): ToolRequest =>
  toolRequest(tool, true, args as ToolRequest['arguments'], {
    id: `t-${tool}-${JSON.stringify(args)}`,
    effect: EFFECTS[tool] ?? 'none',
    ...extra,
  });

const watched = (parts: Partial<Observation>): Observation =>
  observation({ observers: [{ part: 'toolRequests', observer: 'tool-gateway', grade: 'receipt' }], ...parts });

describe('compareWriteActions', () => {
  const expected: ExpectedAction[] = [
    { tool: 'get_reservation_details', arguments: { reservation_id: 'ABC123' } },
    { tool: 'cancel_reservation', arguments: { reservation_id: 'ABC123' } },
    { tool: 'transfer_to_human_agents', arguments: { summary: 'x' } },
  ];

  it('matches successful writes by tool and canonical arguments, leaving reads and hand-offs out', () => {
    const cancel = request('cancel_reservation', { reservation_id: 'ABC123' });
    const result = compareWriteActions(
      [request('get_reservation_details', { reservation_id: 'OTHER1' }), cancel],
      expected,
      EFFECTS,
    );
    expect(result).toEqual({ matched: [{ expected: expected[1], request: cancel }], missing: [], unexpected: [] });
  });

  it('does not count key order, but does count a different value, a failed write and an extra write', () => {
    const ordered = compareWriteActions(
      [request('book_reservation', { b: 2, a: { y: 1, x: 0 } })],
      [{ tool: 'book_reservation', arguments: { a: { x: 0, y: 1 }, b: 2 } }],
      EFFECTS,
    );
    expect(ordered.missing).toEqual([]);
    const failed = request('cancel_reservation', { reservation_id: 'ABC123' }, { error: 'Error: already cancelled' });
    const other = request('cancel_reservation', { reservation_id: 'XYZ789' });
    const result = compareWriteActions([failed, other], expected, EFFECTS);
    expect(result.missing).toEqual([expected[1]]);
    expect(result.unexpected).toEqual([other]);
  });

  it('matches repeated writes as a multiset: two expected, one made leaves one missing', () => {
    const bag = { tool: 'update_reservation_baggages', arguments: { reservation_id: 'A1B2C3', total: 1 } };
    const result = compareWriteActions([request(bag.tool, bag.arguments)], [bag, bag], EFFECTS);
    expect(result.matched).toHaveLength(1);
    expect(result.missing).toEqual([bag]);
  });
});

const solved = rubric(criterion('solved'));
const judge = (evaluators: EvaluatorDefinition[], o: Observation, attempt = 0) =>
  gatherFindings({
    observation: o,
    case: testCase(['solved']),
    arm: 'case',
    attempt,
    rubric: solved,
    evaluators,
    expect,
  });

describe('writeActionEvaluator', () => {
  const matcher = writeActionEvaluator({
    id: 'write-match',
    revision: '1',
    criterion: 'solved',
    expected: (arm) =>
      arm === 'case' ? [{ tool: 'cancel_reservation', arguments: { reservation_id: 'ABC123' } }] : undefined,
    effects: EFFECTS,
  });

  it('meets the criterion on the expected writes, at receipt grade', async () => {
    const [finding] = await judge(
      [matcher],
      watched({ toolRequests: [request('cancel_reservation', { reservation_id: 'ABC123' })] }),
    );
    expect(finding).toMatchObject({ evaluator: 'write-match', result: 'met', grade: 'receipt' });
  });

  it('leaves it unmet with what is missing and what is unexpected', async () => {
    const [finding] = await judge(
      [matcher],
      watched({ toolRequests: [request('cancel_reservation', { reservation_id: 'XYZ789' })] }),
    );
    expect(finding?.result).toBe('unmet');
    expect(finding?.note).toContain(
      '0 of 1 expected writes made; missing cancel_reservation({"reservation_id":"ABC123"})',
    );
    expect(finding?.note).toContain('unexpected');
  });

  it('has no evidence when no tool gateway watched the attempt', async () => {
    const [finding] = await judge([matcher], observation({ observers: [] }));
    expect(finding?.result).toBe('unknown');
  });
});

describe('recordedRewardEvaluator', () => {
  const calls = [{ tool: 'cancel_reservation', arguments: { reservation_id: 'ABC123' } }];
  const rewards = [
    { reward: 1, basis: 'database equals the ground truth', calls },
    { reward: 0, basis: null, calls },
  ];
  const evaluator = (withoutBasis: 'as-recorded' | 'unknown') =>
    recordedRewardEvaluator({
      id: 'reward',
      revision: '1',
      criterion: 'solved',
      rewards: (_arm, attempt) => rewards[attempt],
      withoutBasis,
      adjudicator: true,
    });
  const run = watched({ toolRequests: [request('cancel_reservation', { reservation_id: 'ABC123' })] });

  it('is a receipt-grade adjudicator: reward 1 meets the criterion, with its basis in the note', async () => {
    expect(evaluator('as-recorded').record).toMatchObject({ kind: 'mechanical', adjudicator: true });
    const [finding] = await judge([evaluator('as-recorded')], run);
    expect(finding).toMatchObject({
      result: 'met',
      grade: 'receipt',
      note: 'recorded reward 1: database equals the ground truth',
    });
  });

  it('counts a reward without its basis as declared: as recorded, or unknown', async () => {
    expect((await judge([evaluator('as-recorded')], run, 1))[0]).toMatchObject({ result: 'unmet' });
    expect((await judge([evaluator('unknown')], run, 1))[0]).toMatchObject({ result: 'unknown' });
  });

  it('binds to its run: another sequence of tool calls leaves the criterion unknown', async () => {
    const other = watched({ toolRequests: [request('cancel_reservation', { reservation_id: 'XYZ789' })] });
    const [finding] = await judge([evaluator('as-recorded')], other);
    expect(finding).toMatchObject({ result: 'unknown' });
    expect(finding?.note).toContain('scores another run');
  });
});

describe('changeClaimExtractor', () => {
  const claims = changeClaimExtractor({
    id: 'changes/1',
    patterns: [
      { pattern: /^(?!.*\bif\b).*has been (?:successfully )?cancel+ed/i, tools: ['cancel_reservation'] },
      { pattern: /bags? (?:has|have) been added/i, tools: ['update_reservation_baggages'] },
    ],
    identifiers: /\b[A-Z]{3}\d{3}\b/g,
  });
  const conversation = (reply: string, toolRequests: ToolRequest[], round = 1): Observation =>
    watched({
      rounds: [
        { index: 1, input: 'hi', reply: 'Looking.', claims: [], durationMs: 1 },
        { index: 2, input: 'go', reply: round === 2 ? reply : 'ok', claims: [], durationMs: 1 },
      ].map((r, i) => (i === round - 1 ? { ...r, reply } : r)),
      toolRequests,
    });
  const checked = (o: Observation) => checkClaims(o, { extractors: [claims] });

  it('finds one claim per stated sentence and none in a conditional', () => {
    expect(
      claims.extract('Your reservation ABC123 has been successfully cancelled. If it has been cancelled, tell me.'),
    ).toEqual([
      {
        action: 'completed',
        target: 'cancel_reservation',
        text: 'Your reservation ABC123 has been successfully cancelled.',
      },
    ]);
  });

  it('supports a stated cancellation by a successful cancel of that reservation in the same or an earlier round', () => {
    const cancel = request('cancel_reservation', { reservation_id: 'ABC123' }, { round: 1 });
    const [check] = checked(conversation('Reservation ABC123 has been cancelled.', [cancel], 2));
    expect(check).toMatchObject({ status: 'supported', receipt: { kind: 'tool', target: 'cancel_reservation' } });
  });

  it('contradicts a stated change with no such write, a failed one, a later one, or one on another record', () => {
    const statement = 'Reservation ABC123 has been cancelled.';
    const [none] = checked(conversation('Two bags have been added.', [request('get_reservation_details', {})]));
    expect(none).toMatchObject({ status: 'contradicted' });
    expect(none?.note).toBe('claimed done, but no update_reservation_baggages was requested by round 1');
    const failed = request('cancel_reservation', { reservation_id: 'ABC123' }, { error: 'Error: not allowed' });
    expect(checked(conversation(statement, [failed]))[0]?.note).toBe(
      'claimed done, but cancel_reservation failed: Error: not allowed',
    );
    const later = request('cancel_reservation', { reservation_id: 'ABC123' }, { round: 2 });
    expect(checked(conversation(statement, [later], 1))[0]?.status).toBe('contradicted');
    const other = request('cancel_reservation', { reservation_id: 'XYZ789' });
    expect(checked(conversation(statement, [other]))[0]?.note).toBe(
      'claimed done, but cancel_reservation succeeded, but not on ABC123',
    );
  });

  it('needs a write for every record a sentence names, any write serving for the records it only mentions', () => {
    const statement = 'Reservation ABC123 has been cancelled, as has XYZ789.';
    const cancelFirst = request('cancel_reservation', { reservation_id: 'ABC123' });
    expect(checked(conversation(statement, [cancelFirst]))[0]?.note).toBe('claimed done, but no write names XYZ789');
    const cancelSecond = request('cancel_reservation', { reservation_id: 'XYZ789' });
    expect(checked(conversation(statement, [cancelFirst, cancelSecond]))[0]?.status).toBe('supported');
    const mixed = 'The upgrade of ABC123 is done and XYZ789 has been cancelled.';
    const upgrade = request('update_reservation_baggages', { reservation_id: 'ABC123' });
    expect(checked(conversation(mixed, [upgrade, cancelSecond]))[0]?.status).toBe('supported');
  });

  it('is unverifiable when no tool gateway watched the attempt', () => {
    const o = { ...conversation('Reservation ABC123 has been cancelled.', []), observers: [] };
    expect(checked(o)[0]?.status).toBe('unverifiable');
  });

  it('refuses patterns that would be tested more than once per sentence', () => {
    expect(() => changeClaimExtractor({ id: 'x', patterns: [{ pattern: /done/g, tools: ['t'] }] })).toThrow(
      'drop the g and y flags',
    );
  });
});
