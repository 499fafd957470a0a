// Type-level tests, checked by `npm run typecheck` (tsc covers test/): a misnamed criterion or option in a trial
// declaration is a compile error for TypeScript users; every `@ts-expect-error` below fails the typecheck if the
// error it expects goes away.
import { expectTypeOf } from 'vitest';
import type { z } from 'zod';
import type { SuiteDeclaration, TrialDeclaration } from '../../../src/run/index.js';
import type { SuiteDeclarationSchema, TrialDeclarationSchema } from '../../../src/run/declaration-schema.js';
import type { Trial } from '../../../src/vitest/trial.js';

declare const trial: Trial;
const subject = async () => 'an answer';
const rubric = {
  criteria: { answers: 'gives the answer', declines: { description: 'declines', needs: 'text' } },
} as const;

export function declarations(): void {
  trial('criteria names typed', {
    subject,
    rubric,
    checks: { answers: () => undefined },
    case: { input: 'q', expect: ['answers'], forbid: ['declines'] },
  });
  trial('an expected criterion the rubric lacks', {
    subject,
    rubric,
    // @ts-expect-error "answrs" is not a criterion of the rubric
    case: { input: 'q', expect: ['answrs'] },
  });
  trial('a forbidden criterion the rubric lacks', {
    subject,
    rubric,
    // @ts-expect-error "declined" is not a criterion of the rubric
    case: { input: 'q', expect: ['answers'], forbid: ['declined'] },
  });
  trial('a check for a criterion the rubric lacks', {
    subject,
    rubric,
    // @ts-expect-error "answer" is not a criterion of the rubric
    checks: { answer: () => undefined },
    case: { input: 'q', expect: ['answers'] },
  });
  trial('a misspelt option', {
    subject,
    rubric,
    case: { input: 'q', expect: ['answers'] },
    // @ts-expect-error misspelt: repeat
    repet: { n: 3 },
  });
  trial.suite('suite cases typed too', {
    subject,
    rubric,
    // @ts-expect-error "refuses" is not a criterion of the rubric
    cases: [{ id: 'a', role: 'case', input: 'q', expect: ['refuses'] }],
  });
}

// The schema that checks declarations at run time knows exactly the options the types declare.
expectTypeOf<keyof z.input<typeof TrialDeclarationSchema>>().toEqualTypeOf<keyof TrialDeclaration>();
expectTypeOf<keyof z.input<typeof SuiteDeclarationSchema>>().toEqualTypeOf<keyof SuiteDeclaration>();
