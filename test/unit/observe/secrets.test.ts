import { describe, expect, test } from 'vitest';
import {
  looksSecret,
  REDACTED,
  redactData,
  redactText,
  redactVariable,
  secretValues,
} from '../../../src/observe/secrets.js';

describe('secrets', () => {
  test.each([
    ['OPENAI_API_KEY', 'x'],
    ['GITHUB_TOKEN', 'x'],
    ['DB_PASSWORD', 'x'],
    ['client_secret', 'x'],
    ['GOOGLE_APPLICATION_CREDENTIALS', 'x'],
    ['ANYTHING', 'sk-abc'],
    ['ANYTHING', 'ghp_abc'],
    ['ANYTHING', 'AKIAABCDEFGHIJKLMNOP'],
    ['ANYTHING', 'eyJhbGciOi'],
  ])('%s=%s looks secret', (name, value) => {
    expect(looksSecret(name, value)).toBe(true);
    expect(redactVariable(name, value)).toMatch(/^\[redacted [0-9a-f]{12}\]$/);
  });

  test('a secret variable keeps its name and a fingerprint that changes with the value, never the value', () => {
    const url = 'postgres://admin:hunter2-hunter2@db.internal:5432/app';
    expect(looksSecret('DATABASE_URL', url)).toBe(true);
    expect(looksSecret('DATABASE_URL', 'postgres://db.internal:5432/app')).toBe(false);
    const kept = redactVariable('DATABASE_URL', url);
    expect(kept).not.toContain('hunter2');
    expect(kept).toBe(redactVariable('DATABASE_URL', url));
    expect(kept).not.toBe(redactVariable('DATABASE_URL', url.replace('hunter2-', 'hunter3-')));
  });

  test('credentials in URLs, Authorization values and known token formats are redacted inside any text', () => {
    const cases: [string, string][] = [
      ['connect postgres://admin:pa55word@host/db now', `connect postgres://${REDACTED}@host/db now`],
      ['clone https://ghtoken123@github.com/x.git', `clone https://${REDACTED}@github.com/x.git`],
      ['Authorization: Bearer abc.def.ghi-123', `Authorization: Bearer ${REDACTED}`],
      ['{"authorization":"Basic dXNlcjpwYXNz"}', `{"authorization":"Basic ${REDACTED}"}`],
      ['x-api-key=abcd1234efgh', `x-api-key=${REDACTED}`],
      ['sent Bearer abcdefgh12345678 upstream', `sent Bearer ${REDACTED} upstream`],
      ['xoxb-1234567890-abcdefghij', REDACTED],
      ['id AKIAABCDEFGHIJKLMNOP.', `id ${REDACTED}.`],
      ['jwt eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.sig', `jwt ${REDACTED}`],
    ];
    for (const [text, redacted] of cases) expect(redactText(text, [])).toBe(redacted);
    expect(redactText('see https://example.com/a@b and mail me@example.com', [])).toBe(
      'see https://example.com/a@b and mail me@example.com',
    );
  });

  test('the password of a secret connection string is scrubbed on its own too, and header values by their key', () => {
    const secrets = secretValues({ DATABASE_URL: 'postgres://admin:hunter2-hunter2@host/db' });
    expect(redactText('the password is hunter2-hunter2', secrets)).toBe(`the password is ${REDACTED}`);
    expect(redactData({ headers: { Authorization: 'opaque', 'X-Trace': 'keep' } }, [])).toEqual({
      headers: { Authorization: REDACTED, 'X-Trace': 'keep' },
    });
  });

  test('ordinary variables are kept', () => {
    expect(redactVariable('NODE_ENV', 'production')).toBe('production');
    expect(redactVariable('CI', 'true')).toBe('true');
  });

  test('secretValues: values of secret-looking variables, long enough to replace safely, longest first', () => {
    const values = secretValues({
      API_KEY: 'short',
      TOKEN: 'abcdefgh',
      OTHER_TOKEN: 'abcdefghij',
      PLAIN: 'not-a-secret-at-all',
      GONE: undefined,
    });
    // Each value and its encodings (base64 unpadded, which base64url equals here, and hex in either case).
    const hex = ['6162636465666768696a', '6162636465666768'];
    expect([...values].sort()).toEqual(
      [
        ...new Set([
          'abcdefghij',
          'abcdefgh',
          'YWJjZGVmZ2hpag',
          'YWJjZGVmZ2g',
          ...hex,
          ...hex.map((h) => h.toUpperCase()),
        ]),
      ].sort(),
    );
    expect(values.map((v) => v.length)).toEqual([...values.map((v) => v.length)].sort((a, b) => b - a));
  });

  test('a secret written another way is scrubbed too: base64, base64url, hex, and a key’s body without its prefix', () => {
    const key = 'sk-live-abcdef1234567890';
    const secrets = secretValues({ RIDDLE_AUDIT_TOKEN: key });
    const bytes = Buffer.from(key);
    for (const written of [
      bytes.toString('base64'),
      bytes.toString('base64url'),
      bytes.toString('hex'),
      bytes.toString('hex').toUpperCase(),
      'live-abcdef1234567890',
    ]) {
      const scrubbed = redactText(`the key is ${written} there`, secrets);
      expect(scrubbed, written).not.toContain(written.replace(/=+$/, ''));
    }
  });

  test('redactText replaces known values and key-shaped strings, and leaves ordinary words alone', () => {
    expect(redactText('token=hunter2hunter2; ok', ['hunter2hunter2'])).toBe(`token=${REDACTED}; ok`);
    expect(redactText('key sk-proj-ABCDEFGHIJKLMNOPQRST end', [])).toBe(`key ${REDACTED} end`);
    expect(redactText('ghp_0123456789abcdefghijABCD', [])).toBe(REDACTED);
    expect(redactText('task-management-system-overview and ask-me-anything-questions', [])).toBe(
      'task-management-system-overview and ask-me-anything-questions',
    );
  });

  test('redactData walks values and keys, and never touches sha256 digests', () => {
    const digest = 'ab'.repeat(32);
    const data = {
      text: 'x hunter2hunter2 y',
      list: ['hunter2hunter2'],
      hunter2hunter2: 1,
      n: 3,
      nil: null,
      digest,
      prefixed: `sha256:${digest}`,
    };
    expect(redactData(data, ['hunter2hunter2', 'abababab'])).toEqual({
      text: `x ${REDACTED} y`,
      list: [REDACTED],
      [REDACTED]: 1,
      n: 3,
      nil: null,
      digest,
      prefixed: `sha256:${digest}`,
    });
  });

  test('credential members are replaced every time their names are met, and the copy shares nothing with the data', () => {
    const data = () => ({
      password: 'p',
      Authorization: 'x',
      headers: { cookie: 'c', accept: '*/*' },
      token: { id: 1 },
    });
    const expected = {
      password: REDACTED,
      Authorization: REDACTED,
      headers: { cookie: REDACTED, accept: '*/*' },
      token: { id: 1 },
    };
    // The second and third time under the same secrets the names are known: what they were found to be still decides.
    const secrets = ['hunter2hunter2'];
    for (let round = 0; round < 3; round += 1) expect(redactData(data(), secrets)).toEqual(expected);
    const given = data();
    const copy = redactData(given, secrets);
    given.headers.accept = 'changed';
    given.token.id = 2;
    expect(copy).toEqual(expected);
  });

  test('a member name clean under some secrets is checked again under others', () => {
    const record = { rounds: [{ reply: 'ok' }], token_ok: 1 };
    const secrets = ['hunter2hunter2'];
    expect(redactData(record, secrets)).toEqual(record);
    expect(redactData(record, secrets)).toEqual(record);
    // The same names, now holding a secret value: the names found clean before are not taken on trust.
    expect(redactData(record, ['rounds'])).toEqual({ [REDACTED]: [{ reply: 'ok' }], token_ok: 1 });
    expect(redactData({ rounds: 1 }, secrets)).toEqual({ rounds: 1 });
  });

  test('every credential shape is replaced inside text, whatever its case (text without one is passed over)', () => {
    const shapes = [
      'sk-abcdefghijklmnop1234',
      'sk_live_abcdefghijklmnop1234',
      'ghp_abcdefghijklmnopqrstuvwx',
      'github_pat_abcdefghijklmnopqrstuvwx',
      'xoxb-1234567890-abc',
      'AKIAABCDEFGHIJKLMNOP',
      'ASIAABCDEFGHIJKLMNOP',
      'AIzaabcdefghijklmnopqrstuvwxyz0123456',
      'glpat-abcdefghijklmnopqrstu',
      'hf_abcdefghijklmnopqrstuvwx',
      'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.sig',
      '-----BEGIN RSA PRIVATE KEY-----\nabc\n-----END RSA PRIVATE KEY-----',
    ];
    for (const shape of shapes) expect(redactText(`found ${shape} here`, [])).toBe(`found ${REDACTED} here`);
    expect(redactText('postgres://admin:hunter2hunter2@db:5432/app', [])).not.toContain('hunter2');
    expect(redactText('AUTHORIZATION: Bearer abcdefgh12345678', [])).not.toContain('abcdefgh12345678');
    expect(redactText('"X-Api-Key": "abcdefgh12345678"', [])).not.toContain('abcdefgh12345678');
    expect(redactText('Cookie: session=abcdefgh12345678', [])).not.toContain('abcdefgh12345678');
    expect(redactText('sent with Basic dXNlcjpwYXNzd29yZA==', [])).not.toContain('dXNlcjpwYXNzd29yZA==');
    expect(redactText('an ordinary reply: 42 files, nothing secret', [])).toBe(
      'an ordinary reply: 42 files, nothing secret',
    );
  });

  test("a subject's `__proto__` member stays an own member of the redacted copy, never its prototype", () => {
    // JSON.parse makes `__proto__` an own member; a copy made by assignment set the prototype instead, so checks
    // reading the copy saw `approved` while the record (its own members) held nothing of it.
    const data = JSON.parse('{"reply":"ok","__proto__":{"approved":true,"token":"sk-live-0123456789abcdefghij"}}');
    const copy = redactData(data, ['sk-live-0123456789abcdefghij']) as Record<string, unknown>;
    expect(Object.getPrototypeOf(copy)).toBe(Object.prototype);
    expect(copy.approved).toBeUndefined();
    expect(Object.keys(copy)).toEqual(['reply', '__proto__']);
    expect(JSON.stringify(copy)).toBe(`{"reply":"ok","__proto__":{"approved":true,"token":"${REDACTED}"}}`);
  });
});
