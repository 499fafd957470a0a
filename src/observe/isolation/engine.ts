/** What a wrapped command may reach besides the read-only system: the only writable paths, and the network. */
export interface IsolationBounds {
  /** The attempt's workspace: the one folder the subject's work may change (also its working directory). */
  workspace: string;
  /** riddle's own per-round folders the subject writes to (history, receipts), mounted writable at the same path. */
  writable: readonly string[];
  /** riddle's folders the subject only reads or connects to (the MCP bridge and its socket), at the same path. */
  readable: readonly string[];
  /** Working directory inside the sandbox. */
  cwd: string;
  /** Whether the subject keeps the host's network (including loopback); otherwise it has none. */
  network: boolean;
}

/** Whether an engine can run here, and if not, why (for the attempt's error and the Environment). */
export interface IsolationAvailability {
  available: boolean;
  detail: string;
}

/**
 * The processes an engine's command line starts before the subject's own: riddle samples and signals only what runs
 * below them. A launcher hands on its subject's exit as its own, a subject killed by signal n as exit code 128 + n
 * (as bwrap and container runtimes do).
 */
export interface Launcher {
  /** Named in notes about what the launcher hides. */
  name: string;
  /** How many generations of processes are the launcher's: the subject is their child (bwrap: itself and its reaper). */
  depth: number;
}

/**
 * An isolation engine runs a command subject inside an OS sandbox. riddle owns neither isolation nor execution:
 * an engine only rewrites the command line (`wrap`); riddle still starts, observes and kills the process tree.
 * bubblewrap is the one shipped; a container engine fits the same shape.
 */
export interface IsolationEngine {
  readonly name: string;
  available(): Promise<IsolationAvailability>;
  wrap(
    command: string,
    args: readonly string[],
    bounds: IsolationBounds,
  ): { command: string; args: string[]; launcher?: Launcher };
}
