import { closeSync, openSync } from 'node:fs';
import { setOwnMember } from '../model/index.js';
import { LineReader } from './line-reader.js';
import { hasNoJson, isPlainObject, jsonValue } from './pretty-json.js';

/**
 * Items (or members) from which a list is written a line at a time: an Outcome's arms, cost rows and order run, a
 * suite record's rows, the pinned Cases' fingerprints.
 */
const LONG_LIST = 64;

/** Bytes read at a time. */
const READ_BYTES = 1 << 20;

/** A long list left empty in the first line: where it is (member names and indexes from the top), what, how long. */
type ListPlace = [path: (string | number)[], kind: 'array' | 'object', count: number];

/** The members of an object that have JSON, as JSON.stringify writes them (names in order, values through toJSON). */
function jsonMembers(value: object): [string, unknown][] {
  const members: [string, unknown][] = [];
  for (const key of Object.keys(value)) {
    const member = jsonValue((value as Record<string, unknown>)[key], key);
    if (!hasNoJson(member)) members.push([key, member]);
  }
  return members;
}

/** A long list found by `outline`: its place, and the list itself (through toJSON) whose lines follow. */
interface FoundList {
  place: ListPlace;
  list: object;
}

/** `value` (already through toJSON) as compact JSON with each long list left empty and noted in `lists`. */
function outline(value: unknown, path: (string | number)[], lists: FoundList[]): string {
  if (typeof value !== 'object' || value === null || (!Array.isArray(value) && !isPlainObject(value)))
    return JSON.stringify(value);
  if (Array.isArray(value)) {
    if (value.length >= LONG_LIST) {
      lists.push({ place: [path, 'array', value.length], list: value });
      return '[]';
    }
    const items = value.map((item, i) => {
      const json = jsonValue(item, String(i));
      return hasNoJson(json) ? 'null' : outline(json, [...path, i], lists);
    });
    return `[${items.join(',')}]`;
  }
  const members = jsonMembers(value);
  if (members.length >= LONG_LIST) {
    lists.push({ place: [path, 'object', members.length], list: value });
    return '{}';
  }
  return `{${members.map(([key, member]) => `${JSON.stringify(key)}:${outline(member, [...path, key], lists)}`).join(',')}}`;
}

/** The list at `path` in `value`. */
function listAt(value: unknown, path: readonly (string | number)[]): unknown {
  let at = value;
  for (const step of path) at = (at as Record<string | number, unknown>)[step];
  return at;
}

/**
 * A JSON value as lines JSON.parse reads one at a time (`readSplitJson`), so neither side holds its whole text: line 1
 * is its compact JSON with every long list (an array of LONG_LIST items or an object of as many members, at any depth
 * outside another long list) left empty; line 2 lists their places (`ListPlace`), in the order their lines follow;
 * then each list's items, a line each (a member as `[name, value]`). Read back, it is `JSON.parse(JSON.stringify(value))`.
 * A file of one text read whole was the reporter's largest allocation for a suite of thousands of rows, garbage as
 * soon as parsed and not collected for seconds.
 */
export function* splitJsonLines(value: unknown): Generator<string, void, undefined> {
  const lists: FoundList[] = [];
  const top = jsonValue(value, '');
  yield `${hasNoJson(top) ? 'null' : outline(top, [], lists)}\n`;
  yield `${JSON.stringify(lists.map((found) => found.place))}\n`;
  for (const { place, list } of lists) {
    if (place[1] === 'array')
      for (const [i, item] of (list as unknown[]).entries()) {
        const json = jsonValue(item, String(i));
        yield `${hasNoJson(json) ? 'null' : JSON.stringify(json)}\n`;
      }
    else for (const member of jsonMembers(list)) yield `${JSON.stringify(member)}\n`;
  }
}

/** A file `splitJsonLines` wrote does not read back whole: cut short, or not such a file. */
export class SplitJsonError extends Error {}

/** What has been read of a file `splitJsonLines` wrote. */
interface Reading {
  top: unknown;
  /** The places of its long lists, once its second line is read. */
  lists: ListPlace[] | null;
  line: number;
  /** The list being filled, where its items go, and how many of its lines are still to come. */
  list: number;
  into: unknown;
  left: number;
  items: number;
}

/** Put together what `splitJsonLines` wrote into `file`, reading it a chunk at a time. */
export function readSplitJson(file: string): unknown {
  const reading: Reading = { top: null, lists: null, line: 0, list: -1, into: null, left: 0, items: 0 };
  const fd = openSync(file, 'r');
  try {
    const lines = new LineReader(fd, READ_BYTES, READ_BYTES);
    while (lines.next((text) => take(reading, text, file)));
  } finally {
    closeSync(fd);
  }
  const expected = (reading.lists ?? []).reduce((sum, [, , count]) => sum + count, 0);
  if (reading.lists === null || reading.items !== expected)
    throw new SplitJsonError(
      `${file} ends after ${reading.line} lines: ${reading.items} of the ${expected} list lines it announces`,
    );
  return reading.top;
}

function take(reading: Reading, text: string, file: string): void {
  reading.line += 1;
  if (text === '') return;
  const value: unknown = JSON.parse(text);
  if (reading.line === 1) reading.top = value;
  else if (reading.line === 2) {
    if (!Array.isArray(value)) throw new SplitJsonError(`${file}:2 does not list the places of long lists`);
    reading.lists = value as ListPlace[];
  } else {
    while (reading.left === 0) {
      reading.list += 1;
      const place = reading.lists?.[reading.list];
      if (place === undefined) throw new SplitJsonError(`${file}:${reading.line} is past the last list's items`);
      reading.into = listAt(reading.top, place[0]);
      reading.left = place[2];
    }
    if (Array.isArray(reading.into)) reading.into.push(value);
    else {
      const [key, member] = value as [string, unknown];
      setOwnMember(reading.into as Record<string, unknown>, key, member);
    }
    reading.left -= 1;
    reading.items += 1;
  }
}
