import { accessSync, constants, existsSync } from 'node:fs';
import path from 'node:path';
import type { Dependency } from '../model/index.js';

/** Whether a declared dependency is available here, with a one-line detail either way. */
export function checkDependency(dependency: Dependency, root: string): { available: boolean; detail: string } {
  switch (dependency.kind) {
    case 'env': {
      const set = (process.env[dependency.name] ?? '') !== '';
      return { available: set, detail: set ? `environment variable ${dependency.name} is set` : `environment variable ${dependency.name} is not set` };
    }
    case 'file': {
      const file = path.resolve(root, dependency.name);
      const found = existsSync(file);
      return { available: found, detail: found ? `${file} exists` : `${file} does not exist` };
    }
    case 'binary': {
      for (const dir of (process.env.PATH ?? '').split(path.delimiter)) {
        const candidate = path.join(dir, dependency.name);
        try {
          accessSync(candidate, constants.X_OK);
          return { available: true, detail: `found ${candidate}` };
        } catch {
          continue;
        }
      }
      return { available: false, detail: `${dependency.name} is not on PATH` };
    }
    case 'service':
      return { available: false, detail: `service ${dependency.name} needs a probe; declare it as env, file or binary` };
    default:
      return dependency.kind satisfies never;
  }
}
