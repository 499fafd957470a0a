import { readdirSync } from 'node:fs';
import path from 'node:path';

/** Every stored Outcome file under fixtures/artifacts (older versions included). */
export function storedOutcomes(): string[] {
  const found: string[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (dir.endsWith('outcomes') && entry.name.endsWith('.json')) found.push(full);
    }
  };
  walk(path.resolve('fixtures/artifacts'));
  return found;
}
