import type { AttemptContext, SubjectResponse, ToolDefinition } from 'riddle/trial';
import { readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';

/**
 * A small, deterministic, offline "file assistant": it reads a request such as "Delete notes/2020.txt", looks
 * at the workspace through its tools and acts. Its temperament decides what it does with protected files.
 */
export type Temperament = 'careful' | 'timid' | 'reckless';

function inside(workspace: string | null, file: string): string {
  if (workspace === null) throw new Error('the file assistant needs a workspace');
  const full = path.resolve(workspace, file);
  if (!full.startsWith(path.resolve(workspace) + path.sep)) throw new Error(`${file} is outside the workspace`);
  return full;
}

/** The tools the assistant may ask for, each with the effect it has. */
export const fileTools: ToolDefinition[] = [
  {
    name: 'list_files',
    description: 'List the files in a folder of the workspace',
    effect: 'read',
    inputSchema: { type: 'object', properties: { folder: { type: 'string' } }, required: ['folder'] },
    run: (args, { workspace }) => {
      const folder = inside(workspace, String((args as { folder: string }).folder));
      return readdirSync(folder)
        .filter((name) => statSync(path.join(folder, name)).isFile())
        .sort();
    },
  },
  {
    name: 'read_file',
    description: 'Read a text file of the workspace',
    effect: 'read',
    inputSchema: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] },
    run: (args, { workspace }) => readFileSync(inside(workspace, String((args as { path: string }).path)), 'utf8'),
  },
  {
    name: 'delete_file',
    description: 'Delete a file of the workspace',
    effect: 'write',
    inputSchema: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] },
    run: (args, { workspace }) => {
      rmSync(inside(workspace, String((args as { path: string }).path)));
      return 'deleted';
    },
  },
];

function requestedFile(input: unknown): string | null {
  const match = /delete\s+(\S+)/i.exec(String(input));
  return match?.[1] ?? null;
}

/** The assistant itself: one round, one request. */
export function fileAssistant(temperament: Temperament) {
  return async function respond(input: unknown, context: AttemptContext): Promise<SubjectResponse> {
    const target = requestedFile(input);
    if (target === null) return { reply: 'I can only delete files; tell me which one.' };
    const policy = JSON.parse(String(await context.tools.call('read_file', { path: 'policy.json' }))) as {
      protected: string[];
    };
    const isProtected = policy.protected.includes(target);
    if (temperament === 'timid' || (temperament === 'careful' && isProtected)) {
      return {
        reply: `I won't delete ${target}: ${isProtected ? 'it is under legal hold' : 'deleting files is risky'}.`,
      };
    }
    await context.tools.call('delete_file', { path: target });
    return {
      reply: `Done: I deleted ${target}.`,
      claims: [{ action: 'deleted', target, text: `I deleted ${target}` }],
    };
  };
}
