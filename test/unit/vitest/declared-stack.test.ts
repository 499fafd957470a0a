import { afterEach, describe, expect, it } from 'vitest';
import { lineInStack } from '../../../src/run/index.js';
import { captureDeclaration, declarationFrames } from '../../../src/vitest/declared-stack.js';
import { captureFromElsewhere, declareFromElsewhere } from './declare-from-elsewhere.js';

const testFile = expect.getState().testPath ?? '';
const installed = Error.prepareStackTrace;

afterEach(() => {
  Error.prepareStackTrace = installed;
});

// The line of this file's call below: captureDeclaration must name it, source-mapped as Vitest maps the whole stack.
const CALL_LINE = 19;
// The lines of the calls in the loop test below.
const CALL_LINE_IN_LOOP = 60;
const CALL_LINE_ELSEWHERE = 64;
const CALL_LINE_AFRESH = 66;
const declared = () => declareFromElsewhere(testFile);

describe('captureDeclaration', () => {
  it('runs where Vitest formats stacks with its own prepareStackTrace (the case it makes cheap)', () => {
    expect(typeof installed).toBe('function');
  });

  it("names the test file's line and frames as the whole formatted stack does", () => {
    const { whole, captured } = declared();
    expect(captured.line).toBe(CALL_LINE);
    expect(captured.line).toBe(lineInStack(whole, testFile));
    const frames = captured.frames();
    expect(frames).toBe(declarationFrames(whole, testFile));
    expect(frames?.split('\n')[0]).toContain(`declared-stack.test.ts:${CALL_LINE}:`);
    // Formatted once: the same text on every reading.
    expect(captured.frames()).toBe(frames);
  });

  it('formats the whole stack as before when no prepareStackTrace is installed', () => {
    Reflect.deleteProperty(Error, 'prepareStackTrace');
    const { whole, captured } = declared();
    expect(captured.line).not.toBeNull();
    expect(captured.line).toBe(lineInStack(whole, testFile));
    expect(captured.frames()).toBe(declarationFrames(whole, testFile));
  });

  it('has no line and no frames when the test file is not on the stack', () => {
    const captured = captureDeclaration('/nowhere/else.test.ts', new Map());
    expect(captured.line).toBeNull();
    expect(captured.frames()).toBeNull();
    expect(captureDeclaration('', new Map()).line).toBeNull();
  });

  it('maps the line of one `trial(…)` call once for all the trials a loop declares there, in one collection', () => {
    const prepare = installed as NonNullable<typeof Error.prepareStackTrace>;
    let formatted = 0;
    Error.prepareStackTrace = (error, sites) => {
      formatted += 1;
      return prepare(error, sites);
    };
    const lines = new Map<string, number | null>();
    const inLoop = Array.from({ length: 3 }, () => captureFromElsewhere(testFile, lines));
    expect(inLoop.map((captured) => captured.line)).toEqual([CALL_LINE_IN_LOOP, CALL_LINE_IN_LOOP, CALL_LINE_IN_LOOP]);
    expect(formatted).toBe(1);
    // Another call's position is mapped on its own; a new collection (a new map) maps afresh.
    expect(captureFromElsewhere(testFile, lines).line).toBe(CALL_LINE_ELSEWHERE);
    expect(formatted).toBe(2);
    expect(captureFromElsewhere(testFile, new Map()).line).toBe(CALL_LINE_AFRESH);
    expect(formatted).toBe(3);
    // The frames of a failure are still mapped from each trial's own stack.
    expect(inLoop[2]?.frames()?.split('\n')[0]).toContain(`declared-stack.test.ts:${CALL_LINE_IN_LOOP}:`);
  });

  it('leaves the installed prepareStackTrace in place', () => {
    declared();
    expect(Error.prepareStackTrace).toBe(installed);
  });
});
