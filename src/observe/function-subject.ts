import type { JsonValue, SubjectIdentity } from '../model/index.js';
import type { AttemptContext, ClaimInput, Subject, SubjectResponse } from './subject.js';

export type SubjectFunction = (
  input: JsonValue,
  context: AttemptContext,
) => Promise<JsonValue | SubjectResponse> | JsonValue | SubjectResponse;

export interface FunctionSubjectOptions {
  name: string;
  /** The revision the Outcome binds to; change it whenever the subject's behaviour may change. */
  revision: string;
  run: SubjectFunction;
}

function isResponse(value: unknown): value is SubjectResponse {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && 'reply' in value;
}

/** A subject that is an async function of the round's input. */
export function functionSubject(options: FunctionSubjectOptions): Subject {
  const identity: SubjectIdentity = { kind: 'function', name: options.name, revision: options.revision, revisionSource: 'declared' };
  return {
    kind: 'function',
    name: options.name,
    identify: async () => identity,
    async respond(input, context) {
      const value = await options.run(input, context);
      if (isResponse(value)) {
        const claims: ClaimInput[] | undefined = value.claims;
        return claims ? { reply: value.reply, claims } : { reply: value.reply };
      }
      return { reply: value };
    },
  };
}
