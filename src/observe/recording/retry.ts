/** How the harness retries a provider's rate limits and transient errors. */
export interface RetryPolicy {
  /** Retries per request before the attempt is failed by the harness (default 3). */
  maxRetries: number;
  /** First backoff when the provider gives no retry-after, doubled each retry, in milliseconds (default 500). */
  baseDelayMs: number;
  /** Longest wait, whatever retry-after asks for, in milliseconds (default 30 000). */
  maxDelayMs: number;
  /** Statuses retried (default 429, 500, 502, 503, 504). */
  statuses: readonly number[];
  /** What an attempt whose retries ran out is: the harness's error (default), or blocked by a declared quota. */
  onExhausted: 'harness_error' | 'blocked';
}

export const DEFAULT_RETRY: RetryPolicy = {
  maxRetries: 3,
  baseDelayMs: 500,
  maxDelayMs: 30_000,
  statuses: [429, 500, 502, 503, 504],
  onExhausted: 'harness_error',
};

/**
 * How long to wait before retry number `retry` (1-based): the provider's `retry-after` (seconds or an HTTP date)
 * or `retry-after-ms` when given, else exponential backoff; never more than `maxDelayMs`.
 */
export function retryDelayMs(
  headers: Readonly<Record<string, string>>,
  retry: number,
  policy: RetryPolicy,
  now: number,
): number {
  const ms = Number(headers['retry-after-ms']);
  const after = headers['retry-after'];
  let wait = policy.baseDelayMs * 2 ** (retry - 1);
  if (headers['retry-after-ms'] !== undefined && Number.isFinite(ms) && ms >= 0) wait = ms;
  else if (after !== undefined) {
    const seconds = Number(after);
    if (after.trim() !== '' && Number.isFinite(seconds) && seconds >= 0) wait = seconds * 1000;
    else if (!Number.isNaN(Date.parse(after))) wait = Math.max(0, Date.parse(after) - now);
  }
  return Math.min(wait, policy.maxDelayMs);
}
