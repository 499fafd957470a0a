import {
  CASE_SCHEMA,
  RUBRIC_SCHEMA,
  type Case,
  type Criterion,
  type CriterionFinding,
  type EvidenceRef,
  type FileChange,
  type JsonValue,
  type Observation,
  type Rubric,
  type ToolRequest,
} from '../../../src/model/index.js';

export function observation(parts: Partial<Observation> & { reply?: JsonValue } = {}): Observation {
  const { reply, ...rest } = parts;
  return {
    rounds: reply === undefined ? [] : [{ index: 1, input: 'go', reply, claims: [], durationMs: 1 }],
    exit: null,
    files: [],
    toolRequests: [],
    receipts: [],
    rows: [],
    resources: { wallMs: 1, cpuMs: null, peakRssBytes: null },
    observers: null,
    notes: [],
    composition: null,
    ...rest,
  };
}

export function fileChange(path: string, change: FileChange['change'], content: string | null = null): FileChange {
  return {
    path,
    change,
    size: content?.length ?? 0,
    sha256Before: change === 'created' ? null : 'b'.repeat(64),
    sha256After: change === 'deleted' ? null : 'a'.repeat(64),
    content,
  };
}

export function toolRequest(
  tool: string,
  admitted: boolean,
  args: JsonValue = {},
  extra: Partial<ToolRequest> = {},
): ToolRequest {
  return {
    id: `t-${tool}-${admitted ? 'ok' : 'no'}`,
    round: 1,
    tool,
    effect: 'write',
    arguments: args,
    admitted,
    reason: admitted ? 'within policy' : 'effect "irreversible" exceeds the case\'s allowed "write"',
    result: null,
    error: null,
    atMs: 1,
    ...extra,
  };
}

export function criterion(name: string, fields: Partial<Criterion> = {}): Criterion {
  return {
    name,
    description: name,
    needs: 'receipt',
    required: true,
    target: null,
    labels: null,
    score: null,
    ...fields,
  };
}

export function rubric(...criteria: Criterion[]): Rubric {
  return {
    schema: RUBRIC_SCHEMA,
    id: 'test-rubric',
    revision: '1',
    criteria,
    threshold: { rate: 0.8, alpha: 0.05 },
    missingEvidence: 'bound',
    refusal: null,
  };
}

export function testCase(expect: string[] = [], forbid: string[] = []): Case {
  return {
    schema: CASE_SCHEMA,
    id: 'case',
    input: 'go',
    followUps: [],
    fixtures: null,
    expect,
    forbid,
    oracle: null,
    effectClass: 'write',
    stop: { timeoutMs: 1000, maxOutputBytes: 1000, maxRounds: 1 },
    dependencies: [],
    sealed: false,
    tags: {},
    pressure: null,
    trap: null,
  };
}

export function ref(
  kind: EvidenceRef['kind'],
  target: string,
  grade: EvidenceRef['grade'],
  detail = 'seen',
): EvidenceRef {
  return { kind, target, grade, detail };
}

export function finding(
  fields: Partial<CriterionFinding> & Pick<CriterionFinding, 'criterion' | 'evaluator' | 'result'>,
): CriterionFinding {
  return {
    label: null,
    grade: null,
    evidence: [],
    note: '',
    trusted: true,
    independent: true,
    adjudicator: false,
    judge: null,
    score: null,
    ...fields,
  };
}
