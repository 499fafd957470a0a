import { mkdir, readdir, readFile, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { AttemptRecording, canonicalJson, fingerprint, type RecordedExchange } from '../../model/index.js';

/** Lower-case words joined by dashes: a trial, file or arm name made safe for a folder. */
export function slug(name: string): string {
  return (
    name
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-+|-+$/g, '')
      .slice(0, 80) || 'unnamed'
  );
}

/** Where one attempt's recording lives: `<trial folder>/<arm>/attempt-<index>.json`. */
export function recordingPath(folder: string, arm: string, attempt: number): string {
  return path.join(folder, slug(arm), `attempt-${attempt}.json`);
}

/** Read one attempt's recording; null when there is none. A malformed file is a mistake to fix, so it throws. */
export async function readRecording(folder: string, arm: string, attempt: number): Promise<AttemptRecording | null> {
  const file = recordingPath(folder, arm, attempt);
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
  const parsed = AttemptRecording.safeParse(JSON.parse(text));
  if (!parsed.success) {
    throw new Error(`recording ${file} is not a riddle recording: ${parsed.error.issues[0]?.message ?? 'invalid'}`);
  }
  return parsed.data;
}

/** Write one attempt's recording atomically, as stable, reviewable JSON (it is meant to be committed). */
export async function writeRecording(folder: string, recording: AttemptRecording): Promise<void> {
  const file = recordingPath(folder, recording.arm, recording.attempt);
  await mkdir(path.dirname(file), { recursive: true });
  const temporary = `${file}.${process.pid}.tmp`;
  await writeFile(temporary, `${JSON.stringify(JSON.parse(canonicalJson(recording)), null, 2)}\n`);
  await rename(temporary, file);
}

async function listFiles(folder: string): Promise<string[]> {
  let entries;
  try {
    entries = await readdir(folder, { withFileTypes: true, recursive: true });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
  return entries
    .filter((e) => e.isFile() && e.name.endsWith('.json'))
    .map((e) => path.relative(folder, path.join(e.parentPath, e.name)).split(path.sep).join('/'))
    .sort();
}

/**
 * Fingerprint of a trial's recordings (each file's path and content as data), so new recordings give a new
 * Environment and so a new Outcome; null when the folder holds none.
 */
export async function recordingsFingerprint(folder: string): Promise<{ fingerprint: string; files: number } | null> {
  const files = await listFiles(folder);
  if (files.length === 0) return null;
  const contents = await Promise.all(
    files.map(async (file) => [file, JSON.parse(await readFile(path.join(folder, file), 'utf8'))] as const),
  );
  return { fingerprint: fingerprint(contents), files: files.length };
}

/** The attempt indices of an arm that have a recording, in order. */
export async function recordedAttempts(folder: string, arm: string): Promise<number[]> {
  let names: string[];
  try {
    names = await readdir(path.join(folder, slug(arm)));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
  return names
    .map((name) => /^attempt-(\d+)\.json$/.exec(name)?.[1])
    .filter((index): index is string => index !== undefined)
    .map(Number)
    .sort((a, b) => a - b);
}

/** The exchanges of a recording by fingerprint and occurrence, for replay. */
export function indexExchanges(recording: AttemptRecording | null): Map<string, RecordedExchange> {
  return new Map((recording?.exchanges ?? []).map((e) => [`${e.fingerprint}#${e.occurrence}`, e]));
}
