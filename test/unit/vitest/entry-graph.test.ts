import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const src = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../src');

/**
 * Every module a source file reaches with the packages it names: through static and dynamic imports, or, with
 * `loadedAtImport`, through static imports only (what importing it loads, not what an `import()` loads at use).
 */
function reach(entry: string, { loadedAtImport = false } = {}): { modules: Set<string>; packages: Set<string> } {
  const modules = new Set<string>();
  const packages = new Set<string>();
  const statics = /(?:^|\n)\s*(?:import|export)\s(?!type\b)[^;]*?from\s+['"]([^'"]+)['"]/;
  const imports = new RegExp(
    loadedAtImport ? statics.source : `${statics.source}|import\\(\\s*['"]([^'"]+)['"]\\s*\\)`,
    'g',
  );
  const visit = (file: string) => {
    if (modules.has(file)) return;
    modules.add(file);
    const text = readFileSync(file, 'utf8');
    for (const match of text.matchAll(imports)) {
      const specifier = match[1] ?? match[2] ?? '';
      if (specifier.startsWith('.')) visit(path.resolve(path.dirname(file), specifier.replace(/\.js$/, '.ts')));
      else packages.add(specifier);
    }
  };
  visit(entry);
  return { modules, packages };
}

describe('what test files load', () => {
  it('riddle/trial (what test files import) never reaches the reporter or Vitest’s Node-side API', () => {
    const { modules, packages } = reach(path.join(src, 'vitest', 'index.ts'));
    expect([...modules].map((m) => path.relative(src, m))).not.toContain(path.join('vitest', 'reporter.ts'));
    expect([...packages].filter((p) => p.startsWith('vitest/') || p === 'vite')).toEqual([]);
  });

  it('the reporter entry (what --reporter=riddle imports) is the one that does', () => {
    const { modules, packages } = reach(path.join(src, 'vitest', 'reporter-entry.ts'));
    expect([...modules].map((m) => path.relative(src, m))).toContain(path.join('vitest', 'reporter.ts'));
    expect(packages).toContain('vitest/node');
  });

  it('the main process (reporter entry and plugin) never loads the scheduler or the subjects, only what it uses', () => {
    for (const entry of ['reporter-entry.ts', 'plugin.ts']) {
      const reached = [...reach(path.join(src, 'vitest', entry)).modules].map((m) => path.relative(src, m));
      for (const worker of [
        path.join('run', 'run-trial.ts'),
        path.join('observe', 'attempt.ts'),
        path.join('run', 'index.ts'),
      ])
        expect(reached, `${entry} reaches ${worker}`).not.toContain(worker);
    }
  });

  it('a test worker loads neither the MCP SDK, execa nor undici until an attempt serves tools over MCP or has providers', () => {
    const packages = [...reach(path.join(src, 'vitest', 'index.ts'), { loadedAtImport: true }).packages];
    expect(packages.filter((p) => p.startsWith('@modelcontextprotocol/') || p === 'execa' || p === 'undici')).toEqual(
      [],
    );
    // What it does load, so the walk is known to reach the observe layer; and they are reached through import().
    expect(packages).toContain('zod');
    const reachedLater = [...reach(path.join(src, 'vitest', 'index.ts')).packages];
    expect(reachedLater).toContain('undici');
    expect(reachedLater.filter((p) => p.startsWith('@modelcontextprotocol/')).length).toBeGreaterThan(0);
    // Commands are started with child_process: execa is not a dependency of the package at all.
    expect(reachedLater).not.toContain('execa');
  });

  it('riddle/core reaches no Vitest at all', () => {
    const { packages } = reach(path.join(src, 'core.ts'));
    expect([...packages].filter((p) => p === 'vitest' || p.startsWith('vitest/') || p === 'vite')).toEqual([]);
  });
});
