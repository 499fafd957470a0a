import { fingerprint, type JsonValue, type SubjectIdentity } from '../model/index.js';
import { anything, either, nonEmpty, optional, optionsChecker, recordOf } from '../model/options-check.js';
import type { Subject } from './subject.js';

export interface ReplaySubjectOptions {
  name: string;
  /**
   * The revision the Outcome binds to (e.g. the recording's source and date). Omitted: the content fingerprint of
   * the recordings, so any change to them yields a new Outcome.
   */
  revision?: string;
  /** Recorded replies by Case id (the attempt's arm); one reply per Case, for round 1. */
  responses: ReadonlyMap<string, JsonValue> | Readonly<Record<string, JsonValue>>;
}

const RESPONSES = 'a Map or an object of recorded replies by Case id';

const checkOptions = optionsChecker<ReplaySubjectOptions>(
  'replaySubject',
  {
    name: nonEmpty,
    revision: optional(nonEmpty),
    responses: either(RESPONSES, (value) =>
      value instanceof Map
        ? anything
        : typeof value === 'object' && value !== null && !Array.isArray(value)
          ? recordOf(anything, RESPONSES)
          : null,
    ),
  },
  'name',
);

/**
 * A subject that returns recorded replies keyed by Case id, so trial code written against recordings later runs
 * unchanged against a live subject. Its identity kind is `replay`: every attempt of an arm returns the same
 * recording, so attempts are not independent samples and the Environment must say so. A Case without a recording,
 * or a round past the first, is a subject error.
 */
export function replaySubject(options: ReplaySubjectOptions): Subject {
  checkOptions(options);
  const responses: ReadonlyMap<string, JsonValue> =
    options.responses instanceof Map ? options.responses : new Map(Object.entries(options.responses));
  const identity: SubjectIdentity =
    options.revision === undefined
      ? {
          kind: 'replay',
          name: options.name,
          revision: fingerprint([...responses].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))),
          revisionSource: 'content',
        }
      : { kind: 'replay', name: options.name, revision: options.revision, revisionSource: 'declared' };
  return {
    kind: 'replay',
    name: options.name,
    identify: async () => identity,
    async respond(_input, context) {
      if (context.round !== 1) {
        throw new Error(
          `replay ${options.name}: only round 1 is recorded; case "${context.arm}" asked for round ${context.round}`,
        );
      }
      const reply = responses.get(context.arm);
      if (reply === undefined)
        throw new Error(`replay ${options.name}: no recorded response for case "${context.arm}"`);
      return { reply };
    },
  };
}
