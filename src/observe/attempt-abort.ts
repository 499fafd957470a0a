/**
 * An attempt's abort: its budget running out or the run being interrupted. The AbortSignal subjects and tools see is
 * made only when one of them asks for it. On Node 20 every AbortSignal outlives young-generation collections (Node
 * keeps it for `AbortSignal.any`), so one per attempt, with whatever it held, piled up in the old generation until a
 * full collection: a large share of a trial's memory and collection time for subjects that never read it.
 */
export class AttemptAbort {
  #controller: AbortController | null = null;
  #aborted = false;
  #reason: unknown;
  readonly #waiting = new Set<() => void>();

  /** Whether the attempt was told to stop. */
  get aborted(): boolean {
    return this.#aborted;
  }

  /** The signal handed to subjects and tools: made on first reading, already aborted when the attempt was. */
  get signal(): AbortSignal {
    if (this.#controller === null) {
      this.#controller = new AbortController();
      if (this.#aborted) this.#controller.abort(this.#reason);
    }
    return this.#controller.signal;
  }

  /** Tell the attempt to stop (once; later calls keep the first reason). */
  abort(reason: unknown): void {
    if (this.#aborted) return;
    this.#aborted = true;
    this.#reason = reason;
    this.#controller?.abort(reason);
    for (const waiting of [...this.#waiting]) waiting();
  }

  /** Call `then` when the attempt is told to stop (at once when it was); returns a function that stops waiting. */
  whenAborted(then: () => void): () => void {
    if (this.#aborted) {
      then();
      return () => {};
    }
    this.#waiting.add(then);
    return () => this.#waiting.delete(then);
  }
}
