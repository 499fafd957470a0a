/**
 * The line of a file's first frame in a stack trace: where a test file called `trial(…)`, for messages that name
 * the declaration's place. Frames are matched by the file's absolute path (as a path or a file:// URL); null when
 * the file is not on the stack.
 */
export function lineInStack(stack: string | undefined, file: string): number | null {
  if (!stack || !file) return null;
  const forward = file.split('\\').join('/');
  for (const frame of stack.split('\n').slice(1)) {
    const normal = frame.split('\\').join('/');
    const at = normal.indexOf(forward);
    if (at < 0) continue;
    const match = /^:(\d+)(?::\d+)?/.exec(normal.slice(at + forward.length));
    if (match?.[1]) return Number(match[1]);
  }
  return null;
}
