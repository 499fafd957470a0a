import { COMPARISON_SCHEMA, FINDINGS_SCHEMA, RECORD_SCHEMAS } from '../model/index.js';

/** The subcommands of `riddle`, each with its usage text (printed by `riddle <command> --help`). */
export const COMMAND_USAGE = {
  read: `usage: riddle read <outcome.json | run folder | index.json>

  Validate a run's records (migrating older versions) and print its summary. Given a report folder, read its latest
  complete run, list its earlier incomplete runs and warn of earlier runs whose index cannot be read.
  exit 0 when every trial's test passes or skips and the run read is complete, 1 when one fails or the run read is
  incomplete (interrupted, a declared trial without an Outcome, one cut short), 2 when its records cannot be read.
  Earlier runs listed beside the latest do not change the exit code.`,
  diff: `usage: riddle diff <runA> <runB> [--json | --markdown] [--out comparison.json]
       riddle diff <comparison.json> [--json | --markdown]

  Pair two runs' Outcomes by trial and case: verdict changes, paired differences with intervals, McNemar.
  Given one stored comparison record (any version, migrated), print it again.
  --json        print the ${COMPARISON_SCHEMA} record       --markdown   print Markdown
  --out FILE    also write the comparison record to FILE
  exit 0 when every trial pairs and no verdict changed, 1 when one did, 2 when a run cannot be read.`,
  rejudge: `usage: riddle rejudge <run folder | index.json | outcome.json> --evaluators <module.js> [--rubric rubric.json] [--out dir]

  Re-judge retained Observations with other evaluators (and optionally another Rubric), without running the
  subject again; the new Outcomes go into a new run under --out (default riddle-report), the old are untouched.
  The module default-exports { evaluators, rubric?, expect?, claims? }.
  exit 0 when every new Outcome's test passes or skips, 1 when one fails, 2 on a usage or input error.`,
  calibrate: `usage: riddle calibrate --evaluator <module.js> [--controls controls.json] [--floor 0.8] [--alpha 0.05] [--out file]

  Run an evaluator on labelled controls: sensitivity and specificity with exact bounds, raw agreement, Cohen's κ,
  Gwet's AC1, Krippendorff's α; writes the calibration file to reference from the judge's \`calibration\` option.
  The module default-exports { evaluator, rubric, controls?, floor?, expect? }.
  exit 0 when the evaluator is trusted for every criterion, 1 when not, 2 on a usage or input error.`,
  stopping: `usage: riddle stopping --explain --rule <fixed|curtail|sprt|confidence-sequence> [--n 44] [--threshold 0.8]
                       [--alpha 0.05] [--p0 0.65 --p1 0.92 --beta 0.05]

  A stopping rule in plain words and its exact operating characteristics: P(PASS), P(FAIL), P(inconclusive) and the
  expected number of attempts over a grid of true pass rates.
  exit 0, or 2 on a usage error.`,
  findings: `usage: riddle findings <run folder | index.json | findings.json | outcome.json> [--owner NAME] [--format text|json|md]

  The findings a run returns to their owners, grouped by owner (a composition's owning team, else subject,
  harness, evaluator or environment), each with its stable id, severity, and the attempts and evidence it rests on.
  --owner NAME  only the findings returning to NAME     --format   text (default), json (${FINDINGS_SCHEMA}), md
  exit 0 when no listed finding is an error, 1 when one is, 2 on a usage or input error.`,
  schema: `usage: riddle schema <${Object.keys(RECORD_SCHEMAS).join('|')}>

  Print a record's JSON Schema (the same files ship in the package under schema/).
  exit 0, or 2 on an unknown record name.`,
} as const;

export type CommandName = keyof typeof COMMAND_USAGE;

export const isCommand = (name: string): name is CommandName => Object.hasOwn(COMMAND_USAGE, name);

/** A mistake in how riddle was called: main.ts prints the message and the command's usage, never a stack trace. */
export class UsageError extends Error {
  constructor(
    readonly command: CommandName | null,
    message: string,
  ) {
    super(message);
  }
}

/** `riddle --help`: every command in a line, the global flags and the exit codes. */
export function overallUsage(): string {
  const first = (text: string) => text.split('\n')[0]?.replace(/^usage: /, '  ') ?? '';
  return `riddle — read and work with trial Outcomes

${Object.values(COMMAND_USAGE).map(first).join('\n')}

  riddle <command> --help   a command's options       riddle --version   the installed version

exit codes: 0 success; 1 the result is negative (a trial fails, a verdict changed, an evaluator is not trusted);
2 a usage error or input that cannot be read (the message says what to fix).
`;
}
