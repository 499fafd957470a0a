import { afterEach, describe, expect, test } from 'vitest';
import { processSecretValues, refreshProcessSecretValues } from '../../../src/observe/secrets.js';

describe("process.env's secret values at each trial's start", () => {
  afterEach(() => {
    delete process.env.RIDDLE_SECRETS_KEPT_TOKEN;
    delete process.env.RIDDLE_SECRETS_KEPT_PLAIN;
  });

  test('are the same list while the variables are unchanged, and read again as soon as one changes', () => {
    const first = refreshProcessSecretValues();
    // Unchanged variables: the list read at the previous trial's start, not a new reading.
    expect(refreshProcessSecretValues()).toBe(first);
    expect(processSecretValues()).toBe(first);

    process.env.RIDDLE_SECRETS_KEPT_TOKEN = 'kept-token-value-0001';
    const withToken = refreshProcessSecretValues();
    expect(withToken).not.toBe(first);
    expect(withToken).toContain('kept-token-value-0001');

    // Only the value changes: still read again.
    process.env.RIDDLE_SECRETS_KEPT_TOKEN = 'kept-token-value-0002';
    const changed = refreshProcessSecretValues();
    expect(changed).toContain('kept-token-value-0002');
    expect(changed).not.toContain('kept-token-value-0001');

    // A variable that is not secret changes the text: read again, same secrets.
    process.env.RIDDLE_SECRETS_KEPT_PLAIN = 'plain';
    expect(refreshProcessSecretValues()).toEqual(changed);

    delete process.env.RIDDLE_SECRETS_KEPT_TOKEN;
    expect(refreshProcessSecretValues()).not.toContain('kept-token-value-0002');
  });
});
