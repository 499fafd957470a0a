import { existsSync, mkdirSync, readFileSync, rmdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import { repoRoot, tempDir } from './support.js';

/**
 * Run `body` (given `AttemptStream`, `HeldAttempts`, `file` and `attempt(i)`, a passing record) in a Node process of
 * its own with the built package, then `process.exit(3)`: the reasons of the attempt lines left in `file`.
 */
async function linesAfterExit(body: string): Promise<string[]> {
  const folder = tempDir('exit-writes');
  const file = path.join(folder, 'streaming', 'trial.attempts.jsonl');
  const script = path.join(folder, 'exits.mjs');
  const run = pathToFileURL(path.join(repoRoot, 'build', 'modules', 'run', 'index.js')).href;
  writeFileSync(
    script,
    `import { AttemptStream, HeldAttempts } from ${JSON.stringify(run)};
const file = ${JSON.stringify(file)};
const attempt = (i) => ({ arm: 'case', index: i, sequence: i, seed: i, status: 'completed', verdict: 'PASS',
  why: { kind: 'passed', declared: 1 }, reason: 'attempt ' + i, startedAt: '2026-12-01T00:00:00.000Z', durationMs: 0,
  sandbox: null, observation: null, findings: [], criteria: [], claims: [], error: null, pressure: null });
${body}
process.exit(3);
`,
  );
  const exited = await execa(process.execPath, [script], { reject: false });
  expect(exited.exitCode, exited.stderr).toBe(3);
  const lines = readFileSync(file, 'utf8').split('\n');
  expect(lines.pop()).toBe('');
  return lines.map((line) => JSON.parse(line).reason);
}

const reasons = (n: number) => Array.from({ length: n }, (_, i) => `attempt ${i}`);

describe('attempts not yet written when the process exits (a subject calling process.exit)', () => {
  it('are written: lines a stream gathered since the event loop last turned', async () => {
    // Forty attempts added in one synchronous run, then the exit: no turn of the event loop comes between.
    const body = 'const stream = new AttemptStream(file);\nfor (let i = 0; i < 40; i += 1) stream.add(attempt(i));';
    expect(await linesAfterExit(body)).toEqual(reasons(40));
  }, 60_000);

  it('are written: attempts a small trial holds in memory, with the lines of a trial streaming before it', async () => {
    // A trial that streams (its lines still gathered), then a small one holding three (fewer than it keeps, within its
    // second): the held trial writes its stream at the exit after the earlier stream was written.
    const body = `const earlier = new AttemptStream(file + '.earlier');
earlier.add(attempt(0));
const held = new HeldAttempts(() => new AttemptStream(file));
for (let i = 0; i < 3; i += 1) held.add(attempt(i));`;
    expect(await linesAfterExit(body)).toEqual(reasons(3));
  }, 60_000);
});

describe('registrations not yet written when the process exits', () => {
  it('are written at the exit, keeping those an earlier process wrote, once the lock is free', async () => {
    const root = tempDir('exit-registrations');
    const script = path.join(root, 'registers.mjs');
    const run = pathToFileURL(path.join(repoRoot, 'build', 'modules', 'run', 'index.js')).href;
    writeFileSync(
      script,
      `import { checkRegistration, recordRegistration } from ${JSON.stringify(run)};
const root = ${JSON.stringify(root)};
const policy = { n: 5, order: 'interleaved', seed: 1, stop: { kind: 'fixed' }, threshold: { rate: 0.9, alpha: 0.05 },
  missingEvidence: 'unknown', aggregation: { disputed: 'both' } };
for (const id of ${JSON.stringify(['a', 'b', 'c'])})
  await recordRegistration(root, id, policy, checkRegistration(root, id, policy, false), 'outcome-' + id);
process.exit(3);
`,
    );
    // Run twice, the second with other trial ids' registrations already in the file: both kept.
    const exited = await execa(process.execPath, [script], { reject: false });
    expect(exited.exitCode, exited.stderr).toBe(3);
    writeFileSync(script, readFileSync(script, 'utf8').replace('["a","b","c"]', '["d"]'));
    // Another process holds the lock as the second exits: the exit waits for it, without an event loop.
    const lock = path.join(root, '.riddle', 'registrations.lock');
    mkdirSync(lock);
    const released = setTimeout(() => rmdirSync(lock), 300);
    const again = await execa(process.execPath, [script], { reject: false });
    clearTimeout(released);
    expect(existsSync(lock)).toBe(false);
    expect(again.exitCode, again.stderr).toBe(3);
    const written = JSON.parse(readFileSync(path.join(root, '.riddle', 'registrations.json'), 'utf8'));
    expect(Object.keys(written.trials)).toEqual(['a', 'b', 'c', 'd']);
    expect(written.trials.c.outcome).toBe('outcome-c');
  }, 60_000);
});
