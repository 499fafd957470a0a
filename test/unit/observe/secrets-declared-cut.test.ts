import { describe, expect, test } from 'vitest';
import { scrubbedCut } from '../../../src/observe/captured-output.js';
import { httpSubject } from '../../../src/observe/http-subject.js';
import {
  attemptSecretValues,
  jsonParseProblem,
  processSecretValues,
  REDACTED,
  redactCutEnd,
  redactText,
  secretValues,
} from '../../../src/observe/secrets.js';

const TOKEN = 'tok_1111222233334444aaaa';

describe('secrets a subject was declared with', () => {
  test('are secret by the rule of process.env: a header or a variable by its name or its value’s shape', () => {
    const headers = secretValues({
      'x-api-key': 'abcd1234efgh5678ijkl',
      'x-service-token': 'svc_0123456789abcdef',
      authorization: 'Bearer opaque0bearer0value',
      cookie: 'session=cafe0123babe4567',
      accept: 'application/json, text/plain',
      'x-trace': 'sk-looksLikeAKeyByItsShape01',
    });
    for (const value of [
      'abcd1234efgh5678ijkl',
      'svc_0123456789abcdef',
      'session=cafe0123babe4567',
      'sk-looksLikeAKeyByItsShape01',
    ])
      expect(headers).toContain(value);
    // The credential of an Authorization-like value alone too: a service may echo the token without its scheme.
    expect(redactText('got opaque0bearer0value', headers)).toBe(`got ${REDACTED}`);
    expect(headers).not.toContain('application/json, text/plain');
  });

  test('include an HTTP subject’s secret-looking query parameters: its URL is quoted in every failure message', () => {
    const subject = httpSubject({
      name: 'svc',
      url: 'http://127.0.0.1:9/answer?api_key=query0key0abcdef123&page=2',
      revision: 'svc@1',
    });
    expect(subject.secrets).toContain('query0key0abcdef123');
    expect(subject.secrets).not.toContain('2');
    expect(httpSubject({ name: 'odd', url: 'not a url', revision: 'r' }).secrets).toEqual([]);
  });

  test('join process.env’s for an attempt, in one list kept while neither changes', () => {
    const declared = secretValues({ MY_SERVICE_TOKEN: TOKEN, DB_PASSWORD: 'correcthorsebattery' });
    const secrets = attemptSecretValues(declared);
    expect(secrets).toEqual(expect.arrayContaining([TOKEN, 'correcthorsebattery', ...processSecretValues()]));
    expect(attemptSecretValues(declared)).toBe(secrets);
    expect([...secrets]).toEqual([...secrets].sort((a, b) => b.length - a.length));
    // A subject declared with none scrubs with process.env's list itself.
    expect(attemptSecretValues([])).toBe(processSecretValues());
    expect(attemptSecretValues(undefined)).toBe(processSecretValues());
  });
});

describe('a text cut through a secret', () => {
  const secrets = secretValues({ MY_SERVICE_TOKEN: TOKEN });

  test('ending with four or more of its first characters ends with [redacted] instead', () => {
    // stdout cut at its cap with 12 characters of the token.
    expect(redactCutEnd(`${'A'.repeat(50)}${TOKEN.slice(0, 12)}`, secrets)).toBe(`${'A'.repeat(50)}${REDACTED}`);
    expect(redactCutEnd(`xx ${TOKEN.slice(0, 4)}`, secrets)).toBe(`xx ${REDACTED}`);
    // Three characters are too common at an edge to be told from chance, and reveal little.
    expect(redactCutEnd(`xx ${TOKEN.slice(0, 3)}`, secrets)).toBe(`xx ${TOKEN.slice(0, 3)}`);
    // Its base64 form, cut, alike.
    const base64 = Buffer.from(TOKEN).toString('base64');
    expect(redactCutEnd(`said ${base64.slice(0, 10)}`, secrets)).toBe(`said ${REDACTED}`);
    // A cut through a multi-byte character after the fragment.
    expect(redactCutEnd(`said ${TOKEN.slice(0, 8)}\uFFFD`, secrets)).toBe(`said ${REDACTED}`);
    expect(redactCutEnd('nothing secret here', secrets)).toBe('nothing secret here');
  });

  test('a well-known key begun at the end is scrubbed though its pattern needs more characters', () => {
    expect(redactCutEnd('key: ghp_abc', [])).toBe(`key: ${REDACTED}`);
    expect(redactCutEnd('Authorization: Bearer ab', [])).toBe(`Authorization: ${REDACTED}`);
    expect(redactCutEnd('-----BEGIN RSA PRIVATE KEY-----\nMIIEow', [])).toBe(REDACTED);
    expect(redactCutEnd('the task', [])).toBe('the task');
  });

  test('a captured stream is scrubbed at its cut only when it was cut', () => {
    const cut = { text: `out ${TOKEN.slice(0, 12)}`, bytes: 500, truncated: true, sha256: 'a'.repeat(64) };
    expect(scrubbedCut(cut, secrets)).toEqual({ ...cut, text: `out ${REDACTED}` });
    const whole = { ...cut, truncated: false };
    expect(scrubbedCut(whole, secrets)).toBe(whole);
  });
});

describe('why a text is not JSON', () => {
  test('leaves out the excerpt V8 quotes, which is cut at a fixed length', () => {
    let error: unknown;
    try {
      JSON.parse(`{"a": ${TOKEN}BBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBB}`);
    } catch (thrown) {
      error = thrown;
    }
    expect((error as Error).message).toContain(TOKEN.slice(0, 8));
    expect(jsonParseProblem(error)).toBe("Unexpected token 'o' (not valid JSON)");
    expect(jsonParseProblem(new SyntaxError('Unexpected end of JSON input'))).toBe('Unexpected end of JSON input');
  });
});
