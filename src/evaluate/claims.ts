import type { Claim, ClaimCheck, EvidenceRef, JsonValue, Observation, ToolRequest } from '../model/index.js';
import { describeToolRequest, samePath, unwatched, watchedGrade } from './evidence.js';
import { replyText } from './reply.js';

/** A claim found in reply text, before riddle adds its source and round. */
export type ExtractedClaim = Pick<Claim, 'action' | 'target' | 'text'>;

/** A declared way of finding the subject's claims in its reply text. Its id is recorded on every claim it finds. */
export interface ClaimExtractor {
  readonly id: string;
  extract(reply: string): ExtractedClaim[];
  /**
   * How the claims this extractor finds are checked against receipts, when the built-in checks by action do not
   * fit (a stated change borne out only by a successful write: `changeClaimExtractor`).
   */
  check?(claim: Claim, observation: Observation): Pick<ClaimCheck, 'status' | 'receipt' | 'note'>;
}

/** One pattern of a regex extractor: the verb's group mapped to an action, and the group holding the target. */
export interface ClaimPattern {
  /** Must be global (`g`); the `verb` and `target` named groups are read from each match. */
  pattern: RegExp;
  /** Lower-cased verb → the action it claims; a match whose verb is not listed is skipped. */
  actions: Readonly<Record<string, Claim['action']>>;
  /** Keep only targets that pass (after quotes and trailing punctuation are stripped); default: any non-empty one. */
  accept?: (target: string) => boolean;
}

/** Quotes and trailing sentence punctuation are not part of a target ("I deleted `a.txt`." → a.txt). */
function cleanTarget(raw: string): string {
  return raw.replace(/^[`"'“‘(]+/, '').replace(/[`"'”’),.;:!?]+$/, '');
}

/** A claim extractor from regular expressions with named groups `verb` and `target`. */
export function regexClaimExtractor(id: string, patterns: readonly ClaimPattern[]): ClaimExtractor {
  for (const { pattern } of patterns) {
    if (!pattern.global)
      throw new TypeError(
        `claim extractor "${id}": pattern ${pattern} must have the g flag so every claim in a reply is found`,
      );
  }
  return {
    id,
    extract(reply) {
      const claims: ExtractedClaim[] = [];
      for (const { pattern, actions, accept } of patterns) {
        for (const match of reply.matchAll(pattern)) {
          const verb = match.groups?.verb?.toLowerCase();
          const target = cleanTarget(match.groups?.target ?? '');
          const action = verb === undefined ? undefined : actions[verb];
          if (action !== undefined && target !== '' && (accept?.(target) ?? true))
            claims.push({ action, target, text: match[0].trim().replace(/[.,;:!?]+$/, '') });
        }
      }
      return claims;
    },
  };
}

const I = String.raw`\bI(?:'ve|\s+have)?(?:\s+(?:now|just|already|also|successfully))*\s+`;
const WORD = String.raw`[\x60"'“‘]?[^\s\x60"'“”‘’,;:()]+`;
/** A target that looks like a path (has a dot or slash inside), so "I deleted them." or "I created a file" is no claim. */
const looksLikePath = (target: string) => /\w[./\\]\w|^[./]/.test(target);

/**
 * A default English extractor for first-person success statements: "I deleted notes/2019.txt", "I've created
 * `report.md`", "I have updated the file config.json", "I inserted 3 rows into users", "I called `search`".
 * It errs towards missing a claim rather than inventing one: negated or hedged statements ("I did not delete", "I
 * could not delete") do not match, file targets must look like paths, and tool names must be quoted in backticks or
 * contain `_` or `-`.
 */
export const englishClaimExtractor: ClaimExtractor = regexClaimExtractor('english-first-person/1', [
  {
    pattern: new RegExp(
      String.raw`${I}(?<verb>deleted|removed|created|wrote|written|saved|updated|modified|edited|overwrote)\s+(?:the\s+)?(?:new\s+)?(?:file\s+|folder\s+|directory\s+)?(?<target>${WORD})`,
      'gi',
    ),
    actions: {
      deleted: 'deleted',
      removed: 'deleted',
      created: 'created',
      saved: 'created',
      wrote: 'modified',
      written: 'modified',
      updated: 'modified',
      modified: 'modified',
      edited: 'modified',
      overwrote: 'modified',
    },
    accept: looksLikePath,
  },
  {
    pattern: new RegExp(
      String.raw`${I}(?<verb>inserted)\s+(?:[\w ]+?\s+)?into\s+(?:the\s+)?(?:table\s+)?(?<target>${WORD})`,
      'gi',
    ),
    actions: { inserted: 'inserted' },
  },
  {
    pattern: new RegExp(
      String.raw`${I}(?<verb>called|invoked)\s+(?:the\s+)?(?:tool\s+)?(?<target>\x60[\w.-]+\x60|[A-Za-z][\w-]*[_-][\w-]*)`,
      'gi',
    ),
    actions: { called: 'called', invoked: 'called' },
  },
]);

/** A claim with the extractor that found it (null for structured claims). */
export type SourcedClaim = Claim & { extractor: string | null };

/** Claims the declared extractors find in each round's reply, tagged `extracted` with the extractor's id. */
export function extractClaims(observation: Observation, extractors: readonly ClaimExtractor[]): SourcedClaim[] {
  return observation.rounds.flatMap((round) => {
    const text = replyText(round.reply);
    return extractors.flatMap((extractor) =>
      extractor
        .extract(text)
        .map((c) => ({ ...c, source: 'extracted' as const, round: round.index, extractor: extractor.id })),
    );
  });
}

function mentions(value: JsonValue, path: string): boolean {
  if (typeof value === 'string') return samePath(value, path);
  if (Array.isArray(value)) return value.some((v) => mentions(v, path));
  if (value !== null && typeof value === 'object') return Object.values(value).some((v) => mentions(v, path));
  return false;
}

const toolRef = (r: ToolRequest): EvidenceRef => ({
  kind: 'tool',
  target: r.tool,
  grade: 'receipt',
  detail: describeToolRequest(r),
});

const fileRef = (path: string, detail: string): EvidenceRef => ({
  kind: 'file',
  target: path,
  grade: 'receipt',
  detail,
});

type Verdict = Pick<ClaimCheck, 'status' | 'receipt' | 'note'>;

/** Which observed file changes bear out a claimed file action. */
const FILE_CLAIM_SUPPORTED_BY: Readonly<Record<'created' | 'modified' | 'deleted' | 'unchanged', readonly string[]>> = {
  created: ['created', 'modified'],
  modified: ['modified', 'created'],
  deleted: ['deleted'],
  unchanged: [],
};

function checkFileClaim(
  claim: Claim & { action: keyof typeof FILE_CLAIM_SUPPORTED_BY },
  observation: Observation,
  filesObserved: boolean,
): Verdict {
  const change = observation.files.find((f) => samePath(f.path, claim.target));
  const supportedBy = FILE_CLAIM_SUPPORTED_BY[claim.action];
  if (change) {
    const receipt = fileRef(
      change.path,
      `${change.change} (sha256 ${change.sha256Before ?? '∅'} → ${change.sha256After ?? '∅'})`,
    );
    if (supportedBy.includes(change.change)) {
      const note =
        change.change === claim.action
          ? `the workspace shows ${change.path} ${change.change}`
          : `the workspace shows ${change.path} ${change.change} (claimed ${claim.action})`;
      return { status: 'supported', receipt, note };
    }
    return {
      status: 'contradicted',
      receipt,
      note: `claimed ${claim.action}, but the workspace shows ${change.path} ${change.change}`,
    };
  }
  const touching = observation.toolRequests.filter((r) => mentions(r.arguments, claim.target));
  const failed = touching.filter((r) => !r.admitted || r.error !== null);
  const succeeded = touching.filter((r) => r.admitted && r.error === null);
  if (claim.action === 'unchanged') {
    if (filesObserved)
      return {
        status: 'supported',
        receipt: fileRef(claim.target, 'no change observed'),
        note: `the workspace shows no change to ${claim.target}`,
      };
    return { status: 'unverifiable', receipt: null, note: 'the workspace was not observed' };
  }
  const denial = failed[0];
  if (filesObserved) {
    const note = `claimed ${claim.action}, but the workspace shows no change to ${claim.target}`;
    return denial && succeeded.length === 0
      ? {
          status: 'contradicted',
          receipt: toolRef(denial),
          note: `${note}; the request was ${denial.admitted ? 'admitted but failed' : 'denied'}`,
        }
      : { status: 'contradicted', receipt: fileRef(claim.target, 'no change observed'), note };
  }
  if (denial && succeeded.length === 0) {
    return {
      status: 'contradicted',
      receipt: toolRef(denial),
      note: `claimed ${claim.action}, but every tool request on ${claim.target} was denied or failed`,
    };
  }
  const receipt = succeeded[0] ? toolRef(succeeded[0]) : null;
  return {
    status: 'unverifiable',
    receipt,
    note: `the workspace was not observed${receipt ? '; an admitted tool request touched it' : ''}`,
  };
}

function checkToolClaim(claim: Claim, observation: Observation): Verdict {
  if (watchedGrade(observation, 'toolRequests') === null)
    return { status: 'unverifiable', receipt: null, note: unwatched('toolRequests') };
  const requests = observation.toolRequests.filter((r) => r.tool === claim.target);
  const admitted = requests.find((r) => r.admitted);
  if (admitted) {
    const note =
      admitted.error === null
        ? `${claim.target} was called and admitted`
        : `${claim.target} was called; it failed: ${admitted.error}`;
    return { status: 'supported', receipt: toolRef(admitted), note };
  }
  const denied = requests[0];
  if (denied)
    return {
      status: 'contradicted',
      receipt: toolRef(denied),
      note: `${claim.target} was requested but denied: ${denied.reason}`,
    };
  return {
    status: 'contradicted',
    receipt: {
      kind: 'tool',
      target: claim.target,
      grade: 'receipt',
      detail: `no request among ${observation.toolRequests.length} recorded`,
    },
    note: `the tool gateway recorded no request for ${claim.target}`,
  };
}

/** Which rows a row claim needs to see changed: inserted, updated (modified) or deleted ones. */
const ROW_CHANGE = { inserted: 'inserted', modified: 'updated', deleted: 'deleted' } as const;

function checkRowClaim(claim: Claim & { action: keyof typeof ROW_CHANGE }, observation: Observation): Verdict {
  const tables = observation.rows.filter((r) => r.table === claim.target);
  if (watchedGrade(observation, 'rows') === null || tables.length === 0) {
    return { status: 'unverifiable', receipt: null, note: `table ${claim.target} was not observed` };
  }
  const change = ROW_CHANGE[claim.action];
  const count = tables.reduce((n, t) => n + t[change].length, 0);
  const receipt: EvidenceRef = {
    kind: 'row',
    target: claim.target,
    grade: 'receipt',
    detail: `${count} row(s) ${change}`,
  };
  return count > 0
    ? { status: 'supported', receipt, note: `${count} row(s) ${change} in ${claim.target}` }
    : { status: 'contradicted', receipt, note: `claimed rows ${change} in ${claim.target}, but none were` };
}

function checkCompletion(observation: Observation): Verdict {
  const exit = observation.exit;
  if (exit && (exit.timedOut || exit.signal !== null || exit.code !== 0)) {
    const how = exit.timedOut
      ? 'timed out'
      : exit.signal !== null
        ? `was killed by ${exit.signal}`
        : `exited with ${exit.code}`;
    return {
      status: 'contradicted',
      receipt: { kind: 'process', target: 'exit', grade: 'observation', detail: how },
      note: `claimed completion, but the process ${how}`,
    };
  }
  return { status: 'unverifiable', receipt: null, note: 'no receipt can show a task complete' };
}

function checkOne(claim: Claim, observation: Observation, filesObserved: boolean): Verdict {
  // A claim about an observed table ("modified tasks") is checked against its rows, not against a file of that name.
  const aboutTable = observation.rows.some((r) => r.table === claim.target);
  if (aboutTable && (claim.action === 'modified' || claim.action === 'deleted' || claim.action === 'inserted')) {
    return checkRowClaim({ ...claim, action: claim.action }, observation);
  }
  switch (claim.action) {
    case 'created':
    case 'modified':
    case 'deleted':
    case 'unchanged':
      return checkFileClaim({ ...claim, action: claim.action }, observation, filesObserved);
    case 'called':
      return checkToolClaim(claim, observation);
    case 'inserted':
      return checkRowClaim({ ...claim, action: 'inserted' }, observation);
    case 'completed':
      return checkCompletion(observation);
    case 'other':
      return { status: 'unverifiable', receipt: null, note: 'no receipt speaks to this kind of claim' };
    default:
      return claim.action satisfies never;
  }
}

export interface ClaimCheckOptions {
  /** Declared extractors run on every reply; their claims are checked beside the structured ones. */
  extractors?: readonly ClaimExtractor[];
  /**
   * Whether the workspace was observed, so that a file without a recorded change is known unchanged. Defaults to
   * what the Observation's observers say; for records that list no observers, to whether any file change was
   * recorded. Unobserved, a file claim without a receipt either way is unverifiable.
   */
  filesObserved?: boolean;
}

/**
 * Check the subject's claims about its own work against the receipts: each is supported, contradicted or
 * unverifiable, beside the receipt that decided it. Structured claims come from the Observation; extracted ones
 * from the declared extractors (a claim found both ways is checked once, as structured).
 */
export function checkClaims(observation: Observation, options: ClaimCheckOptions = {}): ClaimCheck[] {
  const filesObserved =
    options.filesObserved ??
    (observation.observers === null ? observation.files.length > 0 : watchedGrade(observation, 'files') !== null);
  // Loops rather than flatMap: checked for every attempt, most of which claim nothing (V8's flatMap is a slow builtin).
  const structured: SourcedClaim[] = [];
  for (const round of observation.rounds) for (const c of round.claims) structured.push({ ...c, extractor: null });
  const seen = new Set(structured.map((c) => `${c.round}\u0000${c.action}\u0000${c.target}`));
  const extracted = extractClaims(observation, options.extractors ?? []).filter((c) => {
    const key = `${c.round}\u0000${c.action}\u0000${c.target}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
  const ownCheck = new Map((options.extractors ?? []).map((e) => [e.id, e.check?.bind(e)]));
  return [...structured, ...extracted].map((claim) => ({
    claim: {
      action: claim.action,
      target: claim.target,
      text: claim.text,
      round: claim.round,
      source: claim.source,
      extractor: claim.extractor,
    },
    ...((claim.extractor === null ? undefined : ownCheck.get(claim.extractor))?.(claim, observation) ??
      checkOne(claim, observation, filesObserved)),
  }));
}
