import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import { repoRoot, tempDir } from './support.js';

describe('attempts a small trial holds in memory', () => {
  it('are written to its attempts file when the process exits before the trial ends (a subject calling process.exit)', async () => {
    const folder = tempDir('held-exit');
    const file = path.join(folder, 'streaming', 'trial.attempts.jsonl');
    const script = path.join(folder, 'exits.mjs');
    // Three attempts held (fewer than a small trial keeps, well within its second), then the process exits.
    writeFileSync(
      script,
      `import { AttemptStream, HeldAttempts } from ${JSON.stringify(pathToFileURL(path.join(repoRoot, 'dist', 'run', 'index.js')).href)};
const held = new HeldAttempts(() => new AttemptStream(${JSON.stringify(file)}));
for (let i = 0; i < 3; i += 1)
  held.add({ arm: 'case', index: i, sequence: i, seed: i, status: 'completed', verdict: 'PASS', why: { kind: 'passed', declared: 1 },
    reason: 'attempt ' + i, startedAt: '2026-12-01T00:00:00.000Z', durationMs: 0, sandbox: null, observation: null,
    findings: [], criteria: [], claims: [], error: null, pressure: null });
process.exit(3);
`,
    );
    const run = await execa(process.execPath, [script], { reject: false });
    expect(run.exitCode, run.stderr).toBe(3);
    const lines = readFileSync(file, 'utf8').split('\n');
    expect(lines.pop()).toBe('');
    expect(lines.map((line) => JSON.parse(line).reason)).toEqual(['attempt 0', 'attempt 1', 'attempt 2']);
  }, 60_000);
});
