#!/usr/bin/env node
import { RecordError, recordJsonSchema, RECORD_SCHEMAS, type RecordName } from '../model/index.js';
import { renderTerminal } from '../report/index.js';
import { diffCommand } from './diff.js';
import { loadRun } from './read-records.js';
import { calibrateCommand } from './calibrate.js';
import { rejudgeCommand } from './rejudge.js';
import { stoppingCommand } from './stopping.js';

const USAGE = `riddle — read and work with trial Outcomes

  riddle read <outcome.json | run folder | index.json>   validate and summarise Outcomes
  riddle diff <runA> <runB> [--json | --markdown] [--out comparison.json]   compare two runs trial by trial
  riddle rejudge <run> --evaluators <module.js> [--rubric rubric.json] [--out dir]   re-judge retained evidence
  riddle calibrate --evaluator <module.js> [--controls controls.json] [--floor 0.8] [--out calibration.json]
                  run an evaluator on labelled controls: sensitivity, specificity, agreement
  riddle schema <${Object.keys(RECORD_SCHEMAS).join('|')}>  print a record's JSON Schema
  riddle stopping --explain --rule <fixed|curtail|sprt|confidence-sequence> [--n 20] [--threshold 0.8]
                  [--alpha 0.05] [--p0 0.65 --p1 0.92 --beta 0.05]   a stopping rule's operating characteristics
`;

async function main(argv: readonly string[]): Promise<number> {
  const [command, ...rest] = argv;
  switch (command) {
    case 'read': {
      const target = rest[0];
      if (!target) throw new UsageError('riddle read needs a file or folder');
      const run = loadRun(target);
      process.stdout.write(`${renderTerminal(run.outcomes, run.index?.missing ?? [])}\n`);
      return run.outcomes.every((o) => o.judgment.testOutcome !== 'fail') ? 0 : 1;
    }
    case 'schema': {
      const name = rest[0];
      if (!name || !(name in RECORD_SCHEMAS))
        throw new UsageError(`riddle schema needs one of: ${Object.keys(RECORD_SCHEMAS).join(', ')}`);
      process.stdout.write(`${JSON.stringify(recordJsonSchema(name as RecordName), null, 2)}\n`);
      return 0;
    }
    case 'stopping':
      return stoppingCommand(rest);
    case 'rejudge':
      return rejudgeCommand(rest);
    case 'calibrate':
      return calibrateCommand(rest);
    case 'diff':
      return diffCommand(rest);
    case undefined:
    case 'help':
    case '--help':
      process.stdout.write(USAGE);
      return command === undefined ? 2 : 0;
    default:
      throw new UsageError(`unknown command "${command}"`);
  }
}

class UsageError extends Error {}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    if (error instanceof UsageError) process.stderr.write(`riddle: ${error.message}\n\n${USAGE}`);
    else if (error instanceof RecordError) process.stderr.write(`riddle: ${error.message}\n`);
    else process.stderr.write(`riddle: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exitCode = 2;
  },
);
