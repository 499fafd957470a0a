import { describe, expect, it } from 'vitest';
import {
  groupProblems,
  MAX_DISTINCT_PROBLEMS,
  problemForm,
  type ProblemParts,
} from '../../../src/evaluate/problem-groups.js';
import { MAX_FINDING_ATTEMPTS } from '../../../src/model/index.js';

interface Item {
  attempt: { arm: string; index: number };
  text: string;
  fixed?: string;
}

const partsOf = (item: Item): ProblemParts => ({ fixed: item.fixed ?? null, text: item.text, attempt: item.attempt });
const items = (texts: readonly string[]): Item[] =>
  texts.map((text, index) => ({ attempt: { arm: 'case', index }, text }));

describe('problemForm', () => {
  it('writes numbers, UUIDs and long hexadecimal ids as placeholders, and leaves words alone', () => {
    expect(problemForm('upstream failed on request 17 after 2.5 s')).toBe(
      'upstream failed on request <n> after <n>.<n> s',
    );
    expect(problemForm('session 0f8e2a1c-9b7d-4e3f-a2b1-c0d9e8f7a6b5 expired')).toBe('session <id> expired');
    expect(problemForm('token 9f86d081884c7d65 rejected')).toBe('token <id> rejected');
    // Words that happen to be hexadecimal letters only, and short hex, are words.
    expect(problemForm('deadbeef cafe fed')).toBe('deadbeef cafe fed');
    expect(problemForm('no digits here')).toBe('no digits here');
  });
});

describe('groupProblems', () => {
  it('tells up to MAX_DISTINCT_PROBLEMS problems apart by their exact text, in the order first seen', () => {
    const texts = Array.from({ length: MAX_DISTINCT_PROBLEMS }, (_, i) => `HTTP ${500 + i}`);
    const { groups, others } = groupProblems(items([...texts, ...texts]), partsOf);
    expect(others).toBeNull();
    expect(groups.map((g) => [g.about, g.texts, g.attemptCount])).toEqual(texts.map((t) => [t, 1, 2]));
  });

  it('groups by form past that, so one problem naming its request each time is one group, its attempts capped', () => {
    const texts = Array.from({ length: 5000 }, (_, i) => `upstream failed on request ${i + 1}`);
    const { groups, others } = groupProblems(items(texts), partsOf);
    expect(others).toBeNull();
    expect(groups).toHaveLength(1);
    const [group] = groups;
    expect(group?.about).toBe('upstream failed on request <n>');
    expect(group?.texts).toBe(5000);
    expect(group?.attemptCount).toBe(5000);
    expect(group?.attempts).toHaveLength(MAX_FINDING_ATTEMPTS);
    expect(group?.first.text).toBe('upstream failed on request 1');
  });

  it('keeps the most frequent forms and gathers the rest into one, counting every attempt once', () => {
    // 30 forms without numbers: form k appears k + 1 times; attempt 0 also has a second problem of a gathered form.
    const words = Array.from({ length: 30 }, (_, k) => `failure ${String.fromCharCode(97 + (k % 26))}${'x'.repeat(k)}`);
    const list: Item[] = [];
    let index = 0;
    for (const [k, word] of words.entries())
      for (let n = 0; n <= k; n += 1) list.push({ attempt: { arm: 'case', index: index++ }, text: word });
    const first = list[0] as Item;
    list.splice(1, 0, { attempt: first.attempt, text: words[1] as string });
    const { groups, others } = groupProblems(list, partsOf);
    expect(groups).toHaveLength(MAX_DISTINCT_PROBLEMS - 1);
    // The 9 most frequent (forms 21…29), in the order first seen.
    expect(groups.map((g) => g.about)).toEqual(words.slice(21));
    expect(others?.texts).toBe(21);
    const gatheredAttempts = index - groups.reduce((sum, g) => sum + g.attemptCount, 0);
    // Attempt 0's two gathered problems count once.
    expect(others?.attemptCount).toBe(gatheredAttempts);
    expect(others?.first.text).toBe(words[0]);
    expect(others?.attempts.map((a) => a.index)).toEqual(Array.from({ length: MAX_FINDING_ATTEMPTS }, (_, i) => i));
  });

  it('keeps the fixed part exact: the same target under two actions is two problems', () => {
    const list: Item[] = [
      { attempt: { arm: 'case', index: 0 }, fixed: 'deleted', text: 'notes/1.txt' },
      { attempt: { arm: 'case', index: 1 }, fixed: 'created', text: 'notes/1.txt' },
    ];
    expect(groupProblems(list, partsOf).groups.map((g) => g.about)).toEqual([
      'deleted\u0000notes/1.txt',
      'created\u0000notes/1.txt',
    ]);
  });

  it('counts an attempt once however many of its items fall in one group, and its wordings apart', () => {
    const attempt = { arm: 'case', index: 3 };
    const { groups } = groupProblems(
      [
        { fixed: null, text: 'bags', attempt, wording: 'Bags added.' },
        { fixed: null, text: 'bags', attempt, wording: 'Bags added!' },
      ],
      (parts: ProblemParts) => parts,
    );
    expect(groups.map((g) => [g.attemptCount, g.attempts, g.wordings])).toEqual([[1, [attempt], 2]]);
  });
});
