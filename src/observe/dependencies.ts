import { accessSync, constants, existsSync } from 'node:fs';
import { connect } from 'node:net';
import path from 'node:path';
import type { Dependency } from '../model/index.js';

export interface DependencyCheck {
  available: boolean;
  /** One line saying what was found, either way. */
  detail: string;
}

/** How long a service probe waits for a connection or an answer, in milliseconds. */
const PROBE_MS = 3000;

function probeTcp(host: string, port: number): Promise<DependencyCheck> {
  return new Promise((resolve) => {
    const socket = connect({ host, port, timeout: PROBE_MS });
    const done = (check: DependencyCheck) => {
      socket.destroy();
      resolve(check);
    };
    socket.once('connect', () => done({ available: true, detail: `${host}:${port} accepts connections` }));
    socket.once('timeout', () =>
      done({ available: false, detail: `${host}:${port} did not answer within ${PROBE_MS} ms` }),
    );
    socket.once('error', (error) => done({ available: false, detail: `${host}:${port} refused: ${error.message}` }));
  });
}

async function probeHttp(url: string): Promise<DependencyCheck> {
  try {
    // Any answer, even an error status, shows the service is up; only no answer means it is unavailable.
    const response = await fetch(url, { method: 'GET', signal: AbortSignal.timeout(PROBE_MS) });
    await response.body?.cancel();
    return { available: true, detail: `${url} answered HTTP ${response.status}` };
  } catch (error) {
    const cause =
      error instanceof Error && error.cause instanceof Error
        ? error.cause.message
        : error instanceof Error
          ? error.message
          : String(error);
    return { available: false, detail: `${url} did not answer: ${cause}` };
  }
}

function parseHostPort(name: string): { host: string; port: number } | null {
  const match = /^\[?([^\]]+?)\]?:(\d{1,5})$/.exec(name);
  return match?.[1] && match[2] ? { host: match[1], port: Number(match[2]) } : null;
}

/**
 * Whether a declared dependency is available here. `env`: the variable is set and non-empty; `file`: the path
 * (relative to `root`) exists; `binary`: an executable of that name is on PATH; `service`: an `http(s)://` URL
 * answers a GET (any status), or a `host:port` accepts a TCP connection. A service named otherwise is a
 * configuration mistake and throws.
 */
export async function checkDependency(dependency: Dependency, root: string): Promise<DependencyCheck> {
  switch (dependency.kind) {
    case 'env': {
      const set = (process.env[dependency.name] ?? '') !== '';
      return {
        available: set,
        detail: set
          ? `environment variable ${dependency.name} is set`
          : `environment variable ${dependency.name} is not set`,
      };
    }
    case 'file': {
      const file = path.resolve(root, dependency.name);
      const found = existsSync(file);
      return { available: found, detail: found ? `${file} exists` : `${file} does not exist` };
    }
    case 'binary': {
      for (const dir of (process.env.PATH ?? '').split(path.delimiter)) {
        if (dir === '') continue;
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
    case 'service': {
      if (/^https?:\/\//.test(dependency.name)) return probeHttp(dependency.name);
      const address = parseHostPort(dependency.name);
      if (address === null)
        throw new Error(`dependency "${dependency.name}": a service is named by an http(s):// URL or host:port`);
      return probeTcp(address.host, address.port);
    }
    default:
      return dependency.kind satisfies never;
  }
}
