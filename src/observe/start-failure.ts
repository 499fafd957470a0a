import { statSync } from 'node:fs';
import path from 'node:path';
import { stripVTControlCharacters } from 'node:util';

// The words riddle has always recorded when a command cannot start, composed as execa 9 composed them (its
// `shortMessage`), so a stored attempt reads the same whether riddle spawns through execa or child_process; its
// lines are joined into one.

/** Control characters, separators and the like, escaped when a command or message is shown (execa's rule). */
const SPECIAL = /\p{Separator}|\p{Other}/gu;
const COMMON_ESCAPES: Readonly<Record<string, string>> = {
  ' ': ' ',
  '\b': '\\b',
  '\f': '\\f',
  '\n': '\\n',
  '\r': '\\r',
  '\t': '\\t',
};
const ASTRAL_START = 0xffff;
const NO_ESCAPE = /^[\w./-]+$/;

function escapeControl(text: string): string {
  return text.replace(SPECIAL, (character) => {
    const common = COMMON_ESCAPES[character];
    if (common !== undefined) return common;
    const codepoint = character.codePointAt(0) ?? 0;
    const hex = codepoint.toString(16);
    return codepoint <= ASTRAL_START ? `\\u${hex.padStart(4, '0')}` : `\\U${hex}`;
  });
}

const quote = (word: string) => (NO_ESCAPE.test(word) ? word : `'${word.replaceAll("'", "'\\''")}'`);

const escapeLines = (text: string) => stripVTControlCharacters(text).split('\n').map(escapeControl).join('\n');

/** The command line as shown: each word escaped and quoted for a POSIX shell. */
export function shownCommand(command: string, args: readonly string[]): string {
  return [command, ...args].map((word) => quote(escapeControl(word))).join(' ');
}

/** A spawn error about a missing or unusable working folder says so first. */
function withCwd(text: string, cwd: string): string {
  const folder = path.resolve(cwd);
  if (folder === process.cwd()) return text;
  try {
    if (!statSync(folder).isDirectory()) return `The "cwd" option is not a directory: ${folder}.\n${text}`;
  } catch (error) {
    return `The "cwd" option is invalid: ${folder}.\n${(error as Error).message}\n${text}`;
  }
  return text;
}

/** What EACCES means for a command given by its path: a folder, or a file without execute permission. */
function notRunnable(command: string, cwd: string): string | null {
  if (!command.includes('/')) return null;
  try {
    return statSync(path.resolve(cwd, command)).isDirectory() ? 'it is a folder' : 'it is not executable';
  } catch {
    return null;
  }
}

/**
 * Why `command` could not be started in `cwd`, from the error Node's spawn gave, on one line (a finding's layout holds
 * one): execa's words, the lines of its message joined, and what EACCES means where it can be told.
 */
export function startFailureMessage(command: string, args: readonly string[], cwd: string, error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code;
  const prefix = code === undefined ? 'Command failed' : `Command failed with ${String(code)}`;
  const original = escapeLines(withCwd(String((error as { message?: unknown } | null)?.message ?? error), cwd));
  const reason = code === 'EACCES' ? notRunnable(command, cwd) : null;
  const said = [reason, ...original.split('\n')].filter((line) => line !== null && line !== '').join('; ');
  return `${prefix}: ${shownCommand(command, args)}${said === '' ? '' : `: ${said}`}`;
}

/** Arguments holding a NUL byte cannot reach a process: a mistake in what the round was given, thrown as before. */
export function checkArguments(args: readonly string[]): void {
  const bad = args.find((arg) => arg.includes('\0'));
  if (bad !== undefined) throw new TypeError(`Arguments cannot contain null bytes ("\\0"): ${bad}`);
}
