import { VERDICTS } from '../model/vocabulary.js';
import { didYouMean } from '../model/suggest.js';

/** The options `riddle({ … })` takes (RiddlePluginOptions), in the order the error lists them. */
const OPTIONS = ['outputDir', 'passOn', 'reporter', 'progress', 'runBudget'] as const;

const describe = (value: unknown) =>
  value === null
    ? 'null'
    : Array.isArray(value)
      ? 'a list'
      : typeof value === 'string'
        ? JSON.stringify(value)
        : typeof value;

/** Whether `word` is `option` with letters left out (`outDir` for `outputDir`, as Vite's own option is named). */
function shortFor(word: string, option: string): boolean {
  if (word.length < 3) return false;
  let at = 0;
  for (const letter of option.toLowerCase()) if (letter === word[at]?.toLowerCase()) at += 1;
  return at === word.length;
}

/** Whether `value` is `{ intervalMs? }` with a positive number of milliseconds, and nothing else. */
function isProgressOptions(value: unknown): boolean {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const { intervalMs, ...rest } = value as Record<string, unknown>;
  const positive = typeof intervalMs === 'number' && Number.isFinite(intervalMs) && intervalMs > 0;
  return Object.keys(rest).length === 0 && (intervalMs === undefined || positive);
}

/**
 * Problems with the options given to the riddle plugin, each naming the option and what to write instead: a misspelt
 * option or a verdict in the wrong case was ignored, and the run went on without it (reports in another folder, a
 * project-wide passOn no trial used). `runBudget` is checked by its own resolver.
 */
export function pluginOptionProblems(options: unknown): string[] {
  if (options === undefined) return [];
  if (typeof options !== 'object' || options === null || Array.isArray(options))
    return [`takes an object of options (${OPTIONS.join(', ')}), not ${describe(options)}`];
  const problems: string[] = [];
  for (const key of Object.keys(options)) {
    if ((OPTIONS as readonly string[]).includes(key)) continue;
    const guess = didYouMean(key, OPTIONS) ?? OPTIONS.find((option) => shortFor(key, option)) ?? null;
    problems.push(
      `"${key}" is not an option${guess ? `; did you mean "${guess}"?` : ''} (options: ${OPTIONS.join(', ')})`,
    );
  }
  const given = options as Record<string, unknown>;
  const { outputDir, passOn, reporter, progress } = given;
  if (outputDir !== undefined && (typeof outputDir !== 'string' || outputDir.trim() === ''))
    problems.push(`outputDir: a folder path, not ${describe(outputDir)}`);
  if (passOn !== undefined) {
    if (!Array.isArray(passOn) || passOn.length === 0)
      problems.push(`passOn: a non-empty list of verdicts (${VERDICTS.join(', ')}), not ${describe(passOn)}`);
    else
      for (const [i, verdict] of passOn.entries()) {
        if (passOn.indexOf(verdict) < i) {
          problems.push(`passOn[${i}]: lists ${describe(verdict)} twice: list each verdict once`);
          continue;
        }
        if ((VERDICTS as readonly unknown[]).includes(verdict)) continue;
        const guess = typeof verdict === 'string' ? didYouMean(verdict, VERDICTS) : null;
        problems.push(
          `passOn[${i}]: ${describe(verdict)} is not a verdict${guess ? `; did you mean "${guess}"?` : ''} (verdicts: ${VERDICTS.join(', ')})`,
        );
      }
  }
  if (reporter !== undefined && typeof reporter !== 'boolean')
    problems.push(`reporter: true or false, not ${describe(reporter)}`);
  if (progress !== undefined && progress !== false && !isProgressOptions(progress))
    problems.push(
      `progress: false, or { intervalMs } with a number of milliseconds above 0, not ${describe(progress)}`,
    );
  return problems;
}

/** Throw the problems of the plugin's options as one error, naming where they are written. */
export function checkPluginOptions(options: unknown): void {
  const [first, ...more] = pluginOptionProblems(options);
  if (first === undefined) return;
  throw new Error(
    `riddle({ … }) in the Vitest config: ${first}${more.map((problem) => `\n  also ${problem}`).join('')}`,
  );
}
