import type { EvidenceGrade, EvidenceRef, Observation } from '../model/index.js';

/** Collects the evidence a criterion check looked at, so its finding can say what grade it rests on. */
export interface EvidenceRecorder {
  record(ref: EvidenceRef): void;
  readonly refs: readonly EvidenceRef[];
}

export function createEvidenceRecorder(): EvidenceRecorder {
  const refs: EvidenceRef[] = [];
  return {
    refs,
    record(ref) {
      if (!refs.some((r) => r.kind === ref.kind && r.target === ref.target && r.detail === ref.detail)) refs.push(ref);
    },
  };
}

const viewRecorders = new WeakMap<object, EvidenceRecorder>();

/** The recorder behind a view handed to a criterion check (for matchers that receive the view). */
export function recorderOf(view: object): EvidenceRecorder | undefined {
  return viewRecorders.get(view);
}

/**
 * What a criterion check sees of an Observation. Reading a part records evidence of that part's grade: replies and
 * claims are text, exit status and resources are observations, files, tool requests, receipts and rows are receipts.
 */
export interface ObservationView {
  /** The last round's reply. */
  readonly reply: Observation['rounds'][number]['reply'];
  /** Every round's reply, in order. */
  readonly replies: readonly Observation['rounds'][number]['reply'][];
  readonly rounds: Observation['rounds'];
  readonly claims: Observation['rounds'][number]['claims'];
  readonly exit: Observation['exit'];
  readonly files: Observation['files'];
  readonly toolRequests: Observation['toolRequests'];
  readonly receipts: Observation['receipts'];
  readonly rows: Observation['rows'];
  readonly resources: Observation['resources'];
  /** The Observation itself, for matchers; reading it records nothing. */
  readonly observation: Observation;
}

export function createObservationView(observation: Observation, recorder: EvidenceRecorder): ObservationView {
  const read = <T>(kind: EvidenceRef['kind'], grade: EvidenceGrade, value: T): T => {
    recorder.record({ kind, target: '*', grade, detail: `read ${kind}` });
    return value;
  };
  const view: ObservationView = {
    get reply() {
      return read('reply', 'text', observation.rounds.at(-1)?.reply ?? null);
    },
    get replies() {
      return read('reply', 'text', observation.rounds.map((r) => r.reply));
    },
    get rounds() {
      return read('reply', 'text', observation.rounds);
    },
    get claims() {
      return read('claim', 'text', observation.rounds.flatMap((r) => r.claims));
    },
    get exit() {
      return read('process', 'observation', observation.exit);
    },
    get files() {
      return read('file', 'receipt', observation.files);
    },
    get toolRequests() {
      return read('tool', 'receipt', observation.toolRequests);
    },
    get receipts() {
      return read('receipt', 'receipt', observation.receipts);
    },
    get rows() {
      return read('row', 'receipt', observation.rows);
    },
    get resources() {
      return read('process', 'observation', observation.resources);
    },
    observation,
  };
  viewRecorders.set(view, recorder);
  return view;
}
