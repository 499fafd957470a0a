import { FindingOwner, type CapabilityClaim, type Finding, type Outcome } from '../model/index.js';
import { findingRecord } from './findings-routing.js';
import { groupProblems } from './problem-groups.js';

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

/** What the finding gathering the least frequent forms of stray error is about (never an error's text). */
const OTHER_STRAY_ERRORS = '\u0000others';

/**
 * A finding per distinct stray error, counted when it repeats; past MAX_DISTINCT_PROBLEMS messages, a finding per form
 * of message and the least frequent forms in one (problem-groups): a subject whose background work failed once per
 * attempt, each error naming its request, made one finding per error (100,000 at 100,000 attempts). Every error stays
 * in `execution.strayErrors`.
 */
function strayErrorFindings(strayErrors: readonly string[]): Finding[] {
  const where = 'while this trial ran (not tied to one attempt)';
  // No attempt owns these errors: each group counts its items.
  const { groups, others } = groupProblems(strayErrors, (error) => ({ fixed: null, text: error }));
  const findings = groups.map((group) => {
    const alike = group.texts - 1;
    const { count } = group;
    const message =
      count === 1
        ? `${group.first}, ${where}`
        : `${group.first}, ${count} times ${where}${alike > 0 ? ` (in ${group.texts} messages alike but for numbers or ids)` : ''}`;
    return findingRecord('harness', 'stray-error', message, { about: group.about });
  });
  if (others)
    findings.push(
      findingRecord(
        'harness',
        'stray-error',
        `${others.count} more error${others.count === 1 ? '' : 's'} raised outside the awaited call ${where}, in ${others.texts} other messages; the first: ${others.first}`,
        { about: OTHER_STRAY_ERRORS },
      ),
    );
  return findings;
}

/**
 * Findings about how the trial ran rather than what its attempts showed: errors raised outside any attempt's awaited
 * call that could not be tied to one (the harness's: it could not account for them), and writes outside the
 * workspace seen around an unisolated subject's attempts (the environment's: it did not keep the subject in its
 * workspace, and without isolation riddle cannot tell the subject's writes from another process's).
 */
export function executionFindings(execution: Execution): Finding[] {
  const findings = strayErrorFindings(execution.strayErrors);
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
