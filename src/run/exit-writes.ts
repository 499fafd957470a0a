/**
 * Attempts not yet on disk (held in memory, or lines gathered between turns of the event loop) are written when the
 * process exits, however it exits (a subject calling process.exit): each owner's writer is called then, in the order
 * they were added; one added while they are called (a held trial's new stream) is called too.
 */
const writers = new Map<object, () => void>();
let listening = false;

/** Call `write` when the process exits, unless `writtenBeforeExit(owner)` comes first. */
export function writeAtExit(owner: object, write: () => void): void {
  writers.set(owner, write);
  if (listening) return;
  listening = true;
  process.on('exit', () => {
    for (const [owner, writeNow] of writers) {
      writers.delete(owner);
      try {
        writeNow();
      } catch {
        // The process is ending: what cannot be written now is lost, as it would have been at its own write.
      }
    }
  });
}

/** The owner's records are written: nothing is left to write at exit. */
export function writtenBeforeExit(owner: object): void {
  writers.delete(owner);
}
