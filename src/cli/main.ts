#!/usr/bin/env node
import { createRequire } from 'node:module';
import { parseArgs } from 'node:util';
import { RecordError, recordJsonSchema, RECORD_SCHEMAS, type RecordName } from '../model/index.js';
import { diffCommand } from './diff.js';
import { findingsCommand } from './findings.js';
import { readCommand } from './read.js';
import { calibrateCommand } from './calibrate.js';
import { rejudgeCommand } from './rejudge.js';
import { stoppingCommand } from './stopping.js';
import { COMMAND_USAGE, isCommand, overallUsage, UsageError, type CommandName } from './usage.js';

const version = () => (createRequire(import.meta.url)('../../package.json') as { version: string }).version;
const wantsHelp = (args: readonly string[]) => args.includes('--help') || args.includes('-h');

async function run(command: CommandName, rest: readonly string[]): Promise<number> {
  switch (command) {
    case 'read': {
      // Through parseArgs as the other commands, so an option riddle read lacks is named as one, not taken for a file.
      const [target, ...extra] = parseArgs({ args: [...rest], allowPositionals: true, options: {} }).positionals;
      if (!target) throw new UsageError(command, 'needs an Outcome file, a run folder or an index.json');
      if (extra.length > 0) throw new UsageError(command, `takes one file or folder, got also ${extra.join(' ')}`);
      return readCommand(target);
    }
    case 'schema': {
      const name = rest[0];
      if (!name || !(name in RECORD_SCHEMAS))
        throw new UsageError(command, `needs one of: ${Object.keys(RECORD_SCHEMAS).join(', ')}`);
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
      return diffCommand([...rest]);
    case 'findings':
      return findingsCommand(rest);
    default:
      return command satisfies never;
  }
}

async function main(argv: readonly string[]): Promise<number> {
  const [command, ...rest] = argv;
  if (command === undefined) {
    process.stderr.write(overallUsage());
    return 2;
  }
  if (command === '--version' || command === '-v' || command === '-V') {
    process.stdout.write(`${version()}\n`);
    return 0;
  }
  if (command === '--help' || command === '-h' || command === 'help') {
    const topic = rest[0];
    process.stdout.write(topic && isCommand(topic) ? `${COMMAND_USAGE[topic]}\n` : overallUsage());
    return 0;
  }
  if (!isCommand(command)) throw new UsageError(null, `unknown command "${command}"`);
  if (wantsHelp(rest)) {
    process.stdout.write(`${COMMAND_USAGE[command]}\n`);
    return 0;
  }
  try {
    return await run(command, rest);
  } catch (error) {
    // node:util parseArgs reports unknown or malformed options with ERR_PARSE_ARGS_* codes: a usage error.
    const code = (error as { code?: unknown } | null)?.code;
    if (typeof code === 'string' && code.startsWith('ERR_PARSE_ARGS'))
      throw new UsageError(command, (error as Error).message);
    throw error;
  }
}

// `riddle schema outcome | head`: the reader went away; stop quietly instead of failing on the broken pipe.
for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code === 'EPIPE') process.exit(process.exitCode ?? 0);
    throw error;
  });
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    if (error instanceof UsageError) {
      const usage = error.command ? COMMAND_USAGE[error.command] : overallUsage();
      process.stderr.write(`riddle${error.command ? ` ${error.command}` : ''}: ${error.message}\n\n${usage}\n`);
    } else {
      // A configuration mistake says what to fix in its message; the stack is for riddle's developers.
      const debug = process.env.RIDDLE_DEBUG === '1' && error instanceof Error && !(error instanceof RecordError);
      const text = error instanceof Error ? (debug ? (error.stack ?? error.message) : error.message) : String(error);
      process.stderr.write(`${text.startsWith('riddle') ? '' : 'riddle: '}${text}\n`);
    }
    process.exitCode = 2;
  },
);
