import type { SoftAssertions } from '../evaluate/index.js';

/** The part of a Vitest test task `expect.soft` writes to: a failure is pushed onto `errors` and `state` set to fail. */
interface SoftTarget {
  result?: { state?: string; errors?: unknown[] };
}

const messageOf = (error: unknown): string => {
  if (typeof error === 'object' && error !== null && 'message' in error && typeof error.message === 'string')
    return error.message;
  return String(error);
};

/**
 * The soft failures of a trial's test (Vitest's `expect.soft`, the imported `expect` or the check context's, both
 * record on the running test). Those a check records are taken off the test: they are its criterion's, and the trial's
 * verdict decides the test. A test that had failed before them still fails.
 */
export function softAssertionsOf(task: SoftTarget): SoftAssertions {
  return {
    count: () => task.result?.errors?.length ?? 0,
    takeSince(from) {
      const result = task.result;
      const errors = result?.errors;
      if (!result || !errors || errors.length <= from) return [];
      const taken = errors.splice(from);
      // `expect.soft` marked the test failed; with none of its own errors left it is running again.
      if (errors.length === 0 && result.state === 'fail') result.state = 'run';
      return taken.map(messageOf);
    },
  };
}
