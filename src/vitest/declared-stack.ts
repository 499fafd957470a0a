import { lineInStack } from '../run/index.js';

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

/** Where a trial was declared: the `trial(…)` line in the test file, and its stack frames when a failure needs them. */
export interface Declaration {
  line: number | null;
  /** The frames from the test file's on (see declarationFrames), formatted on first use; null when none is there. */
  frames: () => string | null;
}

const onceOnly = <T>(make: () => T): (() => T) => {
  let made: { value: T } | null = null;
  return () => {
    made ??= { value: make() };
    return made.value;
  };
};

/**
 * The declaration of the trial whose `trial(…)` call is on the stack, in `testFile`: the stack from the caller's
 * frame down, as `new Error().stack` in the caller has it. Vitest's prepareStackTrace source-maps every frame it
 * formats, so the stack is taken unformatted, only the test file's frame is mapped now (for its line), and the frames
 * from it on are mapped only when a failure carries them. When no prepareStackTrace is installed or the test file's
 * frame is not among the raw frames, the whole stack is formatted at once instead.
 *
 * `lines` keeps the line each position of the test file's frame mapped to, for one collection of the file (its code
 * does not change meanwhile): trials declared in a loop share one `trial(…)` call, mapped once rather than once a trial.
 */
export function captureDeclaration(testFile: string, lines: Map<string, number | null>): Declaration {
  const prepare = Error.prepareStackTrace;
  const sites = typeof prepare === 'function' && testFile ? rawSites() : [];
  const forward = testFile.split('\\').join('/');
  const first = sites.findIndex((site) => (site.getFileName() ?? '').split('\\').join('/').includes(forward));
  if (typeof prepare !== 'function' || first < 0) {
    const holder: { stack?: string } = {};
    Error.captureStackTrace(holder, captureDeclaration);
    const stack = holder.stack;
    return { line: lineInStack(stack, testFile), frames: onceOnly(() => declarationFrames(stack, testFile)) };
  }
  // A frame is mapped from itself and the frames below it, so the frames from `first` on map as in the whole stack.
  const formatted = (from: NodeJS.CallSite[]): string | undefined => {
    const text: unknown = prepare(new Error(), from);
    return typeof text === 'string' ? text : undefined;
  };
  const site = sites[first] as NodeJS.CallSite;
  const position = `${site.getFileName()}:${site.getLineNumber()}:${site.getColumnNumber()}`;
  let line = lines.get(position);
  if (line === undefined) lines.set(position, (line = lineInStack(formatted(sites.slice(first, first + 1)), testFile)));
  return {
    line,
    frames: onceOnly(() => formatted(sites.slice(first))?.split('\n').slice(1).join('\n') ?? null),
  };
}

/** The call sites of the stack below captureDeclaration's frame, unformatted (Error.stackTraceLimit of them). */
function rawSites(): NodeJS.CallSite[] {
  const prepare = Error.prepareStackTrace;
  const holder: { stack?: unknown } = {};
  Error.prepareStackTrace = (_error, sites) => sites;
  try {
    Error.captureStackTrace(holder, captureDeclaration);
    // V8 formats the stack on first reading, with the prepareStackTrace installed then.
    return Array.isArray(holder.stack) ? holder.stack : [];
  } finally {
    Error.prepareStackTrace = prepare;
  }
}
