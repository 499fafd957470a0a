import { createHmac } from 'node:crypto';
import { setOwnMember } from '../model/index.js';

export const REDACTED = '[redacted]';

/** A variable whose name says it holds a secret. */
const SECRET_NAME = /key|token|password|passwd|secret|credential|auth|cookie|session|private|salt/i;
/** Prefixes of well-known key formats (OpenAI, Anthropic, Stripe, GitHub, Slack, AWS, Google, GitLab, Hugging Face, JWT, PEM). */
const KEY_PREFIX =
  /^(sk-|sk_|pk_|rk_|ghp_|gho_|ghs_|ghu_|ghr_|github_pat_|xox[abprs]-|AKIA|ASIA|AIza|glpat-|hf_|eyJ|-----BEGIN)/;
/** The same formats found inside longer text (a subject printing a key it was given or found). */
const KEY_IN_TEXT =
  /(?<![A-Za-z0-9_-])(sk-[A-Za-z0-9_-]{16,}|sk_(live|test)_[A-Za-z0-9]{16,}|gh[pousr]_[A-Za-z0-9]{20,}|github_pat_[A-Za-z0-9_]{20,}|xox[abprs]-[A-Za-z0-9-]{10,}|(AKIA|ASIA)[A-Z0-9]{16}|AIza[A-Za-z0-9_-]{30,}|glpat-[A-Za-z0-9_-]{20,}|hf_[A-Za-z0-9]{20,}|eyJ[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]+|-----BEGIN [A-Z ]*PRIVATE KEY-----[\s\S]*?-----END [A-Z ]*PRIVATE KEY-----)/g;
/** Shorter values are too likely to occur by chance in ordinary text to be replaced wherever they appear. */
const MIN_SECRET_LENGTH = 8;

/** Credentials in a URL's user part: `postgres://admin:<password>@host`, `https://<token>@github.com`. */
const URL_CREDENTIALS = /\b([a-z][a-z0-9+.-]*:\/\/)([^\s/?#@"'<>]+)@/gi;
const HAS_URL_CREDENTIALS = new RegExp(URL_CREDENTIALS.source, 'i');
/** The value of an Authorization-like header or field, in text (`Authorization: Bearer …`, `"x-api-key": "…"`). */
const AUTH_FIELD =
  /\b((?:proxy-)?authorization|x-api-key|api[-_]?key|cookie)(["']?\s*[:=]\s*["']?)(?:(bearer|basic|token|digest)\s+)?[^\s"',;]+/gi;
/** A bearer or basic credential wherever it stands. */
const SCHEME_CREDENTIAL = /\b(Bearer|Basic)\s+[A-Za-z0-9._~+/=-]{8,}/g;
/** Keys of structured data (headers, tool arguments) whose values are credentials. */
const SECRET_KEY = /^((proxy-)?authorization|x-api-key|api[-_]?key|cookie|set-cookie|password|passwd|secret|token)$/i;

/** True when a variable looks secret: by its name, a known key prefix of its value, or credentials in it. */
export function looksSecret(name: string, value: string): boolean {
  return (
    SECRET_NAME.test(name) ||
    KEY_PREFIX.test(value) ||
    HAS_URL_CREDENTIALS.test(value) ||
    /^(bearer|basic)\s/i.test(value)
  );
}

/**
 * A variable's value as it may be written: a secret-looking one keeps only a fingerprint, so a change of secret
 * still shows between runs. The fingerprint is short and keyed by RIDDLE_SEAL_SALT when that is set, so a guessable
 * secret cannot be confirmed from it by whoever lacks the salt.
 */
export function redactVariable(name: string, value: string): string {
  if (!looksSecret(name, value)) return value;
  const key = process.env.RIDDLE_SEAL_SALT ?? '';
  return `[redacted ${createHmac('sha256', key).update(value).digest('hex').slice(0, 12)}]`;
}

/** Values of the secret-looking variables of an environment, longest first (so no secret is half-replaced). */
export function secretValues(env: Readonly<Record<string, string | undefined>>): string[] {
  const values = new Set<string>();
  for (const [name, value] of Object.entries(env)) {
    if (value === undefined || !looksSecret(name, value)) continue;
    if (value.length >= MIN_SECRET_LENGTH) {
      values.add(value);
      // Written another way: encoded (base64 without its padding, which a longer text would not end with; base64url;
      // hex), or a key's body without its well-known prefix.
      const bytes = Buffer.from(value);
      values.add(bytes.toString('base64').replace(/=+$/, ''));
      values.add(bytes.toString('base64url'));
      values.add(bytes.toString('hex'));
      values.add(bytes.toString('hex').toUpperCase());
      const body = value.replace(KEY_PREFIX, '');
      if (body !== value && body.length >= MIN_SECRET_LENGTH) values.add(body);
      // An Authorization-like value's credential without its scheme: a service may echo the token alone.
      const credential = /^(?:bearer|basic|token)\s+(\S+)$/i.exec(value)?.[1];
      if (credential !== undefined && credential.length >= MIN_SECRET_LENGTH) values.add(credential);
    }
    // A subject may quote the password of a connection string without the rest of it.
    for (const [, , userinfo] of value.matchAll(URL_CREDENTIALS)) {
      const password = (userinfo ?? '').split(':').slice(1).join(':');
      for (const part of [userinfo ?? '', password, safeDecode(password)])
        if (part.length >= MIN_SECRET_LENGTH) values.add(part);
    }
  }
  return [...values].sort((a, b) => b.length - a.length);
}

/**
 * Secret values of `process.env`, read once and kept: enumerating `process.env` costs a tenth of a millisecond or
 * more, too much to repeat for every attempt. `refreshProcessSecretValues` reads them again; each trial does so as
 * its Environment is captured, so a secret set before a trial starts is always scrubbed from its attempts.
 */
export function processSecretValues(): readonly string[] {
  processSecrets ??= secretValues(process.env);
  return processSecrets;
}

/**
 * Read the secret values of `process.env` afresh (at a trial's start) and keep them for its attempts. The variables
 * are looked at again only when their text changed: `JSON.stringify(process.env)` reads every value too, but without
 * testing each against the secret patterns, which cost about 0.1 ms (up to 0.4 on a busy machine) for every trial.
 */
export function refreshProcessSecretValues(): readonly string[] {
  const text = JSON.stringify(process.env);
  if (processSecrets === null || text !== processSecretsFrom) processSecrets = secretValues(process.env);
  processSecretsFrom = text;
  return processSecrets;
}
let processSecrets: readonly string[] | null = null;
/** The text of `process.env` that `processSecrets` were read from; null when they were read by processSecretValues. */
let processSecretsFrom: string | null = null;

/**
 * The secret values of one attempt: process.env's and those its subject was declared with (`Subject.secrets`),
 * longest first. The same list is given back while neither changes: redactData keeps what it learnt of member names
 * for one list, and every attempt of a trial scrubs with the same.
 */
export function attemptSecretValues(declared: readonly string[] | undefined): readonly string[] {
  const fromProcess = processSecretValues();
  if (declared === undefined || declared.length === 0) return fromProcess;
  const kept = withDeclared.get(declared);
  if (kept !== undefined && kept.fromProcess === fromProcess) return kept.values;
  const values = [...new Set([...declared, ...fromProcess])].sort((a, b) => b.length - a.length);
  withDeclared.set(declared, { fromProcess, values });
  return values;
}
const withDeclared = new WeakMap<readonly string[], { fromProcess: readonly string[]; values: readonly string[] }>();

/**
 * Shortest fragment of a secret redacted where output was cut through it. Three characters or fewer are too common
 * at the end of any text to be told apart from a chance match (a cut after "the" would read as the start of
 * "thesecret…"), and reveal little of a value of at least MIN_SECRET_LENGTH; from four on, the fragment is replaced.
 */
const MIN_CUT_FRAGMENT = 4;
/** A well-known key, a bearer credential or a PEM key begun at the end of a text and cut off there. */
const KEY_AT_END =
  /(?<![A-Za-z0-9_-])(?:(?:sk-|sk_|gh[pousr]_|github_pat_|xox[abprs]-|AKIA|ASIA|AIza|glpat-|hf_|eyJ)[A-Za-z0-9_.-]*|(?:Bearer|Basic)\s+[A-Za-z0-9._~+/=-]*|-----BEGIN [A-Z ]*PRIVATE KEY-----[\s\S]*)$/;

/**
 * A text cut at its end (output kept up to a cap, in raw bytes), scrubbed of what was cut through: a secret whose first
 * MIN_CUT_FRAGMENT or more characters end the text, or a key of a well-known format begun there, no longer matches the
 * whole value or the key's pattern when the text is redacted, so it is replaced here. Secrets whole in the text are
 * left to redactText.
 */
export function redactCutEnd(cutText: string, secrets: readonly string[]): string {
  // A cut through a multi-byte character decodes to U+FFFD: what is before it is what may end with a fragment.
  const text = cutText.replace(/\uFFFD+$/, '');
  let cut = 0;
  for (const secret of secrets) {
    // The longest piece first: the earliest place among the text's last characters where the secret's start begins
    // and runs on to the end of the text (found by its first characters, so a long key costs no more than a short).
    const start = secret.slice(0, MIN_CUT_FRAGMENT);
    let at = text.indexOf(start, Math.max(0, text.length - secret.length + 1));
    while (at !== -1 && text.length - at > cut) {
      if (secret.startsWith(text.slice(at))) {
        cut = text.length - at;
        break;
      }
      at = text.indexOf(start, at + 1);
    }
  }
  const key = KEY_AT_END.exec(text);
  if (key !== null) cut = Math.max(cut, key[0].length);
  return cut === 0 ? cutText : `${text.slice(0, text.length - cut)}${REDACTED}`;
}

/**
 * A fragment every pattern below needs (case aside): text without one cannot match any of them, and most text an
 * attempt keeps (keys, short replies) has none, so the four replacements are skipped for it.
 */
const MAY_HOLD_CREDENTIAL =
  /sk[-_]|gh[pousr]_|github_pat_|xox[abprs]-|AKIA|ASIA|AIza|glpat-|hf_|eyJ|-----BEGIN|:\/\/|authorization|api[-_]?key|cookie|bearer|basic/i;

/** Replace every known secret value, and anything shaped like a well-known key, in a text. */
export function redactText(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const secret of secrets) if (out.includes(secret)) out = out.split(secret).join(REDACTED);
  if (!MAY_HOLD_CREDENTIAL.test(out)) return out;
  return out
    .replace(KEY_IN_TEXT, REDACTED)
    .replace(URL_CREDENTIALS, `$1${REDACTED}@`)
    .replace(AUTH_FIELD, (_found, field: string, sep: string, scheme: string | undefined) =>
      scheme === undefined ? `${field}${sep}${REDACTED}` : `${field}${sep}${scheme} ${REDACTED}`,
    )
    .replace(SCHEME_CREDENTIAL, `$1 ${REDACTED}`);
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

const HEX_DIGEST = /^(sha256:)?[0-9a-f]{64}$/;

/**
 * Redact every string (values and keys) inside plain data such as an Observation. sha256 digests are left
 * alone: they reveal nothing, and a short secret must not corrupt one by matching inside it.
 */
export function redactData<T>(value: T, secrets: readonly string[]): T {
  return redactDeep(value, secrets) as T;
}

function redactDeep(value: unknown, secrets: readonly string[]): unknown {
  if (typeof value === 'string') return HEX_DIGEST.test(value) ? value : redactText(value, secrets);
  if (Array.isArray(value)) return value.map((item) => redactDeep(item, secrets));
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    const names = checkedNamesFor(secrets);
    // for…in with Object.hasOwn lists the own members Object.keys would, in its order, without making the array.
    for (const key in value) {
      if (!Object.hasOwn(value, key)) continue;
      const member = (value as Record<string, unknown>)[key];
      let secretKey = names.get(key);
      let name = key;
      if (secretKey === undefined) {
        name = redactText(key, secrets);
        secretKey = SECRET_KEY.test(key);
        if (name === key && names.size < 4096) names.set(key, secretKey);
      }
      setOwnMember(out, name, typeof member === 'string' && secretKey ? REDACTED : redactDeep(member, secrets));
    }
    return out;
  }
  return value;
}

/**
 * Member names found to hold nothing to redact, for the secret values they were checked against, each with whether
 * its string values are credentials (SECRET_KEY): records repeat the same few dozen names in every attempt, and each
 * was tested against every pattern every time.
 */
function checkedNamesFor(secrets: readonly string[]): Map<string, boolean> {
  if (checkedNames.secrets !== secrets) {
    checkedNames.secrets = secrets;
    checkedNames.names = new Map();
  }
  return checkedNames.names;
}
const checkedNames: { secrets: readonly string[] | null; names: Map<string, boolean> } = {
  secrets: null,
  names: new Map(),
};

/** V8's excerpt of the text it could not parse, in JSON.parse's error: `…, "{"a": tok_1111"... is not valid JSON`. */
const JSON_EXCERPT = /, "[\s\S]*"(?:\.\.\.)? is not valid JSON$/;

/**
 * Why a text is not JSON, from JSON.parse's error, without the excerpt of the text V8 quotes: the excerpt is cut at a
 * fixed length, so a secret in it may be cut through, and no longer found by redactText.
 */
export function jsonParseProblem(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  return text.replace(JSON_EXCERPT, ' (not valid JSON)');
}
