import { builtinModules } from 'node:module';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import { readLatestRun, repoRoot, runVitest, tempDir } from './support.js';

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

function* jsFiles(dir: string): Generator<string> {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) yield* jsFiles(full);
    else if (entry.name.endsWith('.js')) yield full;
  }
}

/** The package a bare specifier names: `@scope/name/sub` → `@scope/name`, `name/sub` → `name`. */
const packageOf = (specifier: string) =>
  specifier
    .split('/')
    .slice(0, specifier.startsWith('@') ? 2 : 1)
    .join('/');

describe('the published package', async () => {
  const work = tempDir('pack');
  const packed = await execa('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', work], {
    cwd: repoRoot,
  });
  const [info] = JSON.parse(packed.stdout) as { filename: string; files: { path: string }[] }[];
  // The user project sits under the repository so that Vitest itself (a peer) resolves to the one installed copy;
  // riddle resolves from the project's own node_modules, holding exactly what the tarball ships.
  mkdirSync(path.join(repoRoot, '.packed'), { recursive: true });
  const project = mkdtempSync(path.join(repoRoot, '.packed', 'user-project-'));
  const installed = path.join(project, 'node_modules', 'riddle');
  mkdirSync(installed, { recursive: true });
  await execa('tar', ['-xzf', path.join(work, info!.filename), '-C', installed, '--strip-components=1']);

  it('ships the build, the JSON Schemas and the CLI, and no sources or tests', () => {
    const files = info!.files.map((f) => f.path);
    expect(files).toContain('dist/vitest/reporter-entry.js');
    expect(files).toContain('dist/cli/main.js');
    expect(files).toContain('schema/outcome.json');
    expect(files).toContain('dist/vitest/index.d.ts');
    // Bundled (scripts/bundle.mjs): the entry points and their shared chunks are all the JavaScript a user's Node loads.
    const javascript = files.filter((f) => f.endsWith('.js'));
    expect(javascript.filter((f) => !f.startsWith('dist/chunks/')).sort()).toEqual([
      'dist/cli/main.js',
      'dist/core.js',
      'dist/vitest/index.js',
      'dist/vitest/plugin.js',
      'dist/vitest/reporter-entry.js',
    ]);
    expect(javascript.length).toBeLessThan(20);
    expect(files.some((f) => f.startsWith('src/') || f.startsWith('test/') || f.startsWith('fixtures/'))).toBe(false);
  });

  it('declares every package its build imports', () => {
    const manifest = JSON.parse(readFileSync(path.join(installed, 'package.json'), 'utf8')) as Record<
      string,
      Record<string, string> | undefined
    >;
    const declared = new Set([
      ...Object.keys(manifest.dependencies ?? {}),
      ...Object.keys(manifest.peerDependencies ?? {}),
    ]);
    const undeclared = new Set<string>();
    for (const file of jsFiles(path.join(installed, 'dist'))) {
      const text = readFileSync(file, 'utf8');
      for (const match of text.matchAll(/(?:from\s+|import\()\s*['"]([^'"./][^'"]*)['"]/g)) {
        const name = packageOf(match[1]!);
        if (name.startsWith('node:') || builtinModules.includes(name) || name === 'riddle') continue;
        if (!declared.has(name)) undeclared.add(`${name} (${path.relative(installed, file)})`);
      }
    }
    expect([...undeclared]).toEqual([]);
  });

  it("bundles zod with its licence, and reads a user's zod schemas as the user's zod wrote them", async () => {
    const files = info!.files.map((f) => f.path);
    expect(files).toContain('dist/THIRD-PARTY-LICENSES.md');
    const notices = readFileSync(path.join(installed, 'dist', 'THIRD-PARTY-LICENSES.md'), 'utf8');
    const zodVersion = JSON.parse(readFileSync(path.join(repoRoot, 'node_modules', 'zod', 'package.json'), 'utf8'))
      .version as string;
    expect(notices).toContain(`## zod ${zodVersion} (MIT)`);
    expect(notices).toContain(readFileSync(path.join(repoRoot, 'node_modules', 'zod', 'LICENSE'), 'utf8').trim());
    // No chunk loads zod at run time: a worker loads the parts riddle uses, bundled, rather than zod's hundred modules.
    for (const file of jsFiles(path.join(installed, 'dist')))
      expect(readFileSync(file, 'utf8'), path.relative(installed, file)).not.toMatch(/(from\s+|import\()\s*['"]zod/);
    // A schema of the user's own zod (the project's copy), with a description and metadata, is read through riddle's
    // copy as the user's describes it: zod keeps its registry of metadata on globalThis, shared by every copy.
    const script = path.join(project, 'composition-schema.mjs');
    writeFileSync(
      script,
      [
        "import { z } from 'zod';",
        "import { composition } from 'riddle/core';",
        "const input = z.object({ path: z.string().describe('the file to delete') }).meta({ title: 'Deletion' });",
        "const made = composition({ name: 'deleter', owner: 'files', version: '1', input, output: z.boolean(), run: () => true });",
        "const { $schema, ...own } = z.toJSONSchema(input, { target: 'draft-2020-12', io: 'input', unrepresentable: 'any' });",
        'console.log(JSON.stringify({ riddles: made.record.input, own }));',
      ].join('\n'),
    );
    const printed = await execa(process.execPath, [script], { cwd: project });
    const { riddles, own } = JSON.parse(printed.stdout) as { riddles: unknown; own: unknown };
    expect(riddles).toEqual(own);
    expect(riddles).toMatchObject({ title: 'Deletion', properties: { path: { description: 'the file to delete' } } });
  });

  it('runs trials in a user project with --reporter=riddle and no riddle configuration', async () => {
    mkdirSync(path.join(project, 'trials'), { recursive: true });
    writeFileSync(
      path.join(project, 'package.json'),
      JSON.stringify({ name: 'user-project', private: true, type: 'module' }),
    );
    writeFileSync(path.join(project, 'trials', 'echo.test.ts'), trialFile);
    // An empty config only stops Vitest from finding the repository's own config further up; riddle needs none.
    writeFileSync(path.join(project, 'vitest.config.mjs'), 'export default {};\n');
    const reportDir = tempDir('packed-report');
    const run = await runVitest(project, ['--reporter=riddle', `--outputFile.riddle=${reportDir}`]);
    expect(run.output).toContain(' riddle ');
    expect(run.exitCode).toBe(0);
    const { outcomes } = readLatestRun(reportDir);
    expect(outcomes[0]?.judgment.verdict).toBe('PASS');
    expect(outcomes[0]?.records.environment.harness.riddle).toBe(
      JSON.parse(readFileSync(path.join(installed, 'package.json'), 'utf8')).version,
    );
    expect(existsSync(path.join(installed, 'dist', 'vitest', 'index.js'))).toBe(true);
  });

  it('serves the riddle command from the package', async () => {
    const schema = await execa(process.execPath, [path.join(installed, 'dist', 'cli', 'main.js'), 'schema', 'outcome']);
    expect(JSON.parse(schema.stdout).title).toBe('riddle.outcome/5');
  });
});
