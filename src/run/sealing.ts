import { canonicalJson, sha256, type AttemptRecord, type Case, type JsonValue, type TrapSpec } from '../model/index.js';

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

/**
 * A trap's declared content (what sealing hides): its data fields, not its kind or vocabulary (a style, what a claim
 * is about), which name record fields and would be scrubbed out of every record if treated as secret.
 */
function trapContent(spec: TrapSpec): JsonValue[] {
  switch (spec.kind) {
    case 'false-premise':
      return [spec.premise, spec.truth];
    case 'missing-information':
      return [spec.withheld, spec.given];
    case 'impossible-constraint':
      return [...spec.constraints, spec.impossibleBecause, spec.satisfiableBecause];
    case 'repeated-nudge':
      return [...spec.nudges, ...spec.neutral];
    case 'dialect-distortion':
      return [spec.clean, spec.distorted];
    // Tool names are the trial's tools, pinned in the Environment in plaintext: not the trap's to hide.
    case 'forbidden-method':
      return [spec.because];
    case 'unsupported-claim':
      return spec.about === 'identity' && spec.backedBy !== null ? [spec.backedBy] : [];
    case 'chain':
      return spec.members.flatMap((m) => trapContent(m.spec));
    case 'sealed':
      return [];
    default:
      return spec satisfies never;
  }
}

/** The plaintext of a sealed Case (inputs, oracle, its trap's data), to be scrubbed from whatever is retained. */
export function sealedTexts(sealed: Case): string[] {
  const out: string[] = [];
  const trap = sealed.trap === null ? [] : trapContent(sealed.trap.spec);
  for (const value of [sealed.input, ...sealed.followUps, sealed.oracle, ...trap]) texts(value, out);
  return [...new Set(out)].sort((a, b) => b.length - a.length);
}

/**
 * The pinned record of a sealed Case: its inputs and oracle by salted fingerprint only, and a trap's data (premise,
 * truth, nudges, a chain's traps…) likewise, its kind kept so the trap group is still summarised by kind. The rest of
 * the trap record (role, criteria names, rounds, Latin square) says nothing of the content and stays.
 */
export function sealCase(runnable: Case, salt: string): Case {
  const { trap } = runnable;
  return {
    ...runnable,
    input: sealValue(runnable.input, salt),
    followUps: runnable.followUps.map((f) => sealValue(f, salt)),
    oracle: runnable.oracle === null ? null : sealValue(runnable.oracle, salt),
    trap:
      trap === null || trap.spec.kind === 'sealed'
        ? trap
        : {
            ...trap,
            spec: {
              kind: 'sealed',
              of: trap.spec.kind,
              fingerprint: `sha256:${sha256(`${salt}\u0000${canonicalJson(trap.spec as JsonValue)}`)}`,
            },
          },
  };
}

/** Why a sealed Case cannot be declared without a salt: the fix, in the declaration error. */
export const SEAL_SALT_MISSING =
  'a sealed Case needs RIDDLE_SEAL_SALT set to a secret of your own: without it the fingerprint that stands in for the content is unsalted, and anyone can confirm a guess of the content against it';

/** Stand-in for a scrubbed fragment of sealed content. */
export const SEALED = '[sealed]';
/** Shortest run of characters shared with sealed content that is scrubbed (shorter runs are ordinary words). */
export const SEALED_RUN = 8;

/** Lower-case each UTF-16 unit alone, so positions in the folded text are positions in the original. */
function fold(text: string): string {
  let out = '';
  for (const unit of text) {
    const lower = unit.toLowerCase();
    out += lower.length === unit.length ? lower : unit;
  }
  return out;
}

/** The sealed texts and their encodings (base64, base64url, hex) that a subject or a message might carry. */
function sealedForms(texts: readonly string[]): string[] {
  return texts.flatMap((text) => {
    const bytes = Buffer.from(text, 'utf8');
    return [text, bytes.toString('base64'), bytes.toString('base64url'), bytes.toString('hex')];
  });
}

const HEX_DIGEST = /^(sha256:)?[0-9a-f]{64}$/;

/**
 * A scrubber for everything retained about a sealed arm: every run of SEALED_RUN or more characters that also
 * occurs in the sealed content (compared case-folded, and in the base64 and hex forms of each whole text) is
 * replaced by `[sealed]`, so a truncated assertion diff or a subject echoing part of its input keeps no fragment.
 * Every window of SEALED_RUN characters of the sealed forms is indexed; a retained string's windows found there
 * are blanked, and overlapping windows join into one stand-in. sha256 digests are left alone.
 */
export function sealedScrubber(texts: readonly string[]): <T>(value: T) => T {
  const windows = new Set<string>();
  for (const form of sealedForms(texts)) {
    const folded = fold(form);
    for (let i = 0; i + SEALED_RUN <= folded.length; i++) windows.add(folded.slice(i, i + SEALED_RUN));
  }
  // Whole sealed strings shorter than a window (an oracle like "Lisbon") are scrubbed where they occur whole.
  const shortTexts = texts.filter((text) => text.length < SEALED_RUN).map(fold);
  const scrubText = (text: string): string => {
    if (HEX_DIGEST.test(text)) return text;
    const folded = fold(text);
    const hidden = new Uint8Array(text.length);
    let any = false;
    for (let i = 0; i + SEALED_RUN <= folded.length; i++) {
      if (windows.has(folded.slice(i, i + SEALED_RUN))) {
        hidden.fill(1, i, i + SEALED_RUN);
        any = true;
      }
    }
    for (const short of shortTexts) {
      for (let at = folded.indexOf(short); at !== -1; at = folded.indexOf(short, at + 1)) {
        hidden.fill(1, at, at + short.length);
        any = true;
      }
    }
    if (!any) return text;
    let out = '';
    for (let i = 0; i < text.length; i++) {
      if (hidden[i] === 0) out += text[i];
      else if (i === 0 || hidden[i - 1] === 0) out += SEALED;
    }
    return out;
  };
  const scrub = (value: unknown): unknown => {
    if (typeof value === 'string') return scrubText(value);
    if (Array.isArray(value)) return value.map(scrub);
    if (value !== null && typeof value === 'object') {
      const out: Record<string, unknown> = {};
      for (const [key, member] of Object.entries(value)) out[scrubText(key)] = scrub(member);
      return out;
    }
    return value;
  };
  return <T>(value: T) => scrub(value) as T;
}

/**
 * A sealed arm's attempt with every assertion message replaced by the outcome alone: a check's message quotes what
 * it compared (an expected answer, a truncated diff of the input), which is the sealed content itself.
 */
export function withholdSealedMessages(record: AttemptRecord): AttemptRecord {
  const withheld = (result: string) => `${result} (sealed: the message is withheld)`;
  return {
    ...record,
    findings: record.findings.map((finding) => ({ ...finding, note: withheld(finding.result) })),
    criteria: record.criteria.map((criterion) => ({
      ...criterion,
      reason: withheld(criterion.result),
      overruled: criterion.overruled.map((o) => ({ ...o, note: withheld(o.result) })),
    })),
  };
}
