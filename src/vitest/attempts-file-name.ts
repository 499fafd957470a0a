import { fileNameSlug } from '../report/file-name-slug.js';

/**
 * The start of a trial's attempts file name in the run's streaming folder: its name made safe, then a random part and
 * `.attempts.jsonl` (vitest/attempt-stream-host). The reporter tells by it which missing trial a file left there is of.
 */
export function attemptsFileSlug(trial: string): string {
  return fileNameSlug(trial, 40);
}

/** Whether `name` is an attempts file name made for a trial of slug `slug`. */
export function isAttemptsFileOf(name: string, slug: string): boolean {
  return name.startsWith(`${slug}-`) && /^[0-9a-f]{12}\.attempts\.jsonl$/.test(name.slice(slug.length + 1));
}
