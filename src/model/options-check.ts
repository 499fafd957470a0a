import { describeValue, didYouMean } from './suggest.js';

/**
 * The options object a factory is called with (`commandSubject`, `mechanicalEvaluator`…), checked as `trial()` checks
 * its declaration (run/declaration-schema.ts), in the same words: an unknown option is named with the nearest accepted
 * one, a missing or mistyped option says what is expected. Such a mistake is the programmer's, so it throws at the
 * call, a TypeError naming the factory and the option's path, rather than being ignored or failing every attempt.
 */

/** One problem with an options object: where (a path below it) and what is wrong. */
export interface OptionProblem {
  path: readonly (string | number)[];
  problem: string;
  /** Set on an option name that is not accepted: listed first, as the likely cause of the rest. */
  unknown?: true;
}

interface CheckParts {
  /** What the value should be, as a message says it: "a string", "one of stdin, argument". */
  readonly expected: string;
}

/** A check of a required value: its problems, paths relative to the value; none when it is well formed. */
export type Check = ((value: unknown) => OptionProblem[]) & CheckParts & { readonly optional?: false };
/** A check of a value that may be left out (or given as undefined). */
export type OptionalCheck = ((value: unknown) => OptionProblem[]) & CheckParts & { readonly optional: true };

/**
 * A check for every option of `T`, optional exactly where `T`'s member is: an option added to the interface and not
 * here, or made optional in one place only, is a compile error.
 */
export type OptionsShape<T> = {
  readonly [K in keyof T]-?: Pick<T, K> extends Required<Pick<T, K>> ? Check : OptionalCheck;
};

const check = (expected: string, problems: (value: unknown) => OptionProblem[]): Check =>
  Object.assign(problems, { expected });

const wrong = (expected: string, value: unknown): OptionProblem[] => [
  { path: [], problem: `expected ${expected}, got ${describeValue(value)}` },
];

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** The same check, for a value that may be left out. */
export const optional = (required: Check): OptionalCheck =>
  Object.assign((value: unknown) => required(value), { expected: required.expected, optional: true as const });

/** Any string; `nonEmpty` for names, ids and revisions a record needs. */
export const text = check('a string', (value) => (typeof value === 'string' ? [] : wrong('a string', value)));
export const nonEmpty = check('a non-empty string', (value) =>
  typeof value !== 'string'
    ? wrong('a string', value)
    : value === ''
      ? [{ path: [], problem: 'must not be empty' }]
      : [],
);
export const flag = check('true or false', (value) =>
  typeof value === 'boolean' ? [] : wrong('true or false', value),
);
/** Anything (a JSON value given as it is). */
export const anything = check('any value', () => []);

/** A number ≥ `min`, whole when `whole`. */
export function numberAtLeast(min: number, whole = false): Check {
  const expected = `a ${whole ? 'whole ' : ''}number ≥ ${min}`;
  return check(expected, (value) => {
    if (typeof value !== 'number') return wrong(expected, value);
    if (value < min || (whole && !Number.isInteger(value)))
      return [{ path: [], problem: `must be ${expected}, got ${describeValue(value)}` }];
    return [];
  });
}

/**
 * One of the given strings; a near miss is named (`got the string 'bubblwrap'; did you mean 'bubblewrap'?`). `accepted`
 * says what is accepted when it is more than these strings.
 */
export function oneOf(values: readonly string[], accepted = values.join(', ')): Check {
  const expected = `one of ${accepted}`;
  return check(expected, (value) => {
    if (typeof value === 'string' && values.includes(value)) return [];
    const guess = typeof value === 'string' ? didYouMean(value, values) : null;
    const hint = guess ? `; did you mean '${guess}'?` : '.';
    return [{ path: [], problem: `got ${describeValue(value)}${hint} Accepted: ${accepted}` }];
  });
}

/** A function, described as `what` (`a check function (view, context) => …`). */
export const fn = (what: string): Check =>
  check(what, (value) => (typeof value === 'function' ? [] : wrong(what, value)));

/** An object (a Map, a record riddle validates later…) that has the members riddle calls, as functions. */
export const having = (what: string, members: readonly string[]): Check =>
  check(what, (value) =>
    typeof value === 'object' &&
    value !== null &&
    members.every((m) => typeof (value as Record<string, unknown>)[m] === 'function')
      ? []
      : wrong(what, value),
  );

const within = (at: string | number, problems: readonly OptionProblem[]) =>
  problems.map((found) => ({ ...found, path: [at, ...found.path] }));

/** An array of values each passing `item`, described as `expected` (`an array of strings`). */
export function listOf(item: Check, expected: string): Check {
  return check(expected, (value) =>
    Array.isArray(value) ? value.flatMap((entry, i) => within(i, item(entry))) : wrong(expected, value),
  );
}

/** An object whose every member passes `member` (`checks`, `headers`, `env.set`), described as `expected`. */
export function recordOf(member: Check, expected: string): Check {
  return check(expected, (value) =>
    isPlainObject(value)
      ? Object.entries(value).flatMap(([key, entry]) => within(key, member(entry)))
      : wrong(expected, value),
  );
}

/** A value of more than one kind: `pick` returns the check for the kind given, or null for no accepted kind. */
export const either = (expected: string, pick: (value: unknown) => Check | null): Check =>
  check(expected, (value) => pick(value)?.(value) ?? wrong(expected, value));

/** The problem of keys that are no option, each with the accepted one it most likely meant. */
function unknownKeys(keys: readonly string[], accepted: readonly string[]): OptionProblem[] {
  const list = `Accepted: ${accepted.join(', ')}`;
  if (keys.length === 1) {
    const key = keys[0] ?? '';
    const guess = didYouMean(key, accepted);
    return [
      { path: [key], problem: `is not an option${guess ? `; did you mean "${guess}"?` : '.'} ${list}`, unknown: true },
    ];
  }
  const described = keys.map((key) => {
    const guess = didYouMean(key, accepted);
    return `"${key}"${guess ? ` (did you mean "${guess}"?)` : ''}`;
  });
  return [{ path: [], problem: `unknown options ${described.join(', ')}. ${list}`, unknown: true }];
}

/**
 * An object of exactly these options. Unknown ones are named first: a misspelt option also leaves the option it meant
 * missing, and the typo is the cause.
 */
export function object<T>(shape: OptionsShape<T>): Check {
  const entries = Object.entries(shape) as [string, Check | OptionalCheck][];
  const accepted = entries.map(([key]) => key);
  const expected = `an object { ${accepted.slice(0, 4).join(', ')}${accepted.length > 4 ? ', …' : ''} }`;
  return check(expected, (value) => {
    if (!isPlainObject(value)) return wrong(expected, value);
    const unknown = Object.keys(value).filter((key) => !Object.hasOwn(shape, key));
    const problems = unknown.length === 0 ? [] : unknownKeys(unknown, accepted);
    for (const [key, member] of entries) {
      const given = value[key];
      if (given === undefined) {
        if (!member.optional) problems.push({ path: [key], problem: `is missing: expected ${member.expected}` });
      } else problems.push(...within(key, member(given)));
    }
    return problems;
  });
}

/** A path as written in code: `env.allow[2]`, `checks.answers`. */
const formatPath = (path: readonly (string | number)[]) =>
  path.map((part, i) => (typeof part === 'number' ? `[${part}]` : i === 0 ? part : `.${part}`)).join('');

/** Problems listed after the first, at most. */
const FURTHER = 10;

/**
 * A checker of a factory's options: throws a TypeError with every problem, the first on the first line. The message
 * names the factory and, when the options give one, its `name` or `id` (`commandSubject("agent"): exitcodes: is not
 * an option; did you mean "exitCodes"? Accepted: …`).
 */
export function optionsChecker<T>(factory: string, shape: OptionsShape<T>, named: 'name' | 'id'): (options: T) => void {
  const whole = object<T>(shape);
  return (options) => {
    // Unknown options first, wherever they are (`env.alow` before a wrong `stdout`).
    const problems = whole(options).sort((a, b) => Number(b.unknown ?? false) - Number(a.unknown ?? false));
    const [first, ...more] = problems;
    if (first === undefined) return;
    const name = isPlainObject(options) ? options[named] : undefined;
    const label = typeof name === 'string' && name !== '' ? `${factory}(${JSON.stringify(name)})` : factory;
    const line = ({ path, problem }: OptionProblem) =>
      path.length === 0 ? problem : `${formatPath(path)}: ${problem}`;
    const further = more.slice(0, FURTHER).map((p) => `\n  also ${line(p)}`);
    if (more.length > FURTHER) further.push(`\n  and ${more.length - FURTHER} more problems`);
    throw new TypeError(`${label}: ${line(first)}${further.join('')}`);
  };
}
