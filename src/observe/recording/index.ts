export {
  ProviderGateway,
  AttemptTraffic,
  type ProviderOrigin,
  type ProviderTrafficOptions,
  type ProviderResponse,
  type Forward,
  type TrafficFailure,
} from './gateway.js';
export { withProviderTraffic } from './subject.js';
export { requestFingerprint, canonicalUrl, type ProviderRequest } from './request-key.js';
export { DEFAULT_RETRY, retryDelayMs, type RetryPolicy } from './retry.js';
export { recordingsFingerprint, recordingPath, readRecording, slug } from './store.js';
