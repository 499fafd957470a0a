import type { SubjectIdentity } from '../model/index.js';
import type { AttemptIndependence, Subject } from './subject.js';

/** What the subject declared, or what its kind implies: a replay serves one recording again, anything else runs live. */
export function attemptIndependence(
  subject: Pick<Subject, 'independence'>,
  identity: SubjectIdentity,
): AttemptIndependence {
  return subject.independence ?? (identity.kind === 'replay' ? 'not-independent' : 'independent');
}

/** The Environment's note for recorded samples: independent, but of the recorded agent, not a live run here. */
export function independenceNotes(independence: AttemptIndependence): string[] {
  return independence === 'recorded-samples'
    ? [
        'attempts replay recorded runs that were independent samples of the original subject: intervals describe that subject as recorded, not a live run here',
      ]
    : [];
}
