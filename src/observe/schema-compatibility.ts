import type { JsonValue } from '../model/index.js';

/** A JSON Schema object as zod's `toJSONSchema` writes it. */
export type JsonSchema = { [key: string]: JsonValue };

const isSchema = (value: JsonValue | undefined): value is JsonSchema =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** The JSON types a schema admits; null when it admits anything (no `type`, `anyOf`, `const` or `enum`). */
function typesOf(schema: JsonSchema): string[] | null {
  if (typeof schema.type === 'string') return [schema.type];
  if (Array.isArray(schema.type)) return schema.type.filter((t): t is string => typeof t === 'string');
  if ('const' in schema) return [jsonType(schema.const ?? null)];
  if (Array.isArray(schema.enum)) return [...new Set(schema.enum.map(jsonType))];
  return null;
}

function jsonType(value: JsonValue): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value;
}

/** The values a schema admits when it lists them (`const`, `enum`); null when it does not. */
function valuesOf(schema: JsonSchema): JsonValue[] | null {
  if ('const' in schema) return [schema.const ?? null];
  if (Array.isArray(schema.enum)) return schema.enum;
  return null;
}

/** A short description of a schema for messages: `string`, `"a" | "b"`, `object`, `anything`. */
export function describeSchema(schema: JsonSchema): string {
  const values = valuesOf(schema);
  if (values) return values.map((v) => JSON.stringify(v)).join(' | ');
  if (Array.isArray(schema.anyOf)) return schema.anyOf.filter(isSchema).map(describeSchema).join(' | ');
  const types = typesOf(schema);
  if (types === null) return 'anything';
  return types
    .map((t) => (t === 'array' && isSchema(schema.items) ? `${describeSchema(schema.items)}[]` : t))
    .join(' | ');
}

const typeFits = (from: string, to: readonly string[]) =>
  to.includes(from) || (from === 'integer' && to.includes('number'));

/**
 * Why a value meeting `from` may fail `to`: one line per place (`steps[].title: …`), [] when every value `from`
 * admits is admitted by `to`. Covers what zod schemas produce (types, enums and literals, objects with required and
 * extra keys, records, arrays, unions, nullable). A recursive schema (`$ref`) is not compared here: such a handoff
 * is still checked against the consumer's schema on every attempt.
 */
export function incompatibilities(from: JsonSchema, to: JsonSchema, at = '(root)'): string[] {
  if ('$ref' in from || '$ref' in to) return [];
  if (Array.isArray(from.anyOf)) {
    return from.anyOf.filter(isSchema).flatMap((branch) => incompatibilities(branch, to, at));
  }
  if (Array.isArray(to.anyOf)) {
    const branches = to.anyOf.filter(isSchema);
    if (branches.some((branch) => incompatibilities(from, branch, at).length === 0)) return [];
    return [`${at}: gives ${describeSchema(from)}, needs ${describeSchema(to)}`];
  }
  const toTypes = typesOf(to);
  if (toTypes === null) return [];
  const fromTypes = typesOf(from);
  if (fromTypes === null) return [`${at}: gives anything, needs ${describeSchema(to)}`];
  const wrong = fromTypes.filter((t) => !typeFits(t, toTypes));
  if (wrong.length > 0) return [`${at}: gives ${describeSchema(from)}, needs ${describeSchema(to)}`];
  const allowed = valuesOf(to);
  if (allowed) {
    const given = valuesOf(from);
    const key = (v: JsonValue) => JSON.stringify(v);
    const accepted = new Set(allowed.map(key));
    if (given === null || given.some((v) => !accepted.has(key(v))))
      return [`${at}: gives ${describeSchema(from)}, needs ${describeSchema(to)}`];
  }
  const problems: string[] = [];
  if (fromTypes.includes('object') && toTypes.includes('object')) problems.push(...objectProblems(from, to, at));
  if (fromTypes.includes('array') && toTypes.includes('array') && isSchema(to.items)) {
    const items = isSchema(from.items) ? from.items : {};
    problems.push(...incompatibilities(items, to.items, `${at === '(root)' ? '' : at}[]`));
  }
  return problems;
}

const member = (at: string, key: string) => (at === '(root)' ? key : `${at}.${key}`);
const keysOf = (value: JsonValue | undefined): string[] =>
  Array.isArray(value) ? value.filter((k): k is string => typeof k === 'string') : [];

function objectProblems(from: JsonSchema, to: JsonSchema, at: string): string[] {
  const problems: string[] = [];
  const fromProps = isSchema(from.properties) ? from.properties : {};
  const toProps = isSchema(to.properties) ? to.properties : {};
  const fromRequired = new Set(keysOf(from.required));
  for (const key of keysOf(to.required)) {
    if (!(key in fromProps) && !isSchema(from.additionalProperties))
      problems.push(`${member(at, key)}: needed, never given`);
    else if (!fromRequired.has(key)) problems.push(`${member(at, key)}: needed, but may be left out`);
  }
  for (const [key, schema] of Object.entries(toProps)) {
    const given = fromProps[key] ?? (isSchema(from.additionalProperties) ? from.additionalProperties : undefined);
    if (isSchema(schema) && isSchema(given)) problems.push(...incompatibilities(given, schema, member(at, key)));
  }
  const extra = Object.keys(fromProps).filter((key) => !(key in toProps));
  if (to.additionalProperties === false) {
    for (const key of extra) problems.push(`${member(at, key)}: given, but not accepted (a strict object)`);
  } else if (isSchema(to.additionalProperties)) {
    for (const key of extra) {
      const schema = fromProps[key];
      if (isSchema(schema)) problems.push(...incompatibilities(schema, to.additionalProperties, member(at, key)));
    }
    if (isSchema(from.additionalProperties))
      problems.push(...incompatibilities(from.additionalProperties, to.additionalProperties, member(at, '*')));
  }
  return problems;
}

/**
 * The part of `schema` at a dotted `path` (`plan.steps`), for a handoff that maps the producer's output; a string
 * saying why when the path may not hold a value (a missing, optional or nullable member on the way).
 */
export function schemaAt(schema: JsonSchema, path: string): JsonSchema | string {
  let current = schema;
  const walked: string[] = [];
  for (const key of path.split('.')) {
    walked.push(key);
    const props = isSchema(current.properties) ? current.properties : null;
    const next = props?.[key];
    if (!isSchema(next)) return `${walked.join('.')} is not a member of the output (it has ${describeSchema(current)})`;
    if (!keysOf(current.required).includes(key)) return `${walked.join('.')} may be left out of the output`;
    if (
      Array.isArray(next.anyOf) &&
      next.anyOf.some((b) => isSchema(b) && b.type === 'null') &&
      walked.length < path.split('.').length
    )
      return `${walked.join('.')} may be null in the output`;
    current = next;
  }
  return current;
}
