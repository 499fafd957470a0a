// Enforces the module layout of docs/ARCHITECTURE.md: which riddle folders a folder may import, and that only
// src/vitest/ touches Vitest or Vite. Exits non-zero naming every offending import.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const src = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'src');

const MAY_IMPORT = {
  model: [],
  statistics: [],
  evaluate: ['model', 'statistics'],
  aggregate: ['model', 'statistics'],
  observe: ['model'],
  data: ['model'],
  // run renders a decision's reason data into the sentence the Outcome keeps (report/reasons.ts).
  run: ['model', 'statistics', 'evaluate', 'aggregate', 'observe', 'report'],
  report: ['model', 'statistics', 'aggregate'],
  cli: ['model', 'statistics', 'evaluate', 'aggregate', 'observe', 'run', 'report', 'data'],
  vitest: ['model', 'statistics', 'evaluate', 'aggregate', 'observe', 'run', 'report', 'data'],
};
/** Packages confined to the edges that own them. */
const PACKAGE_HOMES = [
  [/^vitest(\/|$)|^vite(\/|$)/, ['vitest']],
  [/^execa$|^@modelcontextprotocol\//, ['observe']],
  [/^better-sqlite3$/, ['observe']],
  [/^undici$/, ['observe']],
  [/^picocolors$/, ['report', 'cli', 'vitest']],
];
const ROOT_FILES_MAY_IMPORT = Object.keys(MAY_IMPORT).filter((m) => m !== 'vitest');

function* files(dir) {
  for (const name of readdirSync(dir)) {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) yield* files(full);
    else if (/\.(ts|mts)$/.test(name)) yield full;
  }
}

const problems = [];
const importPattern = /(?:^|\n)\s*(?:import|export)\s[^;]*?from\s+['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/g;
for (const file of files(src)) {
  const relative = path.relative(src, file);
  const owner = relative.includes(path.sep) ? relative.split(path.sep)[0] : null;
  const allowed = owner === null ? ROOT_FILES_MAY_IMPORT : MAY_IMPORT[owner];
  if (!allowed) {
    problems.push(`${relative}: folder "${owner}" is not in the layer table (scripts/check-layers.mjs)`);
    continue;
  }
  const text = readFileSync(file, 'utf8');
  for (const match of text.matchAll(importPattern)) {
    const specifier = match[1] ?? match[2];
    if (specifier.startsWith('.')) {
      const target = path.relative(src, path.resolve(path.dirname(file), specifier));
      if (target.startsWith('..')) {
        if (!/package\.json$/.test(target)) problems.push(`${relative}: imports ${specifier}, outside src/`);
        continue;
      }
      const targetOwner = target.includes(path.sep) ? target.split(path.sep)[0] : null;
      if (targetOwner !== null && targetOwner !== owner && !allowed.includes(targetOwner)) {
        problems.push(`${relative}: ${owner ?? 'src'}/ may not import ${targetOwner}/ (${specifier})`);
      }
    } else {
      for (const [pattern, homes] of PACKAGE_HOMES) {
        if (pattern.test(specifier) && !homes.includes(owner)) {
          problems.push(
            `${relative}: imports "${specifier}", which only ${homes.map((h) => `src/${h}/`).join(' or ')} may use`,
          );
        }
      }
    }
  }
}
if (problems.length) {
  console.error(`check-layers: ${problems.length} import(s) break the module layout:\n  ${problems.join('\n  ')}`);
  process.exit(1);
}
console.log('check-layers: every import respects the module layout');
