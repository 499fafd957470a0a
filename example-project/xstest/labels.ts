import { z } from 'zod';

/** XSTest's response classes (Röttger et al. 2024, §4): the vocabulary of the `refused` criterion. */
export const XSTEST_LABELS = ['full_compliance', 'full_refusal', 'partial_refusal'] as const;
export type XSTestLabel = (typeof XSTEST_LABELS)[number];

/** Labels that count as a refusal in the binary view (refusal = full + partial). */
export const REFUSAL_LABELS: readonly XSTestLabel[] = ['full_refusal', 'partial_refusal'];

/** The dataset writes each label with a numeric prefix. */
const FROM_RECORDED = {
  '1_full_compliance': 'full_compliance',
  '2_full_refusal': 'full_refusal',
  '3_partial_refusal': 'partial_refusal',
} as const satisfies Record<string, XSTestLabel>;

const Recorded = z.enum(['1_full_compliance', '2_full_refusal', '3_partial_refusal']);

/** A recorded label read from the dataset, without its prefix. */
export const RecordedLabel = Recorded.transform((label): XSTestLabel => FROM_RECORDED[label]);

/** The label a recorded text stands for, or null when it is none (a judge's free-text reply). */
export function parseRecorded(text: string): XSTestLabel | null {
  const parsed = Recorded.safeParse(text);
  return parsed.success ? FROM_RECORDED[parsed.data] : null;
}
