import { execFile } from 'node:child_process';
import type { IsolationAvailability, IsolationBounds, IsolationEngine } from './engine.js';

let probe: Promise<IsolationAvailability> | undefined;

/** Start `node -e 0` under the same namespaces the subject gets: proves bwrap is installed and allowed here. */
function probeBubblewrap(): Promise<IsolationAvailability> {
  return new Promise((resolve) => {
    const args = ['--ro-bind', '/', '/', '--dev', '/dev', '--proc', '/proc', '--unshare-pid', '--unshare-net'];
    execFile('bwrap', [...args, '--', process.execPath, '-e', '0'], { timeout: 60_000 }, (error, _out, stderr) => {
      if (error === null) resolve({ available: true, detail: 'bwrap runs' });
      else {
        const missing = (error as NodeJS.ErrnoException).code === 'ENOENT';
        resolve({
          available: false,
          detail: missing
            ? 'bwrap is not installed (Debian/Ubuntu: apt-get install bubblewrap)'
            : `bwrap cannot create its namespaces here: ${String(stderr).trim() || error.message}`,
        });
      }
    });
  });
}

/**
 * bubblewrap (`bwrap`): the whole file system read-only, a fresh /dev, /proc and private /tmp, the workspace (and
 * riddle's per-round channel) the only writable paths, its own PID and IPC namespaces, and no network unless the
 * bounds allow it. Without a network the subject still reaches its MCP tools through the stdio bridge, which talks
 * to the gateway over a unix socket mounted into the sandbox. `--die-with-parent` and the PID namespace end every
 * process of the sandbox when riddle stops the tree.
 */
export const bubblewrap: IsolationEngine = {
  name: 'bubblewrap',
  available() {
    probe ??= probeBubblewrap();
    return probe;
  },
  wrap(command, args, bounds: IsolationBounds) {
    const mounts = [
      ...bounds.readable.flatMap((folder) => ['--ro-bind', folder, folder]),
      ...[bounds.workspace, ...bounds.writable].flatMap((folder) => ['--bind', folder, folder]),
    ];
    return {
      command: 'bwrap',
      args: [
        '--ro-bind',
        '/',
        '/',
        '--dev',
        '/dev',
        '--proc',
        '/proc',
        '--tmpfs',
        '/tmp',
        ...mounts,
        '--unshare-pid',
        '--unshare-ipc',
        ...(bounds.network ? [] : ['--unshare-net']),
        '--die-with-parent',
        '--chdir',
        bounds.cwd,
        '--',
        command,
        ...args,
      ],
    };
  },
};
