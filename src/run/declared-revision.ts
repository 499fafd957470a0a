import type { Subject } from '../observe/index.js';

/**
 * A subject whose Outcome binds to the revision declared on the trial: `revision` beside a command, HTTP or replay
 * subject wins over what the subject would resolve itself (its content hash, git commit or package version).
 * Everything else is the subject's own, inherited.
 */
export function withDeclaredRevision(subject: Subject, revision: string): Subject {
  const declared: Subject = Object.create(subject);
  return Object.assign(declared, {
    identify: async () => ({ ...(await subject.identify()), revision, revisionSource: 'declared' as const }),
  });
}
