import path from 'node:path';
import type { JsonValue, SubjectIdentity } from '../model/index.js';
import { fn, nonEmpty, optional, optionsChecker, text } from '../model/options-check.js';
import { resolveRevision, type RevisionSource } from './revision.js';
import type { AttemptContext, Subject, SubjectResponse } from './subject.js';

export type SubjectFunction = (
  input: JsonValue,
  context: AttemptContext,
) => Promise<JsonValue | SubjectResponse> | JsonValue | SubjectResponse;

export interface FunctionSubjectOptions {
  name: string;
  /**
   * The revision the Outcome binds to: declared (change it whenever the subject's behaviour may change), or read
   * from `sourceDir` (`git`: commit + dirty hash; `package`: name@version).
   */
  revision: RevisionSource;
  /** Folder a `git` or `package` revision is read from (default: the current folder). */
  sourceDir?: string;
  run: SubjectFunction;
}

function isResponse(value: unknown): value is SubjectResponse {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && 'reply' in value;
}

const checkOptions = optionsChecker<FunctionSubjectOptions>(
  'functionSubject',
  {
    name: nonEmpty,
    revision: nonEmpty,
    sourceDir: optional(text),
    run: fn('a function (input, context) => reply'),
  },
  'name',
);

/** A subject that is an async function of the round's input, called with tools, workspace and abort signal. */
export function functionSubject(options: FunctionSubjectOptions): Subject {
  checkOptions(options);
  const sourceDir = path.resolve(options.sourceDir ?? process.cwd());
  let identity: Promise<SubjectIdentity> | undefined;
  return {
    kind: 'function',
    name: options.name,
    identify() {
      identity ??= resolveRevision('function', options.name, options.revision, sourceDir);
      return identity;
    },
    async respond(input, context) {
      const returned = options.run(input, context);
      // Only a promise (or thenable) is awaited: a subject that answers at once makes no promise for every round.
      const value: JsonValue | SubjectResponse =
        typeof (returned as PromiseLike<unknown> | null)?.then === 'function'
          ? await returned
          : (returned as JsonValue | SubjectResponse);
      if (!isResponse(value)) return { reply: value };
      return value.claims ? { reply: value.reply, claims: value.claims } : { reply: value.reply };
    },
  };
}
