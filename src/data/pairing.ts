import type { ArmRole } from '../model/index.js';

/** How rows of a dataset are matched: rows sharing a key are one group of cases and their controls. */
export interface PairingSpec<R> {
  /** The row's Case id, unique in the dataset. */
  id(row: R): string;
  /** The pairing key: every row with the same key belongs to one matched group. */
  key(row: R): string;
  /** `case`: the trap under test; `control`: its matched control. */
  role(row: R): ArmRole;
}

/** One matched group: case ids and control ids, in dataset order. */
export interface PairGroup {
  key: string;
  cases: string[];
  controls: string[];
}

/** A row with its id, pairing key and role resolved. */
export interface PairedRow<R> {
  row: R;
  id: string;
  group: string;
  role: ArmRole;
}

export interface Pairing<R> {
  rows: PairedRow<R>[];
  /** Groups sorted by key. */
  groups: PairGroup[];
}

/**
 * Match a dataset's cases with their controls by a declared key. Throws (a configuration mistake, before anything
 * runs) on a repeated id or on a group that lacks either side, since such a group cannot judge discrimination.
 */
export function pairByKey<R>(rows: readonly R[], spec: PairingSpec<R>): Pairing<R> {
  const paired: PairedRow<R>[] = [];
  const groups = new Map<string, PairGroup>();
  const ids = new Set<string>();
  for (const row of rows) {
    const id = spec.id(row);
    if (ids.has(id)) throw new Error(`pairByKey: case id "${id}" appears twice; ids must be unique in a dataset`);
    ids.add(id);
    const entry: PairedRow<R> = { row, id, group: spec.key(row), role: spec.role(row) };
    paired.push(entry);
    const group = groups.get(entry.group) ?? { key: entry.group, cases: [], controls: [] };
    (entry.role === 'case' ? group.cases : group.controls).push(id);
    groups.set(entry.group, group);
  }
  const lopsided = [...groups.values()].filter((g) => g.cases.length === 0 || g.controls.length === 0);
  if (lopsided.length) {
    const list = lopsided.map((g) => `"${g.key}" (${g.cases.length} cases, ${g.controls.length} controls)`).join(', ');
    throw new Error(
      `pairByKey: ${list} lack${lopsided.length === 1 ? 's' : ''} a case or a control; map each row's key so every group has both`,
    );
  }
  return { rows: paired, groups: [...groups.values()].sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0)) };
}
