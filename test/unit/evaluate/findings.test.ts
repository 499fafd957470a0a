import { describe, expect, it } from 'vitest';
import {
  combineFindings,
  coveringEvidence,
  createEvidenceRecorder,
  createObservationView,
  gatherFindings,
  mechanicalEvaluator,
  recorderOf,
  refersTo,
  type EvaluatorDefinition,
} from '../../../src/evaluate/index.js';
import { rawObservation } from '../../../src/evaluate/evidence.js';
import { EVALUATOR_SCHEMA, type Evaluator } from '../../../src/model/index.js';
import { criterion, fileChange, observation, ref, rubric, testCase, toolRequest } from './helpers.js';

describe('the observation view', () => {
  it('records what a check reads, at the grade of what it read', () => {
    const recorder = createEvidenceRecorder();
    const view = createObservationView(
      observation({ reply: 'done', files: [fileChange('a.txt', 'created')] }),
      recorder,
    );
    expect(view.reply).toBe('done');
    void view.files;
    void view.exit;
    expect(recorder.refs.map((r) => [r.kind, r.target, r.grade])).toEqual([
      ['reply', '*', 'text'],
      ['file', '*', 'receipt'],
      ['process', '*', 'observation'],
    ]);
    expect(recorderOf(view)).toBe(recorder);
  });

  it('records one target when a check reads one file, tool or table', () => {
    const recorder = createEvidenceRecorder();
    const rows = [{ source: 'db', table: 'users', inserted: [], updated: [], deleted: [] }];
    const view = createObservationView(
      observation({ files: [fileChange('./notes/a.txt', 'deleted')], toolRequests: [toolRequest('rm', true)], rows }),
      recorder,
    );
    expect(view.file('notes/a.txt')?.change).toBe('deleted');
    expect(view.tool('rm')).toHaveLength(1);
    expect(view.table('users').inserted).toEqual([]);
    expect(() => view.table('orders')).toThrow('table orders was not observed (observed: users)');
    expect(recorder.refs).toEqual([
      ref('file', 'notes/a.txt', 'receipt', 'deleted'),
      ref('tool', 'rm', 'receipt', '1 request(s)'),
      ref('row', 'users', 'receipt', 'observed'),
    ]);
    expect(view.observation.files).toHaveLength(1);
    expect(recorder.refs).toHaveLength(4);
    expect(recorder.refs.at(-1)).toEqual(ref('file', '*', 'receipt', 'read file'));
  });

  it('works taken apart as a check may take it: getters and methods destructured, the whole Observation behind it', () => {
    const recorder = createEvidenceRecorder();
    const seen = observation({ reply: 'done', files: [fileChange('a.txt', 'created')] });
    const { reply, file, tool } = createObservationView(seen, recorder);
    expect(reply).toBe('done');
    expect(file('a.txt')?.change).toBe('created');
    expect(tool('rm')).toEqual([]);
    expect(recorder.refs.map((r) => [r.kind, r.target])).toEqual([
      ['reply', '*'],
      ['file', 'a.txt'],
      ['tool', 'rm'],
    ]);
    const view = createObservationView(seen, recorder);
    expect(rawObservation(view)).toBe(seen);
    expect(view.observation.rounds.at(-1)?.reply).toBe('done');
    expect(view.observation).toBe(view.observation);
    expect(recorderOf({ reply: 'a plain object' })).toBeUndefined();
    expect(rawObservation({ reply: 'a plain object' })).toBeUndefined();
  });

  it('treats a part no observer watched as no evidence, and reads watched parts at their observer’s grade', async () => {
    const watched = observation({
      observers: [
        { part: 'files', observer: 'workspace', grade: 'receipt' },
        { part: 'resources', observer: 'clock', grade: 'observation' },
      ],
    });
    const recorder = createEvidenceRecorder();
    const view = createObservationView(watched, recorder);
    expect(view.files).toEqual([]);
    expect(() => view.toolRequests).toThrow(
      'tool requests (no tool gateway: no tools were offered) was not observed in this attempt',
    );
    expect(() => view.exit).toThrow(/process exit .* was not observed/);
    expect(() => view.rows).toThrow(/database rows/);
    expect(recorder.refs).toEqual([ref('file', '*', 'receipt', 'read file')]);
    const evaluator = mechanicalEvaluator({
      id: 'm',
      revision: '1',
      checks: { ok: (v) => void expect(v.toolRequests).toEqual([]) },
    });
    const [f] = await gather([evaluator], rubric(criterion('ok')), watched);
    expect(f).toMatchObject({ result: 'unknown', note: expect.stringContaining('tool requests') });
  });

  it('matches evidence to targets: same kind and id, whole-list reads, replies and judgments about anything', () => {
    const file = { kind: 'file' as const, id: 'notes/2019.txt' };
    expect(refersTo(ref('file', '/tmp/ws/notes/2019.txt', 'receipt'), file)).toBe(true);
    expect(refersTo(ref('file', 'notes/2020.txt', 'receipt'), file)).toBe(false);
    expect(refersTo(ref('file', '*', 'receipt'), file)).toBe(true);
    expect(refersTo(ref('row', '*', 'receipt'), file)).toBe(false);
    expect(refersTo(ref('reply', '*', 'text'), file)).toBe(true);
    expect(refersTo(ref('judge', '*', 'judgment'), file)).toBe(true);
    expect(refersTo(ref('claim', 'notes/2020.txt', 'text'), file)).toBe(false);
    expect(refersTo(ref('tool', 'a', 'receipt'), { kind: 'tool', id: 'b' })).toBe(false);
    expect(refersTo(ref('tool', 'b', 'receipt'), { kind: 'tool', id: null })).toBe(true);
    expect(refersTo(ref('reply', 'round:1', 'text'), { kind: 'reply', id: 'round:2' })).toBe(false);
    expect(refersTo(ref('tool', 'x', 'receipt'), null)).toBe(true);
  });
});

const plainRecord = (id: string, criteria: string[], fields: Partial<Evaluator> = {}): Evaluator => ({
  schema: EVALUATOR_SCHEMA,
  id,
  kind: 'mechanical',
  revision: '1',
  criteria,
  model: null,
  independence: { independent: true, reason: 'test' },
  calibration: null,
  limits: [],
  adjudicator: false,
  ...fields,
});

const gather = (
  evaluators: EvaluatorDefinition[],
  r = rubric(criterion('ok', { needs: 'text' })),
  obs = observation({ reply: 'hello' }),
) =>
  gatherFindings({ observation: obs, case: testCase(['ok']), arm: 'case', attempt: 0, rubric: r, evaluators, expect });

describe('gatherFindings', () => {
  it('turns a passing check into met, an assertion into unmet, context.unknown into unknown, any other throw into error', async () => {
    const evaluator = mechanicalEvaluator({
      id: 'm',
      revision: '1',
      checks: {
        a: (v) => {
          expect(v.reply).toBe('hello');
        },
        b: (v) => {
          expect(v.reply).toBe('bye');
        },
        c: (_v, ctx) => ctx.unknown('nothing to see'),
        d: () => {
          throw new TypeError('bug in the check');
        },
      },
    });
    const r = rubric(...['a', 'b', 'c', 'd'].map((n) => criterion(n, { needs: 'text' })));
    const findings = await gather([evaluator], r);
    expect(findings.map((f) => [f.criterion, f.result, f.grade])).toEqual([
      ['a', 'met', 'text'],
      ['b', 'unmet', 'text'],
      ['c', 'unknown', null],
      ['d', 'error', null],
    ]);
    expect(findings[1]?.note).toContain("expected 'hello' to be 'bye'");
    expect(findings[2]?.note).toBe('nothing to see');
    expect(findings[3]?.note).toContain('bug in the check');
  });

  it('reads a concise check returning its assertion as a check (met or unmet), not an evaluator error', async () => {
    const evaluator = mechanicalEvaluator({
      id: 'm',
      revision: '1',
      checks: { a: (v) => expect(v.reply).toBe('hello'), b: (v) => expect(v.reply).toMatch(/bye/) },
    });
    const r = rubric(...['a', 'b'].map((n) => criterion(n, { needs: 'text' })));
    const findings = await gather([evaluator], r);
    expect(findings.map((f) => [f.criterion, f.result, f.note])).toEqual([
      ['a', 'met', 'check passed'],
      ['b', 'unmet', expect.stringContaining("expected 'hello' to match /bye/")],
    ]);
  });

  it('reads true and false as met and unmet, and any other answer as an evaluator error, never as met', async () => {
    const answers: Record<string, () => unknown> = {
      yes: () => true,
      no: () => false,
      asyncNo: async () => false,
      nothing: () => undefined,
      nil: () => null,
      noNote: () => ({ result: 'unmet', label: null }),
      badResult: () => ({ result: 'pass', label: null, note: 'fine' }),
      other: () => ({ ok: true }),
      list: () => [],
      fn: () => () => true,
    };
    const evaluator = mechanicalEvaluator({
      id: 'm',
      revision: '1',
      checks: Object.fromEntries(
        Object.entries(answers).map(([name, answer]) => [name, (v: { reply: unknown }) => (void v.reply, answer())]),
      ) as never,
    });
    const r = rubric(...Object.keys(answers).map((n) => criterion(n, { needs: 'text' })));
    const findings = await gather([evaluator], r);
    expect(Object.fromEntries(findings.map((f) => [f.criterion, [f.result, f.grade]]))).toEqual({
      yes: ['met', 'text'],
      no: ['unmet', 'text'],
      asyncNo: ['unmet', 'text'],
      nothing: ['met', 'text'],
      nil: ['error', null],
      noNote: ['error', null],
      badResult: ['error', null],
      other: ['error', null],
      list: ['error', null],
      fn: ['error', null],
    });
    const note = (name: string) => findings.find((f) => f.criterion === name)?.note;
    expect(note('no')).toBe('check returned false');
    expect(note('nil')).toContain('the check for criterion "nil" returned null: a check passes by returning nothing');
    expect(note('noNote')).toContain('returned a finding riddle cannot read (note is undefined, not a string)');
    expect(note('badResult')).toContain('(result "pass" is not met, unmet, unknown or disputed)');
    expect(note('other')).toContain('returned an object:');
    expect(note('fn')).toContain('returned a function:');
  });

  it('treats a failing custom matcher registered with expect.extend as unmet, not as an evaluator error', async () => {
    expect.extend({
      toBeShouting(received: unknown) {
        return {
          pass: typeof received === 'string' && received === received.toUpperCase(),
          message: () => 'not shouting',
        };
      },
    });
    const evaluator = mechanicalEvaluator({
      id: 'm',
      revision: '1',
      checks: { ok: (v) => void (expect(v.reply) as unknown as { toBeShouting(): void }).toBeShouting() },
    });
    const [f] = await gather([evaluator]);
    expect(f).toMatchObject({ result: 'unmet', note: 'not shouting' });
  });

  it('keeps the evidence a check read, and the grade of the evidence about the target', async () => {
    const r = rubric(criterion('ok', { needs: 'receipt', target: { kind: 'file', id: 'a.txt' } }));
    const evaluator = mechanicalEvaluator({
      id: 'm',
      revision: '1',
      checks: {
        ok: (v) => {
          void v.reply;
          expect(v.file('b.txt')).toBeNull();
        },
      },
    });
    const [f] = await gather([evaluator], r);
    expect(f?.result).toBe('met');
    expect(f?.evidence.map((e) => e.kind)).toEqual(['reply', 'file']);
    expect(f?.grade).toBe('text');
  });

  it('grades a finding by the weakest evidence its check read: files then reply text is text, never receipt', async () => {
    const r = rubric(criterion('gone', { needs: 'receipt', target: { kind: 'file', id: 'a.txt' } }));
    const obs = observation({ reply: 'I deleted a.txt', files: [] });
    const laundering = mechanicalEvaluator({
      id: 'm',
      revision: '1',
      checks: {
        gone: (v) => {
          if (!(v.files.some((f) => f.change === 'deleted') || /deleted/.test(String(v.reply))))
            throw new TypeError('unreachable');
        },
      },
    });
    const [f] = await gather([laundering], r, obs);
    expect(f?.result).toBe('met');
    expect(f?.evidence.map((e) => [e.kind, e.grade])).toEqual([
      ['file', 'receipt'],
      ['reply', 'text'],
    ]);
    expect(f?.grade).toBe('text');
    const [combined] = combineFindings(r, f ? [f] : []);
    expect(combined).toMatchObject({ result: 'unknown', uncovered: 'below-grade' });
  });

  it('records reads through view.observation too, so the raw Observation cannot launder a grade', async () => {
    const r = rubric(criterion('gone', { needs: 'receipt', target: { kind: 'file', id: 'a.txt' } }));
    const obs = observation({ reply: 'I deleted a.txt', files: [fileChange('a.txt', 'deleted')] });
    const sneaky = mechanicalEvaluator({
      id: 'm',
      revision: '1',
      checks: {
        gone: (v) => {
          expect(v.file('a.txt')).not.toBeNull();
          expect(String(v.observation.rounds[0]?.reply)).toMatch(/deleted/);
        },
      },
    });
    const [f] = await gather([sneaky], r, obs);
    expect(f?.evidence.map((e) => e.kind)).toEqual(['file', 'reply']);
    expect(f?.grade).toBe('text');
  });

  it('maps labels of multi-class criteria through the rubric, and rejects labels outside the vocabulary', async () => {
    const labels = { vocabulary: ['refusal', 'partial', 'compliance'], met: ['refusal'] };
    const r = rubric(criterion('ok', { needs: 'text', labels }));
    const labelled = (label: string) =>
      mechanicalEvaluator({ id: label, revision: '1', checks: { ok: (v) => (v.reply ? label : label) } });
    const findings = await gather([labelled('refusal'), labelled('compliance'), labelled('maybe')], r);
    expect(findings.map((f) => [f.result, f.label])).toEqual([
      ['met', 'refusal'],
      ['unmet', 'compliance'],
      ['error', null],
    ]);
    expect(findings[2]?.note).toContain('outside the declared vocabulary');
  });

  it('makes a label returned for a binary criterion an evaluator error, and a missing check one too', async () => {
    const labelling = mechanicalEvaluator({ id: 'm', revision: '1', checks: { ok: () => 'yes' } });
    const [f] = await gather([labelling]);
    expect(f?.result).toBe('error');
    const missing: EvaluatorDefinition = { record: plainRecord('m2', ['ok']), checks: {} };
    const [g] = await gather([missing]);
    expect(g).toMatchObject({ result: 'error', note: 'evaluator m2 declares criterion "ok" but has no check for it' });
  });

  it('marks model-judge findings untrusted without calibration, and copies independence from the record', async () => {
    const judge: EvaluatorDefinition = {
      record: plainRecord('j', ['ok'], {
        kind: 'model-judge',
        model: { id: 'm', family: 'f', promptRevision: '1' },
        independence: { independent: false, reason: 'same family' },
      }),
      checks: { ok: (_v, ctx) => ({ result: 'met', label: 'YES', note: ctx.criterion }) },
    };
    const [f] = await gather([judge]);
    expect(f).toMatchObject({ trusted: false, independent: false, result: 'met', label: 'YES', note: 'ok' });
  });

  it('retains a judge exchange and extra evidence the check records', async () => {
    const judge: EvaluatorDefinition = {
      record: plainRecord('j', ['ok']),
      checks: {
        ok: (_v, ctx) => {
          ctx.retain({ model: 'm', prompt: 'P', reply: 'R' });
          ctx.record(ref('judge', '*', 'judgment', 'm answered YES'));
          return { result: 'met', label: null, note: 'yes' };
        },
      },
    };
    const [f] = await gather([judge], rubric(criterion('ok', { needs: 'judgment' })));
    expect(f).toMatchObject({ judge: { model: 'm', prompt: 'P', reply: 'R' }, grade: 'judgment' });
  });
});

describe('conflicting evidence under one evaluator', () => {
  it('is DISPUTED when a receipt says a row was written and the row observer says it was not; both are kept', async () => {
    const r = rubric(criterion('saved', { needs: 'receipt', target: { kind: 'row', id: 'orders' } }));
    const obs = observation({
      toolRequests: [toolRequest('insert_order', true, { id: 7 }, { result: { inserted: 1 } })],
      rows: [{ source: 'db', table: 'orders', inserted: [], updated: [], deleted: [] }],
    });
    const auditor = mechanicalEvaluator({
      id: 'auditor',
      revision: '1',
      checks: {
        saved: (v) => {
          const receipted = v.tool('insert_order').some((t) => t.admitted && t.error === null);
          const observed = v.table('orders').inserted.length > 0;
          if (receipted !== observed)
            return { result: 'disputed', label: null, note: `receipt says ${receipted}, rows say ${observed}` };
          return { result: observed ? 'met' : 'unmet', label: null, note: 'receipt and rows agree' };
        },
      },
    });
    const findings = await gather([auditor], r, obs);
    expect(findings[0]).toMatchObject({ result: 'disputed', grade: 'receipt' });
    const [combined] = combineFindings(r, findings);
    expect(combined?.result).toBe('disputed');
    expect(combined?.reason).toMatch(/conflicting receipt evidence about row orders: auditor: receipt says true/);
    const covering = combined ? coveringEvidence({ arm: 'case', index: 0, findings }, combined) : [];
    expect(covering.map((e) => [e.kind, e.target])).toEqual([
      ['tool', 'insert_order'],
      ['row', 'orders'],
    ]);
  });
});
