import { describe, expect, it } from 'vitest';
import { resolveTrial, TrialDeclarationError, type TrialDeclaration } from '../../../src/run/index.js';

/** A declaration that counts how often its options are read (schema checks read every one). */
function counted() {
  const reads = { repeat: 0 };
  const declaration = {
    subject: (input: unknown) => `Sure: ${String(input)}`,
    revision: 'once@1',
    rubric: { criteria: { answers: { description: 'answers', needs: 'text' as const } } },
    checks: { answers: () => undefined },
    case: { input: 'q', expect: ['answers'] },
    get repeat() {
      reads.repeat += 1;
      return { n: 3, stop: 'fixed' as const };
    },
  } satisfies TrialDeclaration;
  return { declaration, reads };
}

const atCollection = { name: 'once', file: 'once.test.ts', path: [], line: 4 };
const atRun = { name: 'once', file: 'once.test.ts', path: ['outer', 'inner'], line: 4 };

describe('resolving a trial at collection and again when it runs', () => {
  it('reads and checks the declaration once; the second resolution takes the suite path of its site', () => {
    const { declaration, reads } = counted();
    const first = resolveTrial(atCollection, declaration);
    const readAtCollection = reads.repeat;
    expect(readAtCollection).toBeGreaterThan(0);
    const second = resolveTrial(atRun, declaration);
    expect(reads.repeat).toBe(readAtCollection);
    expect(first.suite.id).toBe('once.test.ts > once');
    expect(second.suite.id).toBe('once.test.ts > outer > inner > once');
    expect({ ...second.suite, id: first.suite.id }).toEqual(first.suite);
    expect(second.rubric).toEqual(first.rubric);
    expect(second.budgetMs).toBe(first.budgetMs);
  });

  it('resolves anew for another trial name, file or project settings', () => {
    const { declaration, reads } = counted();
    resolveTrial(atCollection, declaration);
    let seen = reads.repeat;
    const renamed = resolveTrial({ ...atCollection, name: 'twice' }, declaration);
    expect(reads.repeat).toBeGreaterThan(seen);
    expect(renamed.suite.name).toBe('twice');
    seen = reads.repeat;
    resolveTrial({ ...atCollection, file: 'other.test.ts' }, declaration);
    expect(reads.repeat).toBeGreaterThan(seen);
    seen = reads.repeat;
    const strict = resolveTrial(atCollection, declaration, { passOn: ['PASS', 'PARTIAL'], sealSalt: '' });
    expect(reads.repeat).toBeGreaterThan(seen);
    expect(strict.suite.aggregation.passOn).toEqual(['PASS', 'PARTIAL']);
  });

  it('keeps failing a malformed declaration every time (nothing is kept from a failed resolution)', () => {
    const declaration = { ...counted().declaration, case: { input: 'q', expect: ['answerz'] } };
    for (let i = 0; i < 2; i += 1)
      expect(() => resolveTrial(atCollection, declaration as TrialDeclaration)).toThrow(TrialDeclarationError);
  });
});
