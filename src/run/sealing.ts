import { canonicalJson, sha256, type Case, type JsonValue } from '../model/index.js';

/** Stand-in for sealed content in every record: a salted fingerprint, so later edits still show. */
export function sealValue(value: JsonValue, salt: string): JsonValue {
  return { sealed: `sha256:${sha256(`${salt}\u0000${canonicalJson(value)}`)}` };
}

function texts(value: JsonValue, into: string[]): void {
  if (typeof value === 'string') {
    // Very short strings would blank out common words everywhere; a sealed Case's content is longer than that.
    if (value.trim().length >= 4) into.push(value);
  } else if (Array.isArray(value)) for (const item of value) texts(item, into);
  else if (value !== null && typeof value === 'object') for (const item of Object.values(value)) texts(item, into);
}

/** The plaintext of a sealed Case (inputs and oracle), to be scrubbed from whatever is retained. */
export function sealedTexts(sealed: Case): string[] {
  const out: string[] = [];
  for (const value of [sealed.input, ...sealed.followUps, sealed.oracle]) texts(value, out);
  return [...new Set(out)].sort((a, b) => b.length - a.length);
}

/** The pinned record of a sealed Case: its inputs and oracle by salted fingerprint only. */
export function sealCase(runnable: Case, salt: string): Case {
  return {
    ...runnable,
    input: sealValue(runnable.input, salt),
    followUps: runnable.followUps.map((f) => sealValue(f, salt)),
    oracle: runnable.oracle === null ? null : sealValue(runnable.oracle, salt),
  };
}
