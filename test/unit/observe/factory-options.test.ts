import { describe, expect, it } from 'vitest';
import { systemClock } from '../../../src/model/index.js';
import {
  commandSubject,
  functionSubject,
  httpSubject,
  observeAttempt,
  replaySubject,
  type CommandSubjectOptions,
  type FunctionSubjectOptions,
  type HttpSubjectOptions,
  type IsolationEngine,
  type ReplaySubjectOptions,
  type Subject,
} from '../../../src/observe/index.js';
import { aCase } from '../builders.js';

// An options object as a JavaScript caller (or a cast) may pass it: the checks run on what arrives, not on the types.
const command = (options: Record<string, unknown>) => commandSubject(options as unknown as CommandSubjectOptions);
const fn = (options: Record<string, unknown>) => functionSubject(options as unknown as FunctionSubjectOptions);
const http = (options: Record<string, unknown>) => httpSubject(options as unknown as HttpSubjectOptions);
const replay = (options: Record<string, unknown>) => replaySubject(options as unknown as ReplaySubjectOptions);

const node = { name: 'agent', command: process.execPath };

describe('commandSubject checks its options', () => {
  it('names a misspelt exitCodes, rather than failing every attempt that exits with another code', () => {
    expect(() => command({ ...node, exitcodes: [0, 1] })).toThrow(
      new TypeError(
        'commandSubject("agent"): exitcodes: is not an option; did you mean "exitCodes"? Accepted: name, command, args, input, stdout, env, revision, sourceDir, cwd, exitCodes, killGraceMs, mcp, isolation',
      ),
    );
  });

  it('names the isolation engine a misspelt one meant', () => {
    expect(() => command({ ...node, isolation: 'bubblwrap' })).toThrow(
      "commandSubject(\"agent\"): isolation: got the string 'bubblwrap'; did you mean 'bubblewrap'? Accepted: 'bubblewrap' or { engine, network }",
    );
    expect(() => command({ ...node, isolation: { engine: 'bubblwrap' } })).toThrow(
      "isolation.engine: got the string 'bubblwrap'; did you mean 'bubblewrap'?",
    );
    expect(() => command({ ...node, isolation: { network: 'allow' } })).toThrow(
      'commandSubject("agent"): isolation.engine: is missing: expected \'bubblewrap\' or an IsolationEngine { name, available, wrap }',
    );
    expect(() => command({ ...node, isolation: { engine: 'bubblewrap', netwrok: 'allow' } })).toThrow(
      'isolation.netwrok: is not an option; did you mean "network"? Accepted: engine, network',
    );
  });

  it('lists a misspelt nested option first, then the other problems', () => {
    expect(() => command({ ...node, stdout: 'jsno', env: { alow: ['PATH'] } })).toThrow(
      new TypeError(
        'commandSubject("agent"): env.alow: is not an option; did you mean "allow"? Accepted: allow, set\n' +
          "  also stdout: got the string 'jsno'; did you mean 'json'? Accepted: text, json",
      ),
    );
  });

  it('says which option is missing or of the wrong type', () => {
    expect(() => command({ name: 'agent' })).toThrow(
      'commandSubject("agent"): command: is missing: expected a non-empty string',
    );
    expect(() => command({ ...node, args: ['-e', 1] })).toThrow(
      'commandSubject("agent"): args[1]: expected a string, got the number 1',
    );
    expect(() => command({ ...node, exitCodes: [0, 1.5] })).toThrow(
      'commandSubject("agent"): exitCodes[1]: must be a whole number ≥ 0, got the number 1.5',
    );
    expect(() => command({ ...node, env: { set: { KEY: 1 } } })).toThrow(
      'commandSubject("agent"): env.set.KEY: expected a string, got the number 1',
    );
  });

  it('accepts each form of isolation', () => {
    const engine: IsolationEngine = {
      name: 'mine',
      available: async () => ({ available: true, detail: 'here' }),
      wrap: (cmd, args) => ({ command: cmd, args: [...args] }),
    };
    expect(commandSubject({ ...node, isolation: 'bubblewrap' }).isolation).toEqual({
      engine: 'bubblewrap',
      network: 'none',
    });
    expect(commandSubject({ ...node, isolation: { engine: 'bubblewrap', network: 'allow' } }).isolation).toEqual({
      engine: 'bubblewrap',
      network: 'allow',
    });
    expect(commandSubject({ ...node, isolation: { engine } }).isolation).toEqual({ engine: 'mine', network: 'none' });
  });

  it('keeps a round that exits with a declared exit code', async () => {
    const subject = commandSubject({
      ...node,
      args: ['-e', 'process.stdout.write("partial"); process.exit(1)'],
      exitCodes: [0, 1],
    });
    const observed = await observe(subject);
    expect(observed.status).toBe('completed');
    expect(observed.observation?.rounds[0]?.reply).toBe('partial');
  });
});

const observe = (subject: Subject) =>
  observeAttempt({
    arm: 'case',
    attempt: 0,
    seed: 1,
    case: aCase({ stop: { timeoutMs: 10_000, maxOutputBytes: 1024, maxRounds: 1 } }),
    subject,
    tools: [],
    clock: systemClock,
  });

describe('functionSubject checks its options', () => {
  const run = () => 'hello';

  it('names a misspelt revision and run, then what they left missing', () => {
    expect(() => fn({ name: 'f', revison: '1', run })).toThrow(
      new TypeError(
        'functionSubject("f"): revison: is not an option; did you mean "revision"? Accepted: name, revision, sourceDir, run\n' +
          '  also revision: is missing: expected a non-empty string',
      ),
    );
    expect(() => fn({ name: 'f', revision: '1', rnu: run })).toThrow(
      'functionSubject("f"): rnu: is not an option; did you mean "run"?',
    );
    expect(() => fn({ name: '', revision: '1', run })).toThrow('functionSubject: name: must not be empty');
  });

  it('runs the function given', async () => {
    const observed = await observe(functionSubject({ name: 'f', revision: '1', run }));
    expect(observed.observation?.rounds[0]?.reply).toBe('hello');
  });
});

describe('httpSubject checks its options', () => {
  it('names a misspelt revision and headers that are not strings', () => {
    expect(() => http({ name: 'h', url: 'http://127.0.0.1:9/', revison: '1' })).toThrow(
      'httpSubject("h"): revison: is not an option; did you mean "revision"? Accepted: name, url, revision, sourceDir, headers',
    );
    expect(() => http({ name: 'h', url: 'http://127.0.0.1:9/', revision: '1', headers: { 'x-n': 1 } })).toThrow(
      'httpSubject("h"): headers.x-n: expected a string, got the number 1',
    );
  });

  it('accepts correct options', async () => {
    const subject = httpSubject({ name: 'h', url: 'http://127.0.0.1:9/', revision: '1', headers: { 'x-n': '1' } });
    expect(await subject.identify()).toMatchObject({ kind: 'http', revision: '1', revisionSource: 'declared' });
  });
});

describe('replaySubject checks its options', () => {
  it('names a misspelt responses (no raw TypeError from Object.entries)', () => {
    expect(() => replay({ name: 'r', respones: { case: 'hi' } })).toThrow(
      new TypeError(
        'replaySubject("r"): respones: is not an option; did you mean "responses"? Accepted: name, revision, responses\n' +
          '  also responses: is missing: expected a Map or an object of recorded replies by Case id',
      ),
    );
    expect(() => replay({ name: 'r', responses: ['hi'] })).toThrow(
      'replaySubject("r"): responses: expected a Map or an object of recorded replies by Case id, got an array',
    );
  });

  it('replays from a Map or an object', async () => {
    for (const responses of [new Map([['case', 'hi']]), { case: 'hi' }]) {
      const observed = await observe(replaySubject({ name: 'r', responses }));
      expect(observed.observation?.rounds[0]?.reply).toBe('hi');
    }
  });
});
