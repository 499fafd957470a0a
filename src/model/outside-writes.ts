import { z } from 'zod';
import { lazySchema } from './lazy-schema.js';

/**
 * A place outside the attempts' workspaces watched while an unisolated subject ran: the project folder (walked,
 * skipping node_modules, .git, .riddle and riddle-report), and the user's home folder (its entries only, one level
 * deep: a folder's modification time still shows entries created or removed directly inside it). The temporary
 * folder is not watched: every process on the machine writes there (other tests, workers, riddle's own sandboxes), so
 * an entry appearing in it says nothing about the subject.
 */
export const WatchedRoot = lazySchema(() =>
  z.object({
    name: z.enum(['project', 'home']),
    /** How deep it was walked: 1 for the entries directly in it; null for the whole tree (within `maxEntries`). */
    depth: z.number().int().min(1).nullable(),
    /**
     * True when not every change could be seen: a walk stopped at the entry bound, folders past the bound were not
     * watched, or change notifications were lost (more at once than the kernel's queue holds).
     */
    truncated: z.boolean(),
  }),
);
export type WatchedRoot = z.infer<typeof WatchedRoot>;

/**
 * One path outside the workspaces that changed while attempts ran. A path made and removed between two looks is told as
 * `created` and then `deleted` where change notifications are read; two walks do not see it.
 */
export const OutsideWrite = lazySchema(() =>
  z.object({
    root: WatchedRoot.shape.name,
    /** Relative to its root, `/`-separated. */
    path: z.string(),
    change: z.enum(['created', 'modified', 'deleted']),
    /**
     * The attempts (`arm#index`) running between the two looks that saw the change: one when it can be tied to that
     * attempt; several when attempts overlapped; none when it happened between attempts, or when the watch's window is
     * the whole trial.
     */
    attempts: z.array(z.string()),
  }),
);
export type OutsideWrite = z.infer<typeof OutsideWrite>;

/**
 * Writes outside the workspace seen around the attempts of an unisolated subject, by the operating system's change
 * notifications between marks made before and after each attempt (Linux), or by comparing (modification time, size)
 * walks of the watched roots. Without isolation riddle cannot tell who wrote: another process writing there at the
 * time shows up too.
 */
export const OutsideWrites = lazySchema(() =>
  z.object({
    /**
     * When the roots were looked at: `attempt`, before and after each attempt (command subjects, whose process costs
     * far more than two looks); `trial`, before the first attempt and after the last (function subjects, in-process and
     * often sub-millisecond, where walks around every attempt would cost more than the subject), so a change is the
     * trial's, tied to no one attempt.
     */
    window: z.enum(['attempt', 'trial']),
    roots: z.array(WatchedRoot),
    /** Entries per root looked at most: walked, or listed when notifications are set up (folders past it unwatched). */
    maxEntries: z.number().int().min(1),
    changes: z.array(OutsideWrite),
    /** Changes past this many are counted, not listed. */
    unlisted: z.number().int().min(0),
  }),
);
export type OutsideWrites = z.infer<typeof OutsideWrites>;
