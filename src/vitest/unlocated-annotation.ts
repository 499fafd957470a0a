import type { TestContext } from 'vitest';

/**
 * `context.annotate(message, type)` without the stack Vitest captures to locate the annotation in the test file. A
 * trial's test function is riddle's, so the test file is not on that stack and a trial's annotation has no location
 * either way; capturing the stack and source-mapping every frame of it cost about 0.15 ms a trial (0.3 on a busy
 * machine). Vitest captures it synchronously, when annotate is called, so the limit is back before anything else runs.
 * A test that has ended is annotated as it is, so Vitest's error about it keeps its stack.
 */
export function annotateUnlocated(context: TestContext, message: string, type: string): Promise<unknown> {
  const { result } = context.task;
  if (result && result.state !== 'run') return context.annotate(message, type);
  const limit = Error.stackTraceLimit;
  Error.stackTraceLimit = 0;
  try {
    return context.annotate(message, type);
  } finally {
    Error.stackTraceLimit = limit;
  }
}
