import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import { repoRoot, tempDir } from './support.js';

describe('attempt lines gathered between turns of the event loop', () => {
  it('are written when the process exits before the next turn (a subject calling process.exit)', async () => {
    const folder = tempDir('stream-exit');
    const file = path.join(folder, 'trial.attempts.jsonl');
    const script = path.join(folder, 'exits.mjs');
    // Forty attempts added in one synchronous run, then the process exits: no turn of the event loop comes between.
    writeFileSync(
      script,
      `import { AttemptStream } from ${JSON.stringify(pathToFileURL(path.join(repoRoot, 'dist', 'run', 'index.js')).href)};
const stream = new AttemptStream(${JSON.stringify(file)});
for (let i = 0; i < 40; i += 1)
  stream.add({ arm: 'case', index: i, sequence: i, seed: i, status: 'completed', verdict: 'PASS', why: { kind: 'passed', declared: 1 },
    reason: 'attempt ' + i, startedAt: '2026-12-01T00:00:00.000Z', durationMs: 0, sandbox: null, observation: null,
    findings: [], criteria: [], claims: [], error: null, pressure: null });
process.exit(3);
`,
    );
    const run = await execa(process.execPath, [script], { reject: false });
    expect(run.exitCode, run.stderr).toBe(3);
    const lines = readFileSync(file, 'utf8').split('\n');
    expect(lines.pop()).toBe('');
    expect(lines.map((line) => JSON.parse(line).reason)).toEqual(Array.from({ length: 40 }, (_, i) => `attempt ${i}`));
  }, 60_000);
});
