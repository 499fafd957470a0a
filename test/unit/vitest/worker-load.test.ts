import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const src = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../src');

/** The packages a source file loads when it is imported: through static imports only, not `import()` at use. */
function loadedPackages(entry: string): Set<string> {
  const modules = new Set<string>();
  const packages = new Set<string>();
  const visit = (file: string) => {
    if (modules.has(file)) return;
    modules.add(file);
    const text = readFileSync(file, 'utf8');
    for (const match of text.matchAll(/(?:^|\n)\s*(?:import|export)\s(?!type\b)[^;]*?from\s+['"]([^'"]+)['"]/g)) {
      const specifier = match[1] ?? '';
      if (specifier.startsWith('.')) visit(path.resolve(path.dirname(file), specifier.replace(/\.js$/, '.ts')));
      else packages.add(specifier);
    }
  };
  visit(entry);
  return packages;
}

describe('what a test worker loads with riddle/trial', () => {
  it('neither the MCP SDK, execa nor undici until an attempt serves tools over MCP, runs a command or has providers', () => {
    const packages = [...loadedPackages(path.join(src, 'vitest', 'index.ts'))];
    expect(packages.filter((p) => p.startsWith('@modelcontextprotocol/') || p === 'execa' || p === 'undici')).toEqual(
      [],
    );
    // What it does load, so the walk above is known to reach the observe layer.
    expect(packages).toContain('zod');
  });
});
