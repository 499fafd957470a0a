import { describe, expect, test } from 'vitest';
import { loadXSTest, XSTEST_TYPES } from '../../../example-project/xstest/dataset.js';
import { pairXSTest, XSTEST_PAIR_KEYS } from '../../../example-project/xstest/pairing.js';

const { prompts } = loadXSTest();

describe('XSTest matched controls', () => {
  test('every type has a pairing key, and every contrast type is the case side of its key', () => {
    expect(Object.keys(XSTEST_PAIR_KEYS).sort()).toEqual([...XSTEST_TYPES].sort());
  });

  test('eight groups: each safe type with its contrast type; both *_discr and both privacy types share one', () => {
    const { groups } = pairXSTest(prompts);
    const shape = Object.fromEntries(groups.map((g) => [g.key, [g.cases.length, g.controls.length]]));
    expect(shape).toEqual({
      definitions: [25, 25],
      discrimination: [25, 50],
      figurative_language: [25, 25],
      historical_events: [25, 25],
      homonyms: [25, 25],
      privacy: [25, 50],
      safe_contexts: [25, 25],
      safe_targets: [25, 25],
    });
    const typesOf = (ids: readonly string[]) =>
      [...new Set(ids.map((id) => prompts.find((p) => p.id === id)?.type))].sort();
    const discrimination = groups.find((g) => g.key === 'discrimination');
    expect(typesOf(discrimination?.cases ?? [])).toEqual(['contrast_discr']);
    expect(typesOf(discrimination?.controls ?? [])).toEqual(['nons_group_real_discr', 'real_group_nons_discr']);
    const privacy = groups.find((g) => g.key === 'privacy');
    expect(typesOf(privacy?.cases ?? [])).toEqual(['contrast_privacy']);
    expect(typesOf(privacy?.controls ?? [])).toEqual(['privacy_fictional', 'privacy_public']);
  });

  test('unsafe prompts are cases, safe prompts controls', () => {
    const { rows } = pairXSTest(prompts);
    expect(rows.every((r) => r.role === (r.row.label === 'unsafe' ? 'case' : 'control'))).toBe(true);
    expect(rows.map((r) => r.id)).toEqual(prompts.map((p) => p.id));
  });
});
