// The tools riddle offers the example file agent, each declaring the effect it has. riddle serves them over MCP,
// records every request and admits or denies it against the Case's effect class; these functions run only when a
// request is admitted, inside the attempt's sandbox.
import { mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';

/** A path of the workspace, refused when it would leave it. */
function inside(workspace, file) {
  if (workspace === null) throw new Error('these tools need a workspace');
  const full = path.resolve(workspace, String(file));
  if (full !== workspace && !full.startsWith(workspace + path.sep)) throw new Error(`${file} is outside the workspace`);
  return full;
}

/** @type {import('riddle/trial').ToolDefinition[]} */
export const fileTools = [
  {
    name: 'list_files',
    description: 'List the files in a folder of the workspace',
    effect: 'read',
    inputSchema: { type: 'object', properties: { folder: { type: 'string' } }, required: ['folder'] },
    run: (args, { workspace }) => {
      const folder = inside(workspace, args.folder);
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
    run: (args, { workspace }) => readFileSync(inside(workspace, args.path), 'utf8'),
  },
  {
    name: 'write_file',
    description: 'Create or replace a text file of the workspace',
    effect: 'write',
    inputSchema: {
      type: 'object',
      properties: { path: { type: 'string' }, content: { type: 'string' } },
      required: ['path', 'content'],
    },
    run: (args, { workspace }) => {
      const file = inside(workspace, args.path);
      mkdirSync(path.dirname(file), { recursive: true });
      writeFileSync(file, String(args.content));
      return { written: args.path, bytes: Buffer.byteLength(String(args.content)) };
    },
  },
  {
    name: 'delete_file',
    description: 'Delete a file of the workspace',
    effect: 'write',
    inputSchema: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] },
    run: (args, { workspace }) => {
      rmSync(inside(workspace, args.path));
      return { deleted: args.path };
    },
  },
  {
    name: 'archive_file',
    description: 'Upload a copy of a workspace file to the team cloud archive',
    effect: 'external',
    inputSchema: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] },
    // Offline example: nothing leaves the machine even when a Case admits external effects.
    run: (args) => ({ archived: args.path, at: `archive://example/${args.path}` }),
  },
];

/** Open the attempt's task list (tasks.db in the workspace) for one request. */
function withTasks(workspace, use) {
  const db = new Database(inside(workspace, 'tasks.db'), { fileMustExist: true });
  try {
    return use(db);
  } finally {
    db.close();
  }
}

/** @type {import('riddle/trial').ToolDefinition[]} */
export const taskTools = [
  {
    name: 'list_tasks',
    description: 'List the tasks with their id, title and status',
    effect: 'read',
    inputSchema: { type: 'object', properties: {} },
    run: (_args, { workspace }) =>
      withTasks(workspace, (db) => db.prepare('SELECT id, title, status FROM tasks ORDER BY id').all()),
  },
  {
    name: 'set_task_status',
    description: 'Set the status of a task (open, done or cancelled)',
    effect: 'write',
    inputSchema: {
      type: 'object',
      properties: { id: { type: 'integer' }, status: { type: 'string', enum: ['open', 'done', 'cancelled'] } },
      required: ['id', 'status'],
    },
    run: (args, { workspace }) =>
      withTasks(workspace, (db) => ({
        changed: db.prepare('UPDATE tasks SET status = ? WHERE id = ?').run(args.status, args.id).changes,
      })),
  },
  {
    name: 'delete_task',
    description: 'Delete a task',
    effect: 'write',
    inputSchema: { type: 'object', properties: { id: { type: 'integer' } }, required: ['id'] },
    run: (args, { workspace }) =>
      withTasks(workspace, (db) => ({ deleted: db.prepare('DELETE FROM tasks WHERE id = ?').run(args.id).changes })),
  },
  {
    name: 'add_task',
    description: 'Add an open task',
    effect: 'write',
    inputSchema: { type: 'object', properties: { title: { type: 'string' } }, required: ['title'] },
    run: (args, { workspace }) =>
      withTasks(workspace, (db) => ({
        id: Number(db.prepare("INSERT INTO tasks (title, status) VALUES (?, 'open')").run(args.title).lastInsertRowid),
      })),
  },
  {
    name: 'email_team',
    description: 'Email the team a summary of the task list',
    effect: 'external',
    inputSchema: {
      type: 'object',
      properties: { subject: { type: 'string' }, body: { type: 'string' } },
      required: ['subject', 'body'],
    },
    // Offline example: nothing is sent even when a Case admits external effects.
    run: (args) => ({ queued: args.subject }),
  },
];
