import {
  findingId,
  findingSeverity,
  MAX_FINDING_ATTEMPTS,
  type AttemptRecord,
  type Attribution,
  type CompositionSummary,
  type EvidenceRef,
  type Finding,
  type Outcome,
} from '../model/index.js';

type Input = Pick<Outcome, 'attempts' | 'compositions'>;

const times = (n: number) => `${n} attempt${n === 1 ? '' : 's'}`;

/** Whether an attempt's error is a Composition Suite stopping (a crash or a broken handoff): routed by attribution. */
export function compositionFailure(outcome: Input, attempt: AttemptRecord): boolean {
  const stopped = attempt.observation?.composition?.stopped.kind;
  return outcome.compositions !== null && (stopped === 'crashed' || stopped === 'invalid-handoff');
}

type Attributed = Exclude<Attribution, { kind: 'none' }>;

/** The chain in words: `planner ✓ → executor ✗ unmet criterion`. */
function chainText(attribution: Attributed): string {
  return attribution.chain
    .map(
      (l) => `${l.composition}${l.iteration > 1 ? `#${l.iteration}` : ''} ${l.state === 'met' ? '✓' : `✗ ${l.state}`}`,
    )
    .join(' → ');
}

/** What an attribution is about, for grouping attempts and for the finding's stable id (never a count). */
function aboutOf(attribution: Attributed): string {
  switch (attribution.kind) {
    case 'invalid-handoff':
      return `${attribution.composition ?? '(input)'}\u0000${attribution.consumer ?? '(reply)'}`;
    case 'crash':
      return attribution.composition;
    case 'criterion':
      return `${attribution.composition}\u0000${attribution.criterion}`;
    case 'unattributed':
      return 'unattributed';
    default:
      return attribution satisfies never;
  }
}

/** The handoff an invalid-handoff attribution rests on, as evidence: its payload's fingerprint and what broke. */
function handoffEvidence(attempt: AttemptRecord, attribution: Attributed): EvidenceRef[] {
  if (attribution.kind !== 'invalid-handoff') return [];
  const handoff = attempt.observation?.composition?.handoffs.findLast(
    (h) =>
      h.producer === attribution.composition && h.consumer === attribution.consumer && h.check.result === 'invalid',
  );
  if (!handoff) return [];
  return [
    {
      kind: 'handoff',
      target: `${handoff.producer ?? '(input)'} → ${handoff.consumer ?? '(reply)'}`,
      grade: 'observation',
      detail: `payload sha256:${handoff.payload.sha256}: ${attribution.note}`,
    },
  ];
}

function compositionOf(summary: CompositionSummary, name: string | null): Finding['composition'] {
  const node = summary.suite.compositions.find((c) => c.name === name);
  return node ? { name: node.name, owner: node.owner, version: node.version } : null;
}

/**
 * Findings of a trial through a Composition Suite, from each attempt's attribution: a broken handoff is its
 * producer's (the attempt's own input breaking the entry's type is the harness's), a crash on a valid payload is
 * the crashing composition's, an end-to-end failure the first composition whose own criterion failed, and a failure
 * no composition's criteria caught is the subject's as a whole. A composition whose own verdict is FAIL is reported
 * too, even where the end-to-end criteria missed it. Each finding references its attempts and keeps the chain.
 */
export function compositionFindings(outcome: Input): Finding[] {
  const summary = outcome.compositions;
  if (summary === null) return [];
  const byAttempt = new Map(outcome.attempts.map((a) => [`${a.arm}#${a.index}`, a]));
  const groups = new Map<string, { attribution: Attributed; attempts: AttemptRecord[] }>();
  for (const row of summary.attempts) {
    const { attribution } = row;
    const attempt = byAttempt.get(`${row.arm}#${row.index}`);
    if (attribution.kind === 'none' || attempt === undefined) continue;
    const key = `${attribution.kind}\u0000${aboutOf(attribution)}`;
    const group = groups.get(key);
    if (group) group.attempts.push(attempt);
    else groups.set(key, { attribution, attempts: [attempt] });
  }
  const findings: Finding[] = [];
  const add = (
    owner: Finding['owner'],
    composition: Finding['composition'],
    kind: string,
    about: string,
    message: string,
    attempts: readonly AttemptRecord[],
    evidence: EvidenceRef[],
  ) =>
    findings.push({
      id: findingId(owner, composition?.name ?? null, kind, about),
      owner,
      composition,
      kind,
      severity: findingSeverity(kind),
      message,
      attempts: attempts.slice(0, MAX_FINDING_ATTEMPTS).map(({ arm, index }) => ({ arm, index })),
      attemptCount: attempts.length,
      evidence,
    });
  for (const { attribution, attempts } of groups.values()) {
    const first = attempts[0] as AttemptRecord;
    const about = aboutOf(attribution);
    const chain = chainText(attribution);
    const n = times(attempts.length);
    switch (attribution.kind) {
      case 'invalid-handoff': {
        const target = attribution.consumer ?? 'the reply';
        if (attribution.composition === null)
          add(
            'harness',
            null,
            'invalid-input',
            about,
            `the attempt's input broke ${target}'s input type in ${n}: ${attribution.note}`,
            attempts,
            handoffEvidence(first, attribution),
          );
        else
          add(
            'subject',
            compositionOf(summary, attribution.composition),
            'invalid-handoff',
            about,
            `${attribution.composition}'s output broke its type handing on to ${target} in ${n}: ${attribution.note} (path: ${chain})`,
            attempts,
            handoffEvidence(first, attribution),
          );
        break;
      }
      case 'crash':
        add(
          'subject',
          compositionOf(summary, attribution.composition),
          'composition-crash',
          about,
          `${attribution.composition} crashed on a valid payload in ${n}: ${attribution.note} (path: ${chain})`,
          attempts,
          [],
        );
        break;
      case 'criterion':
        add(
          'subject',
          compositionOf(summary, attribution.composition),
          'composition-criterion',
          about,
          `unmet end to end in ${n}, first failing along the path at ${attribution.composition}'s own criterion ${attribution.criterion}${attribution.note ? ` (${attribution.note})` : ''} (path: ${chain})`,
          attempts,
          [],
        );
        break;
      case 'unattributed':
        add(
          'subject',
          null,
          'unattributed-failure',
          about,
          `unmet end to end in ${n} while every composition met its own criteria: their criteria miss what the trial checks (path: ${chain})`,
          attempts,
          [],
        );
        break;
      default:
        attribution satisfies never;
    }
  }
  for (const result of summary.results.filter((r) => r.verdict === 'FAIL')) {
    const failed = summary.attempts
      .filter((row) => {
        const trace = byAttempt.get(`${row.arm}#${row.index}`)?.observation?.composition;
        return trace?.steps.some(
          (s) =>
            s.composition === result.composition &&
            (s.status === 'crashed' ||
              s.outputCheck?.result === 'invalid' ||
              s.criteria.some((c) => c.result !== 'met')),
        );
      })
      .flatMap((row) => byAttempt.get(`${row.arm}#${row.index}`) ?? []);
    add(
      'subject',
      compositionOf(summary, result.composition),
      'composition-verdict',
      result.composition,
      `${result.composition} (${result.version}) FAIL on its own: ${result.reason}`,
      failed,
      [],
    );
  }
  return findings;
}
