import { afterEach, describe, expect, it } from 'vitest';
import { lineInStack } from '../../../src/run/index.js';
import { captureDeclaration, declarationFrames } from '../../../src/vitest/declared-stack.js';
import { declareFromElsewhere } from './declare-from-elsewhere.js';

const testFile = expect.getState().testPath ?? '';
const installed = Error.prepareStackTrace;

afterEach(() => {
  Error.prepareStackTrace = installed;
});

// The line of this file's call below: captureDeclaration must name it, source-mapped as Vitest maps the whole stack.
const CALL_LINE = 15;
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
    const captured = captureDeclaration('/nowhere/else.test.ts');
    expect(captured.line).toBeNull();
    expect(captured.frames()).toBeNull();
    expect(captureDeclaration('').line).toBeNull();
  });

  it('leaves the installed prepareStackTrace in place', () => {
    declared();
    expect(Error.prepareStackTrace).toBe(installed);
  });
});
