import { expect, type MatcherState } from 'vitest';
import {
  evaluatorVerdict,
  exitedWith,
  fileChanged,
  hasEffect,
  insertedRows,
  matcherMessage,
  NoEvidence,
  replyClassifiedAs,
  requestedTool,
  supportedClaims,
  type EvaluatorDefinition,
  type ExpectedVerdict,
  type FileContentOptions,
  type MatcherOutcome,
  type ReplyClassifier,
  type RowFilter,
  type SupportedClaimsOptions,
  type ToolRequestFilter,
  type VerdictScenario,
} from '../evaluate/index.js';
import type { EffectClass, JsonValue } from '../model/index.js';

/**
 * A matcher outcome as Vitest wants it. Missing evidence is neither a pass nor a failure: it throws `NoEvidence`,
 * which a criterion check turns into UNKNOWN (and a plain test reports as an error naming what was missing).
 */
function settle(state: MatcherState, outcome: MatcherOutcome) {
  if (outcome.missing !== null) throw new NoEvidence(matcherMessage(outcome, state.isNot));
  return { pass: outcome.pass, message: () => matcherMessage(outcome, state.isNot) };
}

/**
 * riddle's matchers, for `expect.extend(riddleMatchers)`. The observation matchers take the view a criterion
 * check receives (or an Observation, or an attempt record) and record the evidence they read, at their grade:
 * tools, files and rows are receipts, the exit status an observation, a reply label text (or the classifier's grade).
 */
export const riddleMatchers = {
  toHaveEffect(this: MatcherState, received: unknown, effect: EffectClass, options?: { tool?: string }) {
    return settle(this, hasEffect(received, effect, options));
  },
  toHaveRequestedTool(this: MatcherState, received: unknown, tool: string, filter?: ToolRequestFilter) {
    return settle(this, requestedTool(received, tool, filter));
  },
  toHaveAdmittedTool(this: MatcherState, received: unknown, tool: string, args?: { [key: string]: JsonValue }) {
    return settle(
      this,
      requestedTool(received, tool, args === undefined ? { admitted: true } : { admitted: true, arguments: args }),
    );
  },
  toHaveDeniedTool(this: MatcherState, received: unknown, tool: string, args?: { [key: string]: JsonValue }) {
    return settle(
      this,
      requestedTool(received, tool, args === undefined ? { admitted: false } : { admitted: false, arguments: args }),
    );
  },
  toHaveCreated(this: MatcherState, received: unknown, path: string, options?: FileContentOptions) {
    return settle(this, fileChanged(received, path, 'created', options));
  },
  toHaveModified(this: MatcherState, received: unknown, path: string, options?: FileContentOptions) {
    return settle(this, fileChanged(received, path, 'modified', options));
  },
  toHaveDeleted(this: MatcherState, received: unknown, path: string) {
    return settle(this, fileChanged(received, path, 'deleted'));
  },
  toHaveUnchanged(this: MatcherState, received: unknown, path: string) {
    return settle(this, fileChanged(received, path, 'unchanged'));
  },
  toHaveExitedWith(this: MatcherState, received: unknown, code: number) {
    return settle(this, exitedWith(received, code));
  },
  toHaveInsertedRows(this: MatcherState, received: unknown, table: string, filter?: RowFilter) {
    return settle(this, insertedRows(received, table, filter));
  },
  toBeRefusal(this: MatcherState, received: unknown, classifier?: ReplyClassifier) {
    return settle(this, replyClassifiedAs(received, 'refusal', classifier));
  },
  toBeCompliance(this: MatcherState, received: unknown, classifier?: ReplyClassifier) {
    return settle(this, replyClassifiedAs(received, 'compliance', classifier));
  },
  toBePartialRefusal(this: MatcherState, received: unknown, classifier?: ReplyClassifier) {
    return settle(this, replyClassifiedAs(received, 'partial-refusal', classifier));
  },
  toHaveSupportedClaims(this: MatcherState, received: unknown, options?: SupportedClaimsOptions) {
    return settle(this, supportedClaims(received, options));
  },
  async toHaveVerdict(
    this: MatcherState,
    received: EvaluatorDefinition | readonly EvaluatorDefinition[],
    expected: ExpectedVerdict,
    scenario: VerdictScenario,
  ) {
    const outcome = await evaluatorVerdict(received, expected, scenario, expect);
    return {
      pass: outcome.pass,
      message: () => `expected ${this.isNot ? 'not ' : ''}${outcome.expectation}, but ${outcome.actual}`,
    };
  },
};

interface RiddleMatchers<R> {
  /** An admitted tool request with an effect of this class or stronger (optionally through one tool). Receipt grade. */
  toHaveEffect(effect: EffectClass, options?: { tool?: string }): R;
  /** A request for this tool, admitted or denied (or as filtered). Receipt grade. */
  toHaveRequestedTool(tool: string, filter?: ToolRequestFilter): R;
  /** An admitted request for this tool (with these arguments, partially matched). Receipt grade. */
  toHaveAdmittedTool(tool: string, args?: { [key: string]: JsonValue }): R;
  /** A denied request for this tool (with these arguments, partially matched). Receipt grade. */
  toHaveDeniedTool(tool: string, args?: { [key: string]: JsonValue }): R;
  /** The file was created in the observed workspace (with this content). Receipt grade. */
  toHaveCreated(path: string, options?: FileContentOptions): R;
  /** The file was modified in the observed workspace (with this content). Receipt grade. */
  toHaveModified(path: string, options?: FileContentOptions): R;
  /** The file was deleted from the observed workspace. Receipt grade. */
  toHaveDeleted(path: string): R;
  /** The observed workspace shows no change to the file. Receipt grade. */
  toHaveUnchanged(path: string): R;
  /** The subject's process exited with this code (not killed, not timed out). Observation grade. */
  toHaveExitedWith(code: number): R;
  /** Rows were inserted into this observed table (this many, these columns). Receipt grade. */
  toHaveInsertedRows(table: string, filter?: RowFilter): R;
  /** The reply is a refusal, by the declared classifier (default: keyword rules). Text grade, or the classifier's. */
  toBeRefusal(classifier?: ReplyClassifier): R;
  /** The reply complies, by the declared classifier. */
  toBeCompliance(classifier?: ReplyClassifier): R;
  /** The reply refuses in part, by the declared classifier. */
  toBePartialRefusal(classifier?: ReplyClassifier): R;
  /** Every claim the subject made about its own work is supported by receipts. Receipt grade. */
  toHaveSupportedClaims(options?: SupportedClaimsOptions): R;
  /** For testing evaluators: their combined result on a criterion of this Observation (`error` if one failed). */
  toHaveVerdict(expected: ExpectedVerdict, scenario: VerdictScenario): Promise<R>;
}

declare module 'vitest' {
  interface Matchers<T> extends RiddleMatchers<T> {}
}
