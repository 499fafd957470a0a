import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ExactMatch, Factuality, Levenshtein, NumericDiff } from 'autoevals';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  autoevalsScorer,
  calibrate,
  combineFindings,
  gatherFindings,
  replyText,
  type AutoevalsScorerFunction,
  type EvaluatorDefinition,
} from '../../../src/evaluate/index.js';
import type { Case, JsonValue, LabelledControl, Rubric } from '../../../src/model/index.js';
import { criterion, observation, rubric, testCase } from './helpers.js';

const answer = criterion('answer', { needs: 'text', score: { cutoff: 0.8 } });
const factual = criterion('factual', { needs: 'judgment', score: { cutoff: 0.5 } });
const scoredRubric: Rubric = rubric(answer, factual);

async function judge(
  evaluator: EvaluatorDefinition,
  reply: JsonValue,
  oracle: JsonValue = null,
  rubricUsed = scoredRubric,
) {
  const armCase: Case = {
    ...testCase([...evaluator.record.criteria]),
    input: 'What is the capital of France?',
    oracle,
  };
  const findings = await gatherFindings({
    observation: observation({ reply }),
    case: armCase,
    arm: 'case',
    attempt: 0,
    rubric: rubricUsed,
    evaluators: [evaluator],
    expect: () => undefined,
  });
  const combined = combineFindings(rubricUsed, findings);
  return { findings, criteria: combined.filter((c) => evaluator.record.criteria.includes(c.criterion)) };
}

describe('autoevals deterministic scorers as text-grade mechanical evaluators', () => {
  const levenshtein = autoevalsScorer({ scorer: Levenshtein, criteria: ['answer'], revision: 'autoevals@0.3.0' });

  it('scores the reply against the Case oracle, trusted, at text grade, met at the cutoff', async () => {
    expect(levenshtein.record).toMatchObject({ id: 'autoevals Levenshtein', kind: 'mechanical', model: null });
    const { findings, criteria } = await judge(levenshtein, 'hello wurld', 'hello world');
    expect(findings[0]).toMatchObject({ result: 'met', grade: 'text', trusted: true, judge: null });
    expect(findings[0]?.score).toBeCloseTo(10 / 11, 12);
    expect(criteria[0]).toMatchObject({ criterion: 'answer', result: 'met', grade: 'text' });
    const far = await judge(levenshtein, 'goodbye', 'hello world');
    expect(far.findings[0]?.result).toBe('unmet');
    expect(far.findings[0]?.score).toBeLessThan(0.8);
  });

  it('passes the arguments a trial declares: ExactMatch on an object reply, NumericDiff on a parsed number', async () => {
    const exact = autoevalsScorer({
      scorer: ExactMatch,
      criteria: ['answer'],
      revision: 'autoevals@0.3.0',
      args: (view, context) => ({ output: replyText(view.reply).trim(), expected: context.case.oracle }),
    });
    expect((await judge(exact, { text: 'Paris ' }, 'Paris')).findings[0]).toMatchObject({ result: 'met', score: 1 });
    expect((await judge(exact, 'Lyon', 'Paris')).findings[0]).toMatchObject({ result: 'unmet', score: 0 });
    const numeric = autoevalsScorer({
      scorer: NumericDiff,
      criteria: ['answer'],
      revision: 'autoevals@0.3.0',
      args: (view, context) => ({ output: Number(replyText(view.reply)), expected: Number(context.case.oracle) }),
    });
    const near = await judge(numeric, '98', 100);
    expect(near.findings[0]?.result).toBe('met');
    // autoevals: 1 − |a − b| / (|a| + |b|).
    expect(near.findings[0]?.score).toBeCloseTo(1 - 2 / 198, 12);
  });

  it('turns a scorer that throws (no expected value) into an evaluator error, not a low score', async () => {
    const { findings } = await judge(levenshtein, 'hello', null);
    expect(findings[0]).toMatchObject({ result: 'error', score: null });
    expect(findings[0]?.note).toContain('requires an expected value');
  });

  it('makes an out-of-range or null score an evaluator error or UNKNOWN, naming the value', async () => {
    const broken = Object.defineProperty(async () => ({ name: 'Broken', score: 1.5 }), 'name', { value: 'Broken' });
    const outOfRange = autoevalsScorer({
      scorer: broken as AutoevalsScorerFunction,
      criteria: ['answer'],
      revision: '1',
      deterministic: true,
    });
    const bad = await judge(outOfRange, 'x', 'y');
    expect(bad.findings[0]?.result).toBe('error');
    expect(bad.findings[0]?.note).toContain('criterion "answer" returned the score 1.5');
    const declines = Object.defineProperty(async () => ({ name: 'Declines', score: null }), 'name', {
      value: 'Declines',
    });
    const none = autoevalsScorer({
      scorer: declines as AutoevalsScorerFunction,
      criteria: ['answer'],
      revision: '1',
      deterministic: true,
    });
    expect((await judge(none, 'x', 'y')).findings[0]).toMatchObject({ result: 'unknown', score: null });
  });

  it('refuses to guess the grade: model-based scorers need a model, unknown scorers a declaration', () => {
    expect(() => autoevalsScorer({ scorer: Factuality, criteria: ['factual'], revision: '1' })).toThrow(
      'autoevalsScorer("autoevals Factuality"): Factuality calls a model: declare model',
    );
    const custom = Object.defineProperty(async () => ({ name: 'Mine', score: 1 }), 'name', { value: 'Mine' });
    expect(() =>
      autoevalsScorer({ scorer: custom as AutoevalsScorerFunction, criteria: ['answer'], revision: '1' }),
    ).toThrow('riddle cannot tell whether Mine calls a model');
    expect(() =>
      autoevalsScorer({
        scorer: Levenshtein,
        criteria: ['answer'],
        revision: '1',
        model: { id: 'gpt-4o-mini', family: 'gpt-4o', promptRevision: '1' },
      }),
    ).toThrow('Levenshtein calls no model: drop model');
    expect(() => autoevalsScorer({ scorer: Levenshtein, criteria: [], revision: '1' })).toThrow(
      'declare at least one scored criterion',
    );
    expect(() => autoevalsScorer({ scorer: Levenshtein, criteria: ['answer'], revision: '' })).toThrow(
      'declare a revision',
    );
  });
});

describe('autoevals model-based scorers as model judges (Factuality against a loopback model)', () => {
  let server: Server;
  let client: OpenAI;
  const requests: { model: string; content: string }[] = [];

  beforeAll(async () => {
    // A chat-completions endpoint on loopback: answers Factuality's select_choice tool with C (consistent, 1) when
    // the submitted answer mentions Paris, D (disagrees, 0) otherwise.
    server = createServer((request, response) => {
      let body = '';
      request.on('data', (chunk) => {
        body += chunk;
      });
      request.on('end', () => {
        const parsed = JSON.parse(body) as { model: string; messages: { content: string }[] };
        const content = parsed.messages.map((m) => m.content).join('\n');
        requests.push({ model: parsed.model, content });
        const choice = /\[Submission\]: [^\n]*Paris/.test(content) ? 'C' : 'D';
        response.setHeader('content-type', 'application/json');
        response.end(
          JSON.stringify({
            id: 'chatcmpl-1',
            object: 'chat.completion',
            created: 0,
            model: parsed.model,
            choices: [
              {
                index: 0,
                finish_reason: 'tool_calls',
                message: {
                  role: 'assistant',
                  content: null,
                  tool_calls: [
                    {
                      id: 'call-1',
                      type: 'function',
                      function: {
                        name: 'select_choice',
                        arguments: JSON.stringify({ reasons: `chose ${choice}`, choice }),
                      },
                    },
                  ],
                },
              },
            ],
          }),
        );
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    client = new OpenAI({ apiKey: 'test-key', baseURL: `http://127.0.0.1:${port}/v1`, maxRetries: 0 });
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  const model = { id: 'gpt-4o-mini', family: 'gpt-4o', promptRevision: 'factuality@autoevals-0.3.0' };
  const factuality = () =>
    autoevalsScorer({
      scorer: Factuality,
      criteria: ['factual'],
      revision: 'autoevals@0.3.0',
      model,
      subjectFamily: 'claude',
      args: (view, context) => ({
        input: String(context.case.input),
        output: replyText(view.reply),
        expected: String(context.case.oracle),
        model: model.id,
        client,
      }),
    });

  it('is a model judge: judgment grade, untrusted until calibrated, exchange retained without the client', async () => {
    const judgeDefinition = factuality();
    expect(judgeDefinition.record).toMatchObject({
      kind: 'model-judge',
      model,
      calibration: null,
      independence: { independent: true },
      revision: 'autoevals@0.3.0:gpt-4o-mini@factuality@autoevals-0.3.0',
    });
    const { findings, criteria } = await judge(judgeDefinition, 'It is Paris.', 'Paris');
    expect(requests.at(-1)?.model).toBe('gpt-4o-mini');
    expect(findings[0]).toMatchObject({ result: 'met', score: 1, grade: 'judgment', trusted: false });
    expect(findings[0]?.note).toBe('score 1 ≥ cutoff 0.5: Factuality: chose C');
    expect(findings[0]?.judge?.prompt).toContain('"output": "It is Paris."');
    expect(findings[0]?.judge?.prompt).toContain('"client": "[OpenAI]"');
    expect(findings[0]?.judge?.prompt).not.toContain('test-key');
    expect(findings[0]?.judge?.reply).toContain('"choice":"C"');
    // Untrusted: it cannot decide the criterion alone.
    expect(criteria[0]).toMatchObject({ criterion: 'factual', result: 'unknown', uncovered: 'untrusted' });
  });

  it('calibrated on labelled controls (met and unmet at the cutoff) it becomes trusted and decides', async () => {
    const control = (id: string, reply: string, label: 'met' | 'unmet'): LabelledControl => ({
      id,
      observation: observation({ reply }),
      labels: { factual: label },
    });
    const controls = [
      ...['Paris.', 'It is Paris', 'Paris, France', 'Paris of course', 'PARIS is not it… Paris', 'Paris!'].map((r, i) =>
        control(`right-${i}`, r, 'met'),
      ),
      ...['Lyon.', 'Marseille', 'Nice', 'Rome', 'I do not know', 'Berlin'].map((r, i) =>
        control(`wrong-${i}`, r, 'unmet'),
      ),
    ];
    const judgeDefinition = factuality();
    const calibration = await calibrate(judgeDefinition, controls, { rubric: scoredRubric, floor: 0.5 });
    const entry = calibration.criteria[0];
    expect(entry).toMatchObject({ criterion: 'factual', trusted: true });
    expect(entry?.sensitivity.tp).toBe(6);
    expect(entry?.specificity.tn).toBe(6);
    const trusted = autoevalsScorer({
      ...{ scorer: Factuality, criteria: ['factual'], revision: 'autoevals@0.3.0', model, subjectFamily: 'claude' },
      args: (view) => ({ input: 'q', output: replyText(view.reply), expected: 'Paris', model: model.id, client }),
      calibration: { file: 'factuality.calibration.json', calibration },
    });
    const right = await judge(trusted, 'Paris', 'Paris');
    expect(right.criteria[0]).toMatchObject({ result: 'met', grade: 'judgment', uncovered: null });
    const wrong = await judge(trusted, 'Lyon', 'Paris');
    expect(wrong.findings[0]).toMatchObject({ result: 'unmet', score: 0 });
    expect(wrong.criteria[0]?.result).toBe('unmet');
  });
});
