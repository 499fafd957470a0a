// Bundles the package's entry points (package.json `exports` and `bin`) from tsc's modules (build/modules) into dist/:
// one file per entry and shared chunks in dist/chunks, every dependency left to be imported. A test file that
// imports riddle/trial otherwise made Node's ESM loader resolve, read, compile and link some 260 modules of riddle's,
// about half a second of CPU for every Vitest worker (every test file, as Vitest isolates them): bundled, about a
// third less. Declarations stay tsc's (declarationDir dist), one per module, as the entry points' types name them.
import { chmodSync, existsSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { builtinModules } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { rolldown } from 'rolldown';

const root = path.join(path.dirname(fileURLToPath(import.meta.url)), '..');
const modules = path.join(root, 'build', 'modules');
const dist = path.join(root, 'dist');
const manifest = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8'));

/** Every built file the package serves, relative to dist without `.js`: the `default` of each export and the bin. */
const entries = [
  ...Object.values(manifest.exports).flatMap((target) => (typeof target === 'object' ? [target.default] : [])),
  ...Object.values(manifest.bin),
]
  .filter((file) => file.startsWith('./dist/') && file.endsWith('.js'))
  .map((file) => file.slice('./dist/'.length, -'.js'.length));

// A module that finds riddle's own package.json (its version) two folders above itself does so from its bundled
// place too only when that is two folders below the package: entries and chunks are, but dist/core.js is one.
const DEPTH_TWO = /^[^/]+\/[^/]+$/;

// Earlier bundles' files only: tsc's declarations beside them stay.
for (const file of readdirSync(dist, { recursive: true, encoding: 'utf8' }))
  if (file.endsWith('.js') || file.endsWith('.js.map')) rmSync(path.join(dist, file));

const bundle = await rolldown({
  input: Object.fromEntries(entries.map((entry) => [entry, path.join(modules, `${entry}.js`)])),
  platform: 'node',
  // Dependencies and Node's modules are imported as they are: the user's copy of Vitest must be the one trials use.
  external: (id) =>
    id.startsWith('node:') || builtinModules.includes(id) || !(id.startsWith('.') || path.isAbsolute(id)),
});
const { output } = await bundle.write({
  dir: dist,
  format: 'esm',
  entryFileNames: '[name].js',
  chunkFileNames: 'chunks/[name]-[hash].js',
});
await bundle.close();

for (const chunk of output) {
  if (chunk.type !== 'chunk') continue;
  if (chunk.code.includes('import.meta.url') && !DEPTH_TWO.test(chunk.fileName))
    throw new Error(
      `scripts/bundle.mjs: dist/${chunk.fileName} uses import.meta.url but is not two folders below the package; ` +
        'move the module that does into a chunk or an entry two folders down (see DEPTH_TWO)',
    );
}
for (const bin of Object.values(manifest.bin)) {
  const file = path.join(root, bin);
  if (!existsSync(file)) throw new Error(`scripts/bundle.mjs: the bin ${bin} was not written`);
  chmodSync(file, 0o755);
}
console.log(`bundled ${entries.length} entry points into dist/ (${output.length} files)`);
