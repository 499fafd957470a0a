import { z } from 'zod';
import { lazySchema } from './lazy-schema.js';

/** Bins of `ScoreSummary.histogram`: ten of width 0.1, the last one closed ([0.9, 1]). */
export const SCORE_BINS = 10;

/**
 * The scores one evaluator gave one scored criterion over an arm's attempts: their mean with an interval, their
 * quantiles and a histogram. The arm's verdict never rests on these (it uses met/unmet at the cutoff); they describe
 * how far above or below the cutoff the attempts landed.
 */
export const ScoreSummary = lazySchema(() =>
  z.object({
    criterion: z.string(),
    /** The evaluator whose scores these are; null when no evaluator scored the criterion in this arm. */
    evaluator: z.string().nullable(),
    /** The Rubric's cutoff: a score at or above it meets the criterion. */
    cutoff: z.number().min(0).max(1),
    /** Attempts with a score, and attempts of the arm without one (errors, blocked, no evidence): kept apart. */
    scored: z.number().int().min(0),
    unscored: z.number().int().min(0),
    /** Scored attempts whose score reached the cutoff. */
    atCutoff: z.number().int().min(0),
    /** Mean score over the scored attempts; null when none was scored. */
    mean: z.number().nullable(),
    /**
     * Two-sided interval of the mean, valid for any distribution on [0, 1] at any n (Waudby-Smith & Ramdas 2024, the
     * hedged betting interval over the attempts in the order run); null when none was scored.
     */
    interval: z
      .object({ lower: z.number(), upper: z.number(), confidence: z.number(), method: z.literal('betting') })
      .nullable(),
    /** Minimum, quartiles (linear interpolation, Hyndman–Fan type 7) and maximum; null when none was scored. */
    quantiles: z
      .object({ min: z.number(), p25: z.number(), median: z.number(), p75: z.number(), max: z.number() })
      .nullable(),
    /** Counts of scores in [0, 0.1), [0.1, 0.2), …, [0.9, 1]. */
    histogram: z.array(z.number().int().min(0)).length(SCORE_BINS),
    /** False when any of the scores came from an untrusted (uncalibrated) judge. */
    trusted: z.boolean(),
  }),
);
export type ScoreSummary = z.infer<typeof ScoreSummary>;
