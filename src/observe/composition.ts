import { z } from 'zod';
import type { CompositionNode, JsonValue, SubjectIdentity } from '../model/index.js';
import type { JsonSchema } from './schema-compatibility.js';
import type { AttemptContext, Subject, SubjectResponse } from './subject.js';

/** A mistake in declaring a Composition or a Composition Suite: says where and what to fix, before anything runs. */
export class CompositionDeclarationError extends Error {
  constructor(
    readonly place: string,
    message: string,
  ) {
    super(`${place}: ${message}`);
    this.name = 'CompositionDeclarationError';
  }
}

/** One of a composition's own criteria: judged on its retained input and output (each parsed by its schema). */
export type CompositionCriterion<I, O> = (io: { input: I; output: O }) => boolean | { met: boolean; note: string };

/** A function composition: the input parsed by its schema in, its output (checked against its schema) out. */
export type CompositionFunction<I, O> = (
  input: I,
  context: AttemptContext,
) => O | SubjectResponse | Promise<O | SubjectResponse>;

export interface CompositionOptions<I extends z.ZodType, O extends z.ZodType> {
  name: string;
  /** The team or person findings about this composition return to. */
  owner: string;
  /** Change it whenever the composition's behaviour may change: it is pinned in the Outcome. */
  version: string;
  input: I;
  output: O;
  /** Any subject riddle knows (function, command, HTTP, replay), or a function of the parsed input. */
  run: Subject | CompositionFunction<z.output<I>, z.input<O>>;
  /** Its own criteria, by name: the evidence attribution follows when the end-to-end criteria are unmet. */
  criteria?: Record<string, CompositionCriterion<z.output<I>, z.output<O>>>;
}

/** A separately owned Composition, declared: its record, its schemas and the subject that runs it. */
export interface Composition {
  readonly name: string;
  readonly owner: string;
  readonly version: string;
  readonly input: z.ZodType;
  readonly output: z.ZodType;
  readonly subject: Subject;
  readonly criteria: Readonly<Record<string, CompositionCriterion<unknown, unknown>>>;
  /** What the Outcome pins: owner, version, the JSON Schemas of its types, its subject and criteria names. */
  readonly record: CompositionNode;
}

const NAME = /^[A-Za-z][\w-]*$/;

const isSubject = (value: unknown): value is Subject =>
  typeof value === 'object' &&
  value !== null &&
  typeof (value as Subject).respond === 'function' &&
  typeof (value as Subject).identify === 'function';

const isZod = (value: unknown): value is z.ZodType =>
  typeof value === 'object' && value !== null && typeof (value as z.ZodType).safeParse === 'function';

function isResponse(value: unknown): value is SubjectResponse {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && 'reply' in value;
}

/** The JSON Schema of a zod schema, as the side of a handoff it stands on reads it. */
export function jsonSchemaOf(schema: z.ZodType, io: 'input' | 'output'): JsonSchema {
  const { $schema: _, ...generated } = z.toJSONSchema(schema, {
    target: 'draft-2020-12',
    io,
    unrepresentable: 'any',
  }) as JsonSchema;
  return generated;
}

/**
 * Declare a Composition: a separately owned part of an agent system (a planner, an executor, a reviewer) with the
 * types it takes and gives. Its mistakes throw a `CompositionDeclarationError` naming the composition and field.
 */
export function composition<I extends z.ZodType, O extends z.ZodType>(options: CompositionOptions<I, O>): Composition {
  const name = typeof options?.name === 'string' ? options.name : '';
  const place = `composition "${name}"`;
  if (!NAME.test(name))
    throw new CompositionDeclarationError(
      'composition',
      `name must start with a letter and hold only letters, digits, _ and -; got ${JSON.stringify(options?.name)}`,
    );
  for (const field of ['owner', 'version'] as const) {
    const value = options[field];
    if (typeof value !== 'string' || value.trim() === '')
      throw new CompositionDeclarationError(
        place,
        `${field} must be a non-empty string (${field === 'owner' ? 'every composition is owned: name the team its findings return to' : 'change it whenever its behaviour may change'}); got ${JSON.stringify(value)}`,
      );
  }
  for (const field of ['input', 'output'] as const) {
    if (!isZod(options[field]))
      throw new CompositionDeclarationError(place, `${field} must be a zod schema (z.object({...}), z.string()…)`);
  }
  const { run } = options;
  if (!isSubject(run) && typeof run !== 'function')
    throw new CompositionDeclarationError(
      place,
      'run must be a subject (functionSubject, commandSubject, httpSubject, replaySubject) or a function',
    );
  const criteria = options.criteria ?? {};
  if (typeof criteria !== 'object' || criteria === null || Array.isArray(criteria))
    throw new CompositionDeclarationError(place, 'criteria must be an object of named functions');
  for (const [criterion, check] of Object.entries(criteria)) {
    if (typeof check !== 'function')
      throw new CompositionDeclarationError(
        place,
        `criteria.${criterion} must be a function ({ input, output }) => boolean`,
      );
  }
  const subject: Subject = isSubject(run)
    ? run
    : {
        kind: 'function',
        name,
        identify: async (): Promise<SubjectIdentity> => ({
          kind: 'function',
          name,
          revision: options.version,
          revisionSource: 'declared',
        }),
        async respond(input: JsonValue, context: AttemptContext): Promise<SubjectResponse> {
          const value = await run(input as z.output<I>, context);
          return isResponse(value) ? value : { reply: value as JsonValue };
        },
      };
  return {
    name,
    owner: options.owner,
    version: options.version,
    input: options.input,
    output: options.output,
    subject,
    criteria: criteria as Record<string, CompositionCriterion<unknown, unknown>>,
    record: {
      name,
      owner: options.owner,
      version: options.version,
      input: jsonSchemaOf(options.input, 'input'),
      output: jsonSchemaOf(options.output, 'output'),
      subject: { kind: subject.kind, name: subject.name },
      criteria: Object.keys(criteria).sort(),
    },
  };
}
