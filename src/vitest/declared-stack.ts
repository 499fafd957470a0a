/**
 * The frames of a stack captured when a trial was declared, from the first frame in the test file on: the user's
 * `trial(…)` call and what called it. A trial's failure carries them, so Vitest's reporters (the code frame, the
 * github-actions annotation) point at the declaration instead of riddle's own sources. Null when no frame is there.
 */
export function declarationFrames(stack: string | undefined, testFile: string): string | null {
  if (!stack || !testFile) return null;
  const forward = testFile.split('\\').join('/');
  const frames = stack.split('\n').slice(1);
  const first = frames.findIndex((frame) => frame.split('\\').join('/').includes(forward));
  return first < 0 ? null : frames.slice(first).join('\n');
}
