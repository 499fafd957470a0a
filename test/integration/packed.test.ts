import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import { readLatestRun, repoRoot, tempDir } from './support.js';

const trialFile = `import { expect } from 'vitest';
import { trial } from 'riddle/trial';

trial('echo answers', {
  subject: (input) => \`answer: \${String(input)}\`,
  revision: 'echo@1',
  rubric: { criteria: { answers: { description: 'replies with an answer', needs: 'text' } } },
  checks: { answers: (observation) => { expect(String(observation.reply)).toMatch(/^answer:/); } },
  case: { input: 'ping', expect: ['answers'] },
  repeat: { n: 14 },
});
`;

describe('the published package', () => {
  it('installs from its tarball into a fresh project and runs trials with --reporter=riddle', async () => {
    const work = tempDir('packed');
    const packed = await execa('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', work], { cwd: repoRoot });
    const tarball = path.join(work, (JSON.parse(packed.stdout) as { filename: string }[])[0]!.filename);
    const files = (JSON.parse(packed.stdout) as { files: { path: string }[] }[])[0]!.files.map((f) => f.path);
    expect(files).toContain('dist/vitest/reporter-entry.js');
    expect(files).toContain('schema/outcome.json');
    expect(files.some((f) => f.startsWith('src/') || f.startsWith('test/'))).toBe(false);

    const project = path.join(work, 'user-project');
    mkdirSync(path.join(project, 'trials'), { recursive: true });
    writeFileSync(path.join(project, 'package.json'), JSON.stringify({ name: 'user-project', private: true, type: 'module' }));
    writeFileSync(path.join(project, 'trials', 'echo.test.ts'), trialFile);
    // Offline: everything comes from the npm cache the repository's own install filled.
    await execa('npm', ['install', '--offline', '--no-audit', '--no-fund', '--ignore-scripts', '-D', tarball, 'vitest@4.1.12'], { cwd: project });
    expect(existsSync(path.join(project, 'node_modules', 'riddle', 'dist', 'vitest', 'trial.js'))).toBe(true);

    const run = await execa(path.join(project, 'node_modules', '.bin', 'vitest'), ['run', '--reporter=riddle'], {
      cwd: project,
      reject: false,
      all: true,
      env: { NO_COLOR: '1', CI: '1' },
    });
    expect(run.all).toContain(' riddle ');
    expect(run.exitCode).toBe(0);
    const { outcomes } = readLatestRun(path.join(project, 'riddle-report'));
    expect(outcomes[0]?.judgment.verdict).toBe('PASS');
    expect(JSON.parse(readFileSync(path.join(project, 'node_modules', 'riddle', 'package.json'), 'utf8')).name).toBe('riddle');
  });
});
