import { describe, expect, it } from 'vitest';
import {
  DefaultReporter,
  DotReporter,
  GithubActionsReporter,
  JUnitReporter,
  MinimalReporter,
  TapFlatReporter,
  VerboseReporter,
  type Vitest,
} from 'vitest/node';
import { annotatesTrial } from '../../../src/vitest/annotated-trials.js';
import { RunBudgetHost } from '../../../src/vitest/run-budget-host.js';
import { annotatedTrialsFor, RiddleReporter } from '../../../src/vitest/reporter.js';

type Config = Pick<Vitest['config'], 'reporters' | 'ui' | 'api'>;
type Reporters = Vitest['config']['reporters'];

/** A resolved config with these reporters, no UI and the API server off (as `vitest run` resolves it). */
const config = (reporters: unknown[], extra: Partial<Config> = {}): Config => ({
  reporters: reporters as Reporters,
  ui: false,
  api: { middlewareMode: true } as Config['api'],
  ...extra,
});
/** A reporter named as Vitest's resolved config names it: `[name, options]`. */
const named = (name: string) => [name, {}];

describe('which trials a run annotates', () => {
  it('failing ones only, when every reporter shows annotations of failed tests alone or none', () => {
    expect(annotatedTrialsFor(config([named('default')]))).toBe('failing');
    expect(annotatedTrialsFor(config([new RiddleReporter()]))).toBe('failing');
    expect(
      annotatedTrialsFor(
        config([
          named('riddle'),
          named('dot'),
          named('json'),
          named('github-actions'),
          named('hanging-process'),
          named('minimal'),
          named('tree'),
        ]),
      ),
    ).toBe('failing');
    expect(
      annotatedTrialsFor(
        config([
          new RiddleReporter(),
          new RunBudgetHost({} as Vitest, { usd: 1, tokens: null, wallMs: null }),
          new DefaultReporter(),
          new MinimalReporter(),
          new DotReporter(),
          new GithubActionsReporter(),
        ]),
      ),
    ).toBe('failing');
  });

  it('every one, beside a reporter that shows passing tests’ annotations', () => {
    for (const name of ['verbose', 'junit', 'tap', 'tap-flat', 'blob', 'html'])
      expect(annotatedTrialsFor(config([new RiddleReporter(), named(name)])), name).toBe('every');
    // Verbose and TAP-flat are kinds of the default output and of TAP.
    for (const reporter of [new VerboseReporter(), new JUnitReporter({}), new TapFlatReporter()])
      expect(annotatedTrialsFor(config([new RiddleReporter(), reporter]))).toBe('every');
  });

  it('every one, beside a reporter riddle does not know (a module of the user’s, an IDE’s instance)', () => {
    expect(annotatedTrialsFor(config([named('riddle'), named('./meta-recorder.mjs')]))).toBe('every');
    expect(annotatedTrialsFor(config([new RiddleReporter(), { onTestCaseResult() {} }]))).toBe('every');
  });

  it('every one, with Vitest’s UI or API server, which show every test’s annotations', () => {
    expect(annotatedTrialsFor(config([named('default')], { ui: true }))).toBe('every');
    expect(annotatedTrialsFor(config([named('default')], { api: { port: 51204 } as Config['api'] }))).toBe('every');
  });

  it('every one in a worker no riddle reporter told (an IDE’s run, the plugin without its reporter)', () => {
    expect(annotatesTrial(false)).toBe(true);
    expect(annotatesTrial(true)).toBe(true);
  });
});
