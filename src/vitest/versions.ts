import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);

/** Versions recorded in every Environment and run index. */
export function harnessVersions(): { riddle: string; vitest: string } {
  const riddle = (require('../../package.json') as { version: string }).version;
  const vitest = (require('vitest/package.json') as { version: string }).version;
  return { riddle, vitest };
}
