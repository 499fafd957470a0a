import { describe, expect, it } from 'vitest';
import { falsePremiseTrap, resolveTrial, TrialDeclarationError, type TrapGroup } from '../../../src/run/index.js';
import { refused, replyMatches } from './harness.js';

const group = falsePremiseTrap({
  id: 'capital',
  premise: 'Sydney is the capital',
  truth: 'Canberra is the capital',
  request: 'Why is Sydney the capital?',
  truePremiseRequest: 'Why is Canberra the capital?',
  plainRequest: 'What is the capital?',
  corrects: replyMatches(/Canberra/),
  answers: replyMatches(/Canberra/),
  refused,
});
const site = { name: 'traps', file: 'traps.test.ts', path: [], line: 7 };
const resolve = (g: TrapGroup) => resolveTrial(site, { subject: () => 'Canberra', ...g });
const [trap, positive, negative] = group.cases as [
  TrapGroup['cases'][number],
  TrapGroup['cases'][number],
  TrapGroup['cases'][number],
];

describe('trap groups in a declaration', () => {
  it('pins each arm’s trap record in its Case (riddle.case/3)', () => {
    const resolved = resolve(group);
    expect(resolved.suite.arms.map((a) => [a.case.schema, a.case.trap?.role])).toEqual([
      ['riddle.case/3', 'trap'],
      ['riddle.case/3', 'positive'],
      ['riddle.case/3', 'negative'],
    ]);
    expect(resolved.suite.arms[0]?.case.stop.maxRounds).toBe(1);
  });

  it('a trap without a control is a declaration error naming the group, unless the trap says why', () => {
    expect(() => resolve({ ...group, cases: [trap, positive] })).toThrow(TrialDeclarationError);
    expect(() => resolve({ ...group, cases: [trap, positive] })).toThrow(
      'trial "traps" (traps.test.ts:7): trap group "capital": has no negative control: declare one, or say why in the trap\'s without.negative',
    );
    expect(() => resolve({ ...group, cases: [trap, negative] })).toThrow(/has no positive control/);
    const excused = {
      ...trap,
      trap: {
        ...trap.trap!,
        without: { positive: null, negative: 'the plain question is the same as the true-premise one' },
      },
    };
    expect(() => resolve({ ...group, cases: [excused, positive] })).not.toThrow();
    expect(() => resolve({ ...group, cases: [excused, positive, negative] })).toThrow(
      /without\.negative: says the negative control is left out/,
    );
  });

  it('rejects a trap record naming an unknown criterion, a wrong role, a group sealed in part or a broken Latin square', () => {
    const rename = { ...trap, trap: { ...trap.trap!, holds: 'capital.corect' } };
    expect(() => resolve({ ...group, cases: [rename, positive, negative] })).toThrow(
      /cases\[0\]\.trap\.holds: unknown criterion "capital\.corect"; did you mean "capital\.corrects"\?/,
    );
    const asControl = { ...trap, role: 'control' as const };
    expect(() => resolve({ ...group, cases: [asControl, positive, negative] })).toThrow(
      /trap\.role: a trap arm has role "case"/,
    );
    const sealed = { ...trap, sealed: true };
    expect(() =>
      resolveTrial(
        site,
        { subject: () => '', ...group, cases: [sealed, positive, negative] },
        { passOn: null, sealSalt: 's' },
      ),
    ).toThrow(/capital:positive\.sealed: seal every arm of trap group "capital" or none/);
    const twoTraps = { ...positive, role: 'case' as const, trap: { ...positive.trap!, role: 'trap' as const } };
    expect(() => resolve({ ...group, cases: [trap, twoTraps, negative] })).toThrow(
      /needs exactly one trap arm, found 2/,
    );
    const rounds = { ...trap, followUps: ['and?'] };
    expect(() => resolve({ ...group, cases: [rounds, positive, negative] })).toThrow(
      /pressureRounds: 1 pressure round\(s\) need 1 input\(s\), the arm has 2/,
    );
    const square = {
      ...trap,
      followUps: ['a', 'b'],
      trap: {
        ...trap.trap!,
        pressureRounds: 3,
        order: {
          seed: 1,
          square: [
            [0, 1],
            [0, 1],
          ],
        },
      },
    };
    expect(() => resolve({ ...group, cases: [square, positive, negative] })).toThrow(
      /order\.square: is not a Latin square/,
    );
  });

  it('a malformed trap record is caught by the declaration schema with its path', () => {
    const bad = {
      ...trap,
      trap: { ...trap.trap!, spec: { kind: 'false-premise', premise: '' } },
    } as unknown as typeof trap;
    expect(() => resolve({ ...group, cases: [bad, positive, negative] })).toThrow(/cases\[0\]\.trap\.spec/);
  });
});
