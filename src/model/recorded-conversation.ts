import { z } from 'zod';
import { lazySchema } from './lazy-schema.js';
import { JsonValue } from './json.js';

/** One tool call of a recorded conversation, paired with the result the tool gave it (by call id). */
export const RecordedToolCall = lazySchema(() =>
  z.object({
    /** The call id the assistant gave it (`call_…`). */
    id: z.string().min(1),
    tool: z.string().min(1),
    /** The arguments, parsed from the JSON text the assistant wrote. */
    arguments: JsonValue,
    /** The tool message's content; null when the recording holds no result for this call (a cut-off conversation). */
    result: z.string().nullable(),
  }),
);
export type RecordedToolCall = z.infer<typeof RecordedToolCall>;

/** One user turn of a recorded conversation and everything the assistant did before the next one. */
export const RecordedRound = lazySchema(() =>
  z.object({
    /** What the user said; null for assistant messages before any user message. */
    input: z.string().nullable(),
    /** Tool calls in the order made, each with its result. */
    toolCalls: z.array(RecordedToolCall),
    /** The assistant's text in this turn (several messages joined by a blank line); null when it wrote none. */
    reply: z.string().nullable(),
  }),
);
export type RecordedRound = z.infer<typeof RecordedRound>;

/** A recorded agent conversation split into rounds at each user message (see data/trajectories for the reader). */
export const RecordedConversation = lazySchema(() =>
  z.object({
    /** The system prompt; null when the conversation has none. */
    system: z.string().nullable(),
    rounds: z.array(RecordedRound),
  }),
);
export type RecordedConversation = z.infer<typeof RecordedConversation>;
