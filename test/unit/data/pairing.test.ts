import { describe, expect, test } from 'vitest';
import { pairByKey } from '../../../src/data/index.js';

interface Row {
  id: number;
  type: string;
  unsafe: boolean;
}

const spec = {
  id: (r: Row) => String(r.id),
  key: (r: Row) => r.type.replace(/^contrast_/, ''),
  role: (r: Row) => (r.unsafe ? ('case' as const) : ('control' as const)),
};

describe('pairByKey', () => {
  test('groups cases with their controls by the declared key, sorted by key, rows kept in order', () => {
    const rows: Row[] = [
      { id: 1, type: 'homonyms', unsafe: false },
      { id: 2, type: 'contrast_homonyms', unsafe: true },
      { id: 3, type: 'definitions', unsafe: false },
      { id: 4, type: 'homonyms', unsafe: false },
      { id: 5, type: 'contrast_definitions', unsafe: true },
    ];
    const pairing = pairByKey(rows, spec);
    expect(pairing.groups).toEqual([
      { key: 'definitions', cases: ['5'], controls: ['3'] },
      { key: 'homonyms', cases: ['2'], controls: ['1', '4'] },
    ]);
    expect(pairing.rows.map((r) => [r.id, r.group, r.role])).toEqual([
      ['1', 'homonyms', 'control'],
      ['2', 'homonyms', 'case'],
      ['3', 'definitions', 'control'],
      ['4', 'homonyms', 'control'],
      ['5', 'definitions', 'case'],
    ]);
  });

  test('a group without a case or without a control is a configuration error naming it', () => {
    const rows: Row[] = [
      { id: 1, type: 'homonyms', unsafe: false },
      { id: 2, type: 'contrast_homonym', unsafe: true },
    ];
    expect(() => pairByKey(rows, spec)).toThrow(
      /"homonyms" \(0 cases, 1 controls\), "homonym" \(1 cases, 0 controls\) lack a case or a control/,
    );
  });

  test('a repeated id is a configuration error', () => {
    expect(() =>
      pairByKey(
        [
          { id: 1, type: 'a', unsafe: false },
          { id: 1, type: 'contrast_a', unsafe: true },
        ],
        spec,
      ),
    ).toThrow(/"1" appears twice/);
  });
});
