import { execFile } from 'node:child_process';
import type { IsolationAvailability, IsolationBounds, IsolationEngine } from './engine.js';

let probe: Promise<IsolationAvailability> | undefined;

/**
 * What confines every sandbox, the probe's included. `--cap-drop ALL`: run as root (as in CI containers), bwrap
 * otherwise leaves the subject every capability, enough to remount the read-only root writable. (Without a user
 * namespace, which is not asked for as it fails where those are disabled, root's bounding set stays full, but bwrap's
 * no_new_privs keeps an exec from regaining any.) `--new-session`: no terminal session of its caller's to push input
 * into (TIOCSTI), should the caller have one. `--die-with-parent`: riddle's SIGKILL to bwrap ends the sandbox with it.
 */
const CONFINED = ['--unshare-pid', '--unshare-ipc', '--cap-drop', 'ALL', '--new-session', '--die-with-parent'];
const CAPABILITY_SETS = ['CapInh', 'CapPrm', 'CapEff', 'CapAmb'];

/** The capability sets of /proc/<pid>/status that are not empty, as "CapEff 000001fffeffffff"; a missing set counts. */
export function capabilitiesHeld(status: string): string[] {
  return CAPABILITY_SETS.flatMap((set) => {
    const mask = new RegExp(`^${set}:\\s*([0-9a-f]+)$`, 'm').exec(status)?.[1];
    if (mask === undefined) return [`${set} unreadable`];
    return /^0+$/.test(mask) ? [] : [`${set} ${mask}`];
  });
}

/**
 * Start Node under the same confinement the subject gets and read its capabilities: proves bwrap is installed and
 * allowed here, and that the sandboxed process holds none (else isolation is refused, never pretended).
 */
function probeBubblewrap(): Promise<IsolationAvailability> {
  return new Promise((resolve) => {
    const args = ['--ro-bind', '/', '/', '--dev', '/dev', '--proc', '/proc', '--unshare-net', ...CONFINED];
    const readStatus = "process.stdout.write(require('node:fs').readFileSync('/proc/self/status', 'latin1'))";
    execFile(
      'bwrap',
      [...args, '--', process.execPath, '-e', readStatus],
      { timeout: 60_000 },
      (error, stdout, stderr) => {
        if (error === null) {
          const held = capabilitiesHeld(String(stdout));
          resolve(
            held.length === 0
              ? { available: true, detail: 'bwrap runs' }
              : {
                  available: false,
                  detail: `bwrap runs, but the sandboxed process keeps capabilities it could leave the sandbox with (${held.join(', ')})`,
                },
          );
          return;
        }
        const missing = (error as NodeJS.ErrnoException).code === 'ENOENT';
        resolve({
          available: false,
          detail: missing
            ? 'bwrap is not installed (Debian/Ubuntu: apt-get install bubblewrap)'
            : `bwrap cannot create its namespaces here: ${String(stderr).trim() || error.message}`,
        });
      },
    );
  });
}

/**
 * bubblewrap (`bwrap`): the whole file system read-only, a fresh /dev, /proc and private /tmp, the workspace (and
 * riddle's per-round channel) the only writable paths, its own PID and IPC namespaces, no capabilities whatever user
 * runs riddle, and no network unless the bounds allow it. Without a network the subject still reaches its MCP tools
 * through the stdio bridge, which talks to the gateway over a unix socket mounted into the sandbox.
 * `--die-with-parent` and the PID namespace end every process of the sandbox when riddle stops the tree.
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
        ...CONFINED,
        ...(bounds.network ? [] : ['--unshare-net']),
        '--chdir',
        bounds.cwd,
        '--',
        command,
        ...args,
      ],
      // bwrap itself, then its reaper as the PID namespace's init, whose child runs the command.
      launcher: { name: 'bubblewrap', depth: 2 },
    };
  },
};
