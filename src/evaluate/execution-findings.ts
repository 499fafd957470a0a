import { FindingOwner, type CapabilityClaim, type Finding, type Outcome } from '../model/index.js';
import { findingRecord } from './findings-routing.js';

/** Writes outside the workspace named in the finding's message at most; the rest are counted. */
const MAX_NAMED_WRITES = 5;

type Execution = Pick<Outcome['execution'], 'strayErrors' | 'outsideWrites'>;

function whenWritten(window: 'attempt' | 'trial', attempts: readonly string[]): string {
  if (window === 'trial') return 'while the trial ran';
  if (attempts.length === 0) return 'between attempts';
  if (attempts.length === 1) return `during ${attempts[0]}`;
  return `while ${attempts.join(', ')} overlapped`;
}

/** `arm#index` back into the attempt it names; anything else is not an attempt. */
function attemptOf(key: string): { arm: string; index: number } | null {
  const at = key.lastIndexOf('#');
  const index = Number(key.slice(at + 1));
  return at > 0 && Number.isInteger(index) && index >= 0 ? { arm: key.slice(0, at), index } : null;
}

/**
 * Findings about how the trial ran rather than what its attempts showed: errors raised outside any attempt's awaited
 * call that could not be tied to one (the harness's: it could not account for them), and writes outside the
 * workspace seen around an unisolated subject's attempts (the environment's: it did not keep the subject in its
 * workspace, and without isolation riddle cannot tell the subject's writes from another process's).
 */
export function executionFindings(execution: Execution): Finding[] {
  const findings = execution.strayErrors.map((error) =>
    findingRecord('harness', 'stray-error', `${error}, while this trial ran (not tied to one attempt)`, {
      about: error,
    }),
  );
  const outside = execution.outsideWrites;
  const total = outside ? outside.changes.length + outside.unlisted : 0;
  if (outside && total > 0) {
    const named = outside.changes
      .slice(0, MAX_NAMED_WRITES)
      .map((write) => `${write.root} ${write.path} ${write.change} ${whenWritten(outside.window, write.attempts)}`);
    const more = total - named.length;
    const attempts = [...new Set(outside.changes.flatMap((write) => write.attempts))]
      .map(attemptOf)
      .filter((attempt) => attempt !== null);
    findings.push(
      findingRecord(
        'environment',
        'outside-writes',
        `${total} path${total === 1 ? '' : 's'} outside the workspace changed while the unisolated subject ran: ${named.join('; ')}${more > 0 ? `; and ${more} more` : ''}. Without isolation riddle cannot tell the subject's writes from other processes'; declare isolation to keep it in its workspace`,
        { about: 'outside-writes', attempts },
      ),
    );
  }
  return findings;
}

/**
 * The routed capabilities and findings with the execution's findings added in owner order: an Outcome with any of
 * them claims no capability.
 */
export function withExecutionFindings(
  routed: { capabilities: CapabilityClaim[]; findings: Finding[] },
  execution: Execution,
): { capabilities: CapabilityClaim[]; findings: Finding[] } {
  const added = executionFindings(execution);
  if (added.length === 0) return routed;
  const order = FindingOwner.options;
  const findings = [...routed.findings, ...added]
    .map((finding, i) => ({ finding, i }))
    .sort((a, b) => order.indexOf(a.finding.owner) - order.indexOf(b.finding.owner) || a.i - b.i)
    .map(({ finding }) => finding);
  return { capabilities: [], findings };
}
