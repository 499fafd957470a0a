import type { ClaimCheck, EvidenceRef, Observation, ToolRequest } from '../model/index.js';
import { having, listOf, nonEmpty, object, optional, optionsChecker, text } from '../model/options-check.js';
import type { ClaimExtractor, ExtractedClaim } from './claims.js';
import { describeToolRequest, unwatched, watchedGrade } from './evidence.js';

/** One kind of completed change an agent may state, and the writes that would bear it out. */
export interface ChangeClaimPattern {
  /** Tested against each sentence of a reply (case-insensitive if declared so); a match is a claim. */
  pattern: RegExp;
  /** The write tools any one of which, succeeding, bears the claim out (`cancel_reservation`). */
  tools: readonly string[];
}

export interface ChangeClaimExtractorOptions {
  /** Recorded on every claim the extractor finds; change it whenever the patterns change. */
  id: string;
  patterns: readonly ChangeClaimPattern[];
  /**
   * Identifiers a claim names (a reservation code): each one found in the claim's sentence must appear in the
   * arguments or result of the write that bears it out, so a write to another record does not. Must be global.
   */
  identifiers?: RegExp;
}

const REGEXP = 'a regular expression (/…/)';

const checkOptions = optionsChecker<ChangeClaimExtractorOptions>(
  'changeClaimExtractor',
  {
    id: nonEmpty,
    patterns: listOf(
      object<ChangeClaimPattern>({
        pattern: having(REGEXP, ['test', 'exec']),
        tools: listOf(text, 'an array of tool names'),
      }),
      'an array of { pattern, tools }',
    ),
    identifiers: optional(having(REGEXP, ['test', 'exec'])),
  },
  'id',
);

/** A claim of a completed change: its target is the tools that would bear it out, joined by `|`. */
const targetOf = (tools: readonly string[]) => tools.join('|');

/** Sentences of a reply: split after . ! ? and at line breaks. */
function sentences(reply: string): string[] {
  return reply
    .split(/(?<=[.!?])\s+|\n+/)
    .map((s) => s.trim())
    .filter((s) => s !== '');
}

type ClaimVerdict = Pick<ClaimCheck, 'status' | 'receipt' | 'note'>;

const toolRef = (r: ToolRequest): EvidenceRef => ({
  kind: 'tool',
  target: r.tool,
  grade: 'receipt',
  detail: describeToolRequest(r),
});

/**
 * An extractor of the agent's statements that a change is done ("Your reservation has been cancelled", "I have
 * issued a certificate"), each checked against the attempt's write receipts: supported by an admitted write of a
 * declared tool that did not fail, made in the claim's round or before it, naming one of the identifiers the
 * sentence names (each of which some successful write must name); contradicted when there is none, with the failed or denied request as the receipt when there is one. One
 * contradicted claim makes the attempt CONTRADICTED. It errs towards missing a claim: only sentences matching a
 * declared pattern count.
 */
export function changeClaimExtractor(options: ChangeClaimExtractorOptions): ClaimExtractor {
  checkOptions(options);
  const { identifiers } = options;
  if (identifiers !== undefined && !identifiers.global)
    throw new TypeError(`changeClaimExtractor("${options.id}"): identifiers ${identifiers} must have the g flag`);
  for (const { pattern } of options.patterns) {
    if (pattern.global || pattern.sticky)
      throw new TypeError(
        `changeClaimExtractor("${options.id}"): pattern ${pattern} is tested once per sentence; drop the g and y flags`,
      );
  }
  const toolsOf = new Map(options.patterns.map((p) => [targetOf(p.tools), p.tools]));
  return {
    id: options.id,
    extract(reply) {
      const claims: ExtractedClaim[] = [];
      for (const sentence of sentences(reply)) {
        const found = options.patterns.find((p) => p.pattern.test(sentence));
        if (found) claims.push({ action: 'completed', target: targetOf(found.tools), text: sentence });
      }
      return claims;
    },
    check(claim, observation: Observation): ClaimVerdict {
      if (watchedGrade(observation, 'toolRequests') === null)
        return { status: 'unverifiable', receipt: null, note: unwatched('toolRequests') };
      const tools = toolsOf.get(claim.target) ?? claim.target.split('|');
      const ids = identifiers === undefined ? [] : [...new Set(claim.text.match(identifiers) ?? [])];
      const names = (r: ToolRequest, id: string) =>
        `${JSON.stringify(r.arguments)} ${JSON.stringify(r.result)}`.includes(id);
      const before = observation.toolRequests.filter((r) => r.round <= claim.round);
      const succeeded = before.filter((r) => r.admitted && r.error === null);
      // A sentence may name several records ("A has been upgraded and B cancelled"): one claimed write must name one
      // of them, and every record named must have been written somehow.
      const done = succeeded.find(
        (r) => tools.includes(r.tool) && (ids.length === 0 || ids.some((id) => names(r, id))),
      );
      const unwritten = ids.filter(
        (id) => !succeeded.some((r) => r.effect !== 'read' && r.effect !== 'none' && names(r, id)),
      );
      if (done && unwritten.length === 0)
        return { status: 'supported', receipt: toolRef(done), note: `${done.tool} succeeded (${done.id})` };
      const relevant = before.filter((r) => tools.includes(r.tool));
      const what = `${tools.join(' or ')}${ids.length > 0 ? ` on ${ids.join(', ')}` : ''}`;
      if (done)
        return {
          status: 'contradicted',
          receipt: toolRef(done),
          note: `claimed done, but no write names ${unwritten.join(', ')}`,
        };
      const failed = relevant.find((r) => ids.some((id) => names(r, id))) ?? relevant[0];
      if (failed) {
        const how = !failed.admitted
          ? `was denied: ${failed.reason}`
          : failed.error !== null
            ? `failed: ${failed.error}`
            : `succeeded, but not on ${ids.join(', ')}`;
        return { status: 'contradicted', receipt: toolRef(failed), note: `claimed done, but ${failed.tool} ${how}` };
      }
      return {
        status: 'contradicted',
        receipt: {
          kind: 'tool',
          target: tools.join('|'),
          grade: 'receipt',
          detail: `no request among ${observation.toolRequests.length} recorded up to round ${claim.round}`,
        },
        note: `claimed done, but no ${what} was requested by round ${claim.round}`,
      };
    },
  };
}
