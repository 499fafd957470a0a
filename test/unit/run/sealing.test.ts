import { describe, expect, test } from 'vitest';
import { resolveTrial } from '../../../src/run/index.js';
import { SEALED, sealedScrubber, withholdSealedMessages } from '../../../src/run/sealing.js';
import { attempt } from '../builders.js';

const PROMPT = 'Zorblax quintessa vemorth 4471? canary:91ab77ce-qwfp';
const scrub = sealedScrubber([PROMPT, 'Lisbon']);

/** Every run of 8 characters of the prompt, case-folded: none may survive scrubbing. */
const windows = (text: string) => Array.from({ length: text.length - 7 }, (_, i) => text.slice(i, i + 8).toLowerCase());
const leaked = (text: string) => windows(PROMPT).filter((w) => text.toLowerCase().includes(w));

describe('sealed scrubbing', () => {
  test('a truncated assertion diff keeps no fragment of 8 or more characters, in any case', () => {
    const diff = `expected 'You asked: ${PROMPT.slice(0, 28)}…' to be 'Lisbon' // Object.is equality`;
    const out = scrub(diff);
    expect(leaked(out)).toEqual([]);
    expect(out).toBe(`expected 'You asked: ${SEALED}…' to be '${SEALED}' // Object.is equality`);
    expect(leaked(scrub(`ECHO: ${PROMPT.slice(8, 30).toUpperCase()}!`))).toEqual([]);
  });

  test('base64 and hex forms of the whole are scrubbed, and so are parts of them', () => {
    const base64 = Buffer.from(PROMPT).toString('base64');
    const hex = Buffer.from(PROMPT).toString('hex');
    expect(scrub(`b64 ${base64} hex ${hex.toUpperCase()} part ${base64.slice(4, 20)}`)).toBe(
      `b64 ${SEALED} hex ${SEALED} part ${SEALED}`,
    );
  });

  test('ordinary text, short shared words and sha256 digests stay', () => {
    const digest = `sha256:${'ab'.repeat(32)}`;
    expect(scrub({ note: 'the quick brown fox: 4471?', digest, n: 3 })).toEqual({
      note: 'the quick brown fox: 4471?',
      digest,
      n: 3,
    });
  });

  test("a sealed arm's assertion messages are replaced by their outcome alone", () => {
    const record = attempt('case', 0, 'FAIL');
    const withMessages = {
      ...record,
      criteria: [
        {
          criterion: 'correct',
          result: 'unmet' as const,
          label: null,
          grade: 'text' as const,
          coveredBy: [],
          reason: `expected '${PROMPT}' to contain 'Lisbon'`,
          overruled: [],
          uncovered: null,
        },
      ],
    };
    const withheld = withholdSealedMessages(withMessages);
    expect(withheld.criteria[0]?.reason).toBe('unmet (sealed: the message is withheld)');
    expect(JSON.stringify(withheld)).not.toContain('Lisbon');
  });

  test('a sealed Case without RIDDLE_SEAL_SALT is a declaration error saying what to set', () => {
    const declaration = {
      subject: () => 'x',
      rubric: { criteria: { ok: 'ok' } },
      checks: { ok: () => undefined },
      case: { input: PROMPT, expect: ['ok'], sealed: true },
    };
    const site = { name: 'sealed', file: 'a.test.ts', path: [] };
    expect(() => resolveTrial(site, declaration, { passOn: null, sealSalt: '' })).toThrow(
      /trial "sealed" \(a\.test\.ts\): case\.sealed: a sealed Case needs RIDDLE_SEAL_SALT/,
    );
    expect(() => resolveTrial(site, declaration, { passOn: null, sealSalt: 's' })).not.toThrow();
  });
});
