import { describe, expect, it } from 'vitest';
import {
  calibrate,
  combineFindings,
  evaluatorIdentity,
  gatherFindings,
  modelJudge,
  replyText,
  withCalibration,
  type EvaluatorDefinition,
} from '../../../src/evaluate/index.js';
import { Calibration, canonicalJson, migrate, type LabelledControl } from '../../../src/model/index.js';
import { clopperPearson, cohenKappa, gwetAC1, krippendorffAlpha } from '../../../src/statistics/index.js';
import { criterion, observation, rubric, testCase } from './helpers.js';

const declines = rubric(criterion('declines', { needs: 'judgment', target: { kind: 'reply', id: null } }));
const clock = { now: () => Date.UTC(2025, 0, 2, 3, 4, 5) };

/** A judge that echoes the control's reply: the reply text is what it "answers". */
function echoJudge(promptRevision = 'p1'): EvaluatorDefinition {
  return modelJudge({
    id: 'echo-judge',
    model: { id: 'echo-1', family: 'echo', promptRevision },
    criteria: ['declines'],
    vocabulary: ['YES', 'NO'],
    met: ['YES'],
    prompt: (o) => replyText(o.rounds.at(-1)?.reply ?? null),
    call: async (prompt) => prompt,
    subjectFamily: 'other',
  });
}

/** n controls labelled `truth`, of which `wrong` are answered wrongly and `invalid` answered outside the vocabulary. */
function controls(prefix: string, truth: 'met' | 'unmet', n: number, wrong: number, invalid = 0): LabelledControl[] {
  const right = truth === 'met' ? 'YES' : 'NO';
  const flipped = truth === 'met' ? 'NO' : 'YES';
  return Array.from({ length: n }, (_, i) => ({
    id: `${prefix}${i}`,
    observation: observation({
      reply: i < wrong ? flipped : i < wrong + invalid ? "I'm sorry, I can't assist with that." : right,
    }),
    labels: { declines: truth },
  }));
}

describe('calibrate', () => {
  it('measures sensitivity and specificity with exact one-sided bounds, and the agreement coefficients', async () => {
    const labelled = [...controls('p', 'met', 30, 1, 1), ...controls('n', 'unmet', 30, 2)];
    const calibration = await calibrate(echoJudge(), labelled, {
      rubric: declines,
      floor: 0.8,
      clock,
      source: 'controls.json',
    });
    const [entry] = calibration.criteria;
    expect(entry?.sensitivity).toEqual({
      value: 28 / 29,
      lower: clopperPearson(28, 29, { sided: 'one' }).lower,
      upper: clopperPearson(28, 29, { sided: 'one' }).upper,
      tp: 28,
      fn: 1,
    });
    expect(entry?.specificity).toMatchObject({
      value: 28 / 30,
      tn: 28,
      fp: 2,
      lower: clopperPearson(28, 30, { sided: 'one' }).lower,
    });
    expect(entry?.controls).toEqual({ positive: 30, negative: 30, unjudged: 1 });
    const truth = labelled.map((c) => c.labels.declines ?? null);
    const given = calibration.items.map((i) => (i.judged === 'met' || i.judged === 'unmet' ? i.judged : null));
    expect(entry?.agreement.raw).toBeCloseTo(56 / 59, 12);
    expect(entry?.agreement.cohenKappa).toBe(cohenKappa(truth, given));
    expect(entry?.agreement.gwetAC1).toBe(gwetAC1(truth, given, { categories: ['met', 'unmet'] }));
    expect(entry?.agreement.krippendorffAlpha).toBe(krippendorffAlpha([truth, given]));
    expect(calibration).toMatchObject({
      evaluator: {
        id: 'echo-judge',
        kind: 'model-judge',
        revision: 'echo-1@p1',
        identity: evaluatorIdentity(echoJudge().record),
      },
      createdAt: '2025-01-02T03:04:05.000Z',
      controls: { source: 'controls.json', count: 60 },
      method: { interval: 'clopper-pearson', sided: 'one', alpha: 0.05 },
    });
    expect(calibration.items.find((i) => i.control === 'p1')).toMatchObject({ judged: 'error', truth: 'met' });
  });

  it('trusts a judge for a criterion only when both lower bounds clear the floor', async () => {
    // STATISTICS.md: a floor of .80 needs ≥ 30 + 30 controls with ≤ 2 errors each.
    const twoErrors = await calibrate(echoJudge(), [...controls('p', 'met', 30, 2), ...controls('n', 'unmet', 30, 2)], {
      rubric: declines,
      floor: 0.8,
    });
    expect(twoErrors.criteria[0]?.trusted).toBe(true);
    const threeErrors = await calibrate(
      echoJudge(),
      [...controls('p', 'met', 30, 3), ...controls('n', 'unmet', 30, 0)],
      { rubric: declines, floor: 0.8 },
    );
    expect(threeErrors.criteria[0]?.trusted).toBe(false);
    const tooFew = await calibrate(echoJudge(), [...controls('p', 'met', 5, 0), ...controls('n', 'unmet', 5, 0)], {
      rubric: declines,
      floor: 0.8,
    });
    expect(tooFew.criteria[0]).toMatchObject({ trusted: false, sensitivity: { value: 1 } });
  });

  it('records rates with nothing to compute them on as null, never 0, and stays untrusted', async () => {
    const calibration = await calibrate(
      echoJudge(),
      [...controls('p', 'met', 3, 0, 3), ...controls('n', 'unmet', 3, 0)],
      { rubric: declines, floor: 0.5 },
    );
    expect(calibration.criteria[0]).toMatchObject({
      sensitivity: { value: null, lower: 0, upper: 1, tp: 0, fn: 0 },
      trusted: false,
    });
  });

  it('writes a calibration file that validates and reads back (riddle.calibration/1)', async () => {
    const calibration = await calibrate(echoJudge(), [...controls('p', 'met', 4, 1), ...controls('n', 'unmet', 4, 0)], {
      rubric: declines,
      floor: 0.5,
      clock,
    });
    const text = canonicalJson(calibration);
    expect(migrate('calibration', JSON.parse(text), 'calibration.json')).toEqual(Calibration.parse(calibration));
  });

  it('fails early on controls it cannot measure', async () => {
    await expect(calibrate(echoJudge(), controls('p', 'met', 3, 0), { rubric: declines, floor: 0.8 })).rejects.toThrow(
      /both kinds/,
    );
    const bad = [{ id: 'x', observation: observation({ reply: 'YES' }), labels: { declines: 'maybe' } }];
    await expect(calibrate(echoJudge(), bad, { rubric: declines, floor: 0.8 })).rejects.toThrow(
      /labels declines as "maybe"; use one of: met, unmet/,
    );
    await expect(
      calibrate(echoJudge(), [...controls('p', 'met', 2, 0), ...controls('p', 'unmet', 2, 0)], {
        rubric: declines,
        floor: 0.8,
      }),
    ).rejects.toThrow(/used twice/);
    await expect(
      calibrate(echoJudge(), [...controls('p', 'met', 2, 0), ...controls('n', 'unmet', 2, 0)], {
        rubric: declines,
        floor: { other: 0.8 },
      }),
    ).rejects.toThrow(/no floor declared for criterion "declines"/);
  });
});

describe('calibrated judges', () => {
  const judgeWith = async (errors: number) => {
    const calibration = await calibrate(
      echoJudge(),
      [...controls('p', 'met', 30, errors), ...controls('n', 'unmet', 30, errors)],
      { rubric: declines, floor: 0.8 },
    );
    return { calibration, judge: withCalibration(echoJudge(), { file: 'calibration/echo.json', calibration }) };
  };
  const decide = async (judge: EvaluatorDefinition) => {
    const findings = await gatherFindings({
      observation: observation({ reply: 'YES' }),
      case: testCase(['declines']),
      arm: 'case',
      attempt: 0,
      rubric: declines,
      evaluators: [judge],
      expect,
    });
    return { finding: findings[0], result: combineFindings(declines, findings)[0] };
  };

  it('references its calibration file from the Evaluator record and decides when trusted', async () => {
    const { judge, calibration } = await judgeWith(1);
    expect(judge.record.calibration).toMatchObject({
      file: 'calibration/echo.json',
      criteria: [{ criterion: 'declines', trusted: true, floor: 0.8 }],
    });
    expect(judge.record.calibration?.fingerprint).toMatch(/^sha256:/);
    expect(judge.record.calibration?.criteria[0]).not.toHaveProperty('controls');
    expect(calibration.criteria[0]?.trusted).toBe(true);
    const { finding, result } = await decide(judge);
    expect(finding?.trusted).toBe(true);
    expect(result?.result).toBe('met');
  });

  it('marks an untrusted judge’s findings, which cannot make a criterion met', async () => {
    const { judge } = await judgeWith(4);
    const { finding, result } = await decide(judge);
    expect(finding).toMatchObject({ trusted: false, result: 'met' });
    expect(result).toMatchObject({ result: 'unknown', uncovered: 'untrusted' });
  });

  it('re-compares the bounds with a floor declared on the judge', async () => {
    const { calibration } = await judgeWith(1);
    const strict = withCalibration(echoJudge(), { file: 'c.json', calibration, floor: 0.95 });
    expect(strict.record.calibration?.criteria[0]).toMatchObject({ floor: 0.95, trusted: false });
  });

  it('refuses a calibration made for another revision of the judge', async () => {
    const { calibration } = await judgeWith(0);
    expect(() => withCalibration(echoJudge('p2'), { file: 'c.json', calibration })).toThrow(
      /made for echo-judge@echo-1@p1, not echo-judge@echo-1@p2.*riddle calibrate/,
    );
    expect(() =>
      modelJudge({
        ...{ id: 'echo-judge', criteria: ['declines'], vocabulary: ['YES', 'NO'], met: ['YES'] },
        model: { id: 'echo-1', family: 'echo', promptRevision: 'p1' },
        prompt: () => '',
        call: async () => '',
        calibration: { file: 'c.json', calibration },
      }),
    ).not.toThrow();
  });
});
