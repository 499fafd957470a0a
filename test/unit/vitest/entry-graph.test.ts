import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const src = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../src');

/** Every module a source file reaches through static and dynamic imports, with the packages it names. */
function reach(entry: string): { modules: Set<string>; packages: Set<string> } {
  const modules = new Set<string>();
  const packages = new Set<string>();
  const visit = (file: string) => {
    if (modules.has(file)) return;
    modules.add(file);
    const text = readFileSync(file, 'utf8');
    for (const match of text.matchAll(
      /(?:^|\n)\s*(?:import|export)\s(?!type\b)[^;]*?from\s+['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/g,
    )) {
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

  it('riddle/core reaches no Vitest at all', () => {
    const { packages } = reach(path.join(src, 'core.ts'));
    expect([...packages].filter((p) => p === 'vitest' || p.startsWith('vitest/') || p === 'vite')).toEqual([]);
  });
});
