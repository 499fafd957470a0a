// Writes schema/<record>.json from the built zod schemas, so shipped JSON Schemas never drift from the code.
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.join(path.dirname(fileURLToPath(import.meta.url)), '..');
const { RECORD_SCHEMAS, recordJsonSchema } = await import(path.join(root, 'build', 'modules', 'model', 'index.js'));
const dir = path.join(root, 'schema');
mkdirSync(dir, { recursive: true });
for (const name of Object.keys(RECORD_SCHEMAS)) {
  writeFileSync(path.join(dir, `${name}.json`), `${JSON.stringify(recordJsonSchema(name), null, 2)}\n`);
}
console.log(`wrote ${Object.keys(RECORD_SCHEMAS).length} JSON Schemas to schema/`);
