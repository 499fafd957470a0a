// Bundles the package's entry points (package.json `exports` and `bin`) from tsc's modules (build/modules) into dist/:
// one file per entry and shared chunks in dist/chunks. A test file that imports riddle/trial otherwise made Node's ESM
// loader resolve, read, compile and link some 260 modules of riddle's, about half a second of CPU for every Vitest
// worker (every test file, as Vitest isolates them): bundled, about a third less. zod is bundled too (BUNDLED): its
// hundred-odd modules cost a worker about 50 ms of CPU more to load one by one than the parts riddle uses, bundled. Every
// other dependency is imported as it is. The licences of what is bundled go into dist/THIRD-PARTY-LICENSES.md.
// Declarations stay tsc's (declarationDir dist), one per module, as the entry points' types name them; they import
// zod's types from the zod package, which stays a dependency (the MCP SDK loads it as well).
import { chmodSync, existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
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

/**
 * Dependencies bundled into riddle's chunks. Only packages whose state riddle does not share with the user's code: the
 * user's copy of Vitest must be the one trials use, so it and every other dependency stay imports. zod's shared state
 * (its global registry of schema metadata) is kept on globalThis by zod itself, so a user's `.describe()` reaches
 * riddle's `toJSONSchema` from a bundled copy as well.
 */
const BUNDLED = ['zod'];
const packageOf = (id) => (id.startsWith('@') ? id.split('/').slice(0, 2) : id.split('/').slice(0, 1)).join('/');

const bundle = await rolldown({
  input: Object.fromEntries(entries.map((entry) => [entry, path.join(modules, `${entry}.js`)])),
  platform: 'node',
  external: (id) =>
    id.startsWith('node:') ||
    builtinModules.includes(id) ||
    !(id.startsWith('.') || path.isAbsolute(id) || BUNDLED.includes(packageOf(id))),
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
// The bundled packages' licences, shipped beside the chunks that hold their code (each asks for its notice to be kept).
const bundledPackages = new Map();
for (const chunk of output) {
  if (chunk.type !== 'chunk') continue;
  for (const id of Object.keys(chunk.modules)) {
    const at = id.lastIndexOf('/node_modules/');
    if (at === -1) continue;
    const name = packageOf(id.slice(at + '/node_modules/'.length));
    bundledPackages.set(name, path.join(id.slice(0, at), 'node_modules', name));
  }
}
const unexpected = [...bundledPackages.keys()].filter((name) => !BUNDLED.includes(name));
if (unexpected.length > 0)
  throw new Error(`scripts/bundle.mjs: bundled packages not listed in BUNDLED: ${unexpected.join(', ')}`);
const notices = [...bundledPackages].sort().map(([name, folder]) => {
  const about = JSON.parse(readFileSync(path.join(folder, 'package.json'), 'utf8'));
  const licenceFile = readdirSync(folder).find((file) => /^licen[cs]e(\.md|\.txt)?$/i.test(file));
  if (licenceFile === undefined) throw new Error(`scripts/bundle.mjs: ${name} is bundled but ships no licence file`);
  const text = readFileSync(path.join(folder, licenceFile), 'utf8').trim();
  return `## ${name} ${about.version} (${about.license})\n\n${text}\n`;
});
writeFileSync(
  path.join(dist, 'THIRD-PARTY-LICENSES.md'),
  `# Third-party code bundled into riddle's dist/\n\n${notices.join('\n')}`,
);

for (const bin of Object.values(manifest.bin)) {
  const file = path.join(root, bin);
  if (!existsSync(file)) throw new Error(`scripts/bundle.mjs: the bin ${bin} was not written`);
  chmodSync(file, 0o755);
}
console.log(`bundled ${entries.length} entry points into dist/ (${output.length} files)`);
