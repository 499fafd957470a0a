import { z } from 'zod';
import { lazySchema } from './lazy-schema.js';
import { JsonValue } from './json.js';

export const RECORDING_SCHEMA = 'riddle.recording/1';

/** A provider request as stored: headers allowlisted, secrets stripped; the body parsed when it is JSON. */
export const RecordedRequest = lazySchema(() =>
  z.object({
    method: z.string(),
    url: z.string(),
    headers: z.record(z.string(), z.string()),
    body: JsonValue,
  }),
);
export type RecordedRequest = z.infer<typeof RecordedRequest>;

export const RecordedResponse = lazySchema(() =>
  z.object({
    status: z.number().int(),
    headers: z.record(z.string(), z.string()),
    /** The body as text (JSON and server-sent events alike), secrets stripped. */
    body: z.string(),
  }),
);
export type RecordedResponse = z.infer<typeof RecordedResponse>;

/** One request of one attempt and the provider's answer, found again by fingerprint and occurrence. */
export const RecordedExchange = lazySchema(() =>
  z.object({
    /** Canonical request fingerprint: method, URL and body without the declared volatile fields. */
    fingerprint: z.string(),
    /** 0-based count of earlier requests with the same fingerprint in this attempt. */
    occurrence: z.number().int().min(0),
    request: RecordedRequest,
    response: RecordedResponse,
    /** Wall time of the call when it was recorded, in milliseconds. */
    latencyMs: z.number(),
  }),
);
export type RecordedExchange = z.infer<typeof RecordedExchange>;

/** Everything one attempt sent to its declared providers: one file per attempt in the recordings folder. */
export const AttemptRecording = lazySchema(() =>
  z.object({
    schema: z.literal(RECORDING_SCHEMA),
    trial: z.string(),
    arm: z.string(),
    attempt: z.number().int().min(0),
    seed: z.number().int(),
    exchanges: z.array(RecordedExchange),
  }),
);
export type AttemptRecording = z.infer<typeof AttemptRecording>;
