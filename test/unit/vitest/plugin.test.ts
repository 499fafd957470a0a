import type { Vitest } from 'vitest/node';
import { describe, expect, it } from 'vitest';
import { riddle } from '../../../src/vitest/plugin.js';
import { RiddleReporter } from '../../../src/vitest/reporter.js';

type Reporters = Vitest['config']['reporters'];

/** A reporter named as Vitest's resolved config names it: `[name, options]`. */
const named = (name: string, options: object = {}) => [name, options] as Reporters[number];

/** The plugin's configureVitest run over a reporter list, as Vitest runs it once per project using the plugin. */
async function configure(plugin: ReturnType<typeof riddle>, reporters: Reporters): Promise<Reporters> {
  const hook = plugin.configureVitest;
  if (typeof hook !== 'function') throw new Error('the riddle plugin has no configureVitest hook');
  await (hook as (context: unknown) => unknown)({ vitest: { config: { reporters } } });
  return reporters;
}

const outputDirOf = (reporter: unknown) => (reporter as { outputDirOption?: string }).outputDirOption;

describe('the riddle plugin’s reporter', () => {
  it('takes the default reporter’s place as an instance (imported by Node, not named for Vite to load)', async () => {
    const reporters = await configure(riddle({ outputDir: 'out' }), [named('default')]);
    expect(reporters).toHaveLength(1);
    expect(reporters[0]).toBeInstanceOf(RiddleReporter);
    expect(outputDirOf(reporters[0])).toBe('out');
  });

  it('turns a named riddle reporter (--reporter=riddle) into an instance, keeping its options', async () => {
    const reporters = await configure(riddle({}), [named('json'), named('riddle', { outputDir: 'given' })]);
    expect(reporters[0]).toEqual(named('json'));
    expect(reporters[1]).toBeInstanceOf(RiddleReporter);
    expect(outputDirOf(reporters[1])).toBe('given');
    const overridden = await configure(riddle({ outputDir: 'plugin' }), [named('riddle', { outputDir: 'given' })]);
    expect(outputDirOf(overridden[0])).toBe('plugin');
  });

  it('adds one reporter however many projects use the plugin, and none when told not to', async () => {
    const reporters: Reporters = [named('default')];
    await configure(riddle({}), reporters);
    await configure(riddle({}), reporters);
    expect(reporters.filter((r) => r instanceof RiddleReporter)).toHaveLength(1);
    expect(await configure(riddle({ reporter: false }), [named('default')])).toEqual([named('default')]);
  });
});

describe('the riddle plugin’s options', () => {
  const progressOf = (reporter: unknown) => (reporter as { progressOption?: unknown }).progressOption;

  it('hands progress to its reporter, over a named reporter’s own', async () => {
    const [added] = await configure(riddle({ progress: false }), [named('default')]);
    expect(progressOf(added)).toBe(false);
    const [replaced] = await configure(riddle({ progress: { intervalMs: 500 } }), [
      named('riddle', { progress: false, outputDir: 'given' }),
    ]);
    expect(progressOf(replaced)).toEqual({ intervalMs: 500 });
    expect(outputDirOf(replaced)).toBe('given');
  });

  it('refuses a misspelt option or verdict when the config is loaded, naming what was meant', () => {
    expect(() => riddle({ outDir: 'reports' } as never)).toThrow(
      /^riddle\(\{ … \}\) in the Vitest config: "outDir" is not an option; did you mean "outputDir"\? \(options: outputDir, passOn, reporter, progress, runBudget\)$/,
    );
    expect(() => riddle({ passOn: ['PASS', 'partial'] } as never)).toThrow(
      /passOn\[1\]: "partial" is not a verdict; did you mean "PARTIAL"\?/,
    );
    expect(() => riddle({ passOn: ['PASS', 'UNKNOWN', 'PASS'] })).toThrow(
      /passOn\[2\]: lists "PASS" twice: list each verdict once/,
    );
  });

  it('lists every problem at once, and checks each option’s type', () => {
    let message = '';
    try {
      riddle({ outputDir: '', passOn: [], reporter: 'yes', progress: { interval: 5 }, colour: true } as never);
    } catch (error) {
      message = (error as Error).message;
    }
    const lines = message.split('\n');
    expect(lines).toHaveLength(5);
    expect(lines[0]).toMatch(/"colour" is not an option/);
    expect(message).toMatch(/also outputDir: a folder path, not ""/);
    expect(message).toMatch(/also passOn: a non-empty list of verdicts/);
    expect(message).toMatch(/also reporter: true or false, not "yes"/);
    expect(message).toMatch(/also progress: false, or \{ intervalMs \}/);
    expect(() => riddle('riddle-report' as never)).toThrow(/takes an object of options/);
    expect(() => riddle({ passOn: ['PASS'], progress: { intervalMs: 100 }, reporter: true })).not.toThrow();
  });
});
