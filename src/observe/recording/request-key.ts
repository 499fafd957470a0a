import { fingerprint, type JsonValue } from '../../model/index.js';

/** A request to a provider as the harness sees it, whatever client sent it. */
export interface ProviderRequest {
  method: string;
  url: string;
  /** Header names in lower case. */
  headers: Readonly<Record<string, string>>;
  body: string;
}

/** The body as data when it is JSON, else the text itself. */
export function parseBody(body: string): JsonValue {
  if (body === '') return null;
  try {
    return JSON.parse(body) as JsonValue;
  } catch {
    return body;
  }
}

function withoutPath(value: JsonValue, path: readonly string[]): JsonValue {
  const [head, ...rest] = path;
  if (head === undefined || value === null || typeof value !== 'object' || Array.isArray(value)) return value;
  if (!(head in value)) return value;
  const copy: { [key: string]: JsonValue } = { ...value };
  if (rest.length === 0) delete copy[head];
  else copy[head] = withoutPath(copy[head] ?? null, rest);
  return copy;
}

/** The URL with a lower-case origin and its query parameters sorted, so equal requests compare equal. */
export function canonicalUrl(url: string): string {
  const parsed = new URL(url);
  parsed.searchParams.sort();
  return `${parsed.protocol}//${parsed.host.toLowerCase()}${parsed.pathname}${parsed.search}`;
}

/**
 * The canonical request fingerprint: method, canonical URL and body, less the declared volatile body fields
 * (dotted paths such as `user` or `metadata.request_id`). Headers never count: they carry keys and client versions.
 */
export function requestFingerprint(request: ProviderRequest, volatile: readonly string[]): string {
  let body = parseBody(request.body);
  for (const field of volatile) body = withoutPath(body, field.split('.'));
  return fingerprint({ method: request.method.toUpperCase(), url: canonicalUrl(request.url), body });
}
