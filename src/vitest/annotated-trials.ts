import { inject } from 'vitest';

/**
 * Which trials' tests get riddle's annotation (their verdict line): `every` trial's, or only those whose test fails.
 * Recording an annotation costs a trial two round trips to Vitest's main process (its pending updates sent and
 * answered, then the annotation), about 1 ms of CPU for a trial of one attempt: it is made where a reporter shows it.
 */
export type AnnotatedTrials = 'every' | 'failing';

declare module 'vitest' {
  interface ProvidedContext {
    /** Decided for the run by the riddle reporter from the configured reporters (reporter.ts annotatedTrialsFor). */
    riddleAnnotatedTrials: AnnotatedTrials;
  }
}

/**
 * Whether this trial's test is annotated: a failing one always; any other when the run annotates every trial, or when
 * no riddle reporter said (an IDE's run, a run without the riddle reporter), as before this was decided.
 */
export function annotatesTrial(failing: boolean): boolean {
  return failing || inject('riddleAnnotatedTrials') !== 'failing';
}
