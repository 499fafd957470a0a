import { describe, expect, it } from 'vitest';
import { commandSubject } from '../../../src/observe/index.js';
import { resolveTrial } from '../../../src/run/index.js';

const site = { name: 'revision trial', file: 'r.test.ts', path: [] };
const declaration = (revision?: string) => ({
  subject: commandSubject({
    name: 'echo-agent',
    command: process.execPath,
    args: ['-e', 'process.stdout.write("hi")'],
  }),
  ...(revision === undefined ? {} : { revision }),
  rubric: { criteria: { answers: { description: 'answers', needs: 'text' as const } } },
  checks: { answers: () => undefined },
  case: { input: 'q', expect: ['answers'] },
});

describe('a declared revision beside a command subject', () => {
  it('wins over the revision the subject resolves itself, and nothing else of the subject changes', async () => {
    const declared = resolveTrial(site, declaration('agent@7')).subject;
    await expect(declared.identify()).resolves.toMatchObject({
      kind: 'command',
      name: 'echo-agent',
      revision: 'agent@7',
      revisionSource: 'declared',
    });
    expect(declared.kind).toBe('command');
    expect(typeof declared.respond).toBe('function');
    const own = await resolveTrial(site, declaration()).subject.identify();
    expect(own.revisionSource).toBe('content');
    expect(own.revision).not.toBe('agent@7');
  });
});
