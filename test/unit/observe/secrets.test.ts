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
    expect(redactVariable(name, value)).toBe(REDACTED);
  });

  test('ordinary variables are kept', () => {
    expect(redactVariable('NODE_ENV', 'production')).toBe('production');
    expect(redactVariable('CI', 'true')).toBe('true');
  });

  test('secretValues: values of secret-looking variables, long enough to replace safely, longest first', () => {
    expect(
      secretValues({
        API_KEY: 'short',
        TOKEN: 'abcdefgh',
        OTHER_TOKEN: 'abcdefghij',
        PLAIN: 'not-a-secret-at-all',
        GONE: undefined,
      }),
    ).toEqual(['abcdefghij', 'abcdefgh']);
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
});
