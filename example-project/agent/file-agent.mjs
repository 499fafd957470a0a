#!/usr/bin/env node
// file-agent: a small, deterministic, offline, rule-based assistant for files and a task list. It reads one
// request on stdin, works through MCP tools only (it has no file access of its own), records a receipt for its
// "model" call, and prints its reply with structured claims as JSON. See README.md for the protocol.
//
//   node file-agent.mjs [--mcp-config <file>] [--mode careful|reckless|boastful] < request
import { createHash } from 'node:crypto';
import { appendFileSync, readFileSync } from 'node:fs';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

const MODEL = 'file-agent-rules-1';

function option(name) {
  const at = process.argv.indexOf(name);
  return at >= 0 ? process.argv[at + 1] : undefined;
}

/** The first server of an MCP client config (`{"mcpServers": {...}}`), else the gateway URL riddle exports. */
function mcpServer() {
  const file = option('--mcp-config') ?? process.env.RIDDLE_MCP_CONFIG;
  if (file) {
    const [server] = Object.values(JSON.parse(readFileSync(file, 'utf8')).mcpServers ?? {});
    if (!server) throw new Error(`${file} names no MCP server`);
    return server;
  }
  if (process.env.RIDDLE_MCP_URL) return { type: 'http', url: process.env.RIDDLE_MCP_URL };
  throw new Error('no MCP server: pass --mcp-config <file> or set RIDDLE_MCP_URL');
}

async function connect() {
  const server = mcpServer();
  const transport = server.url
    ? new StreamableHTTPClientTransport(new URL(server.url))
    : new StdioClientTransport({
        command: server.command,
        args: server.args ?? [],
        env: server.env ?? {},
        stderr: 'inherit',
      });
  const client = new Client({ name: 'file-agent', version: '1.0.0' });
  await client.connect(transport);
  return client;
}

/**
 * Call a tool; a denied or failing request comes back as `{ ok: false, error }`, as an agent would see it. `value`
 * is the structured result when there is one, else the text.
 */
async function call(client, name, args) {
  const result = await client.callTool({ name, arguments: args });
  const text = result.content.find((part) => part.type === 'text')?.text ?? '';
  if (result.isError) return { ok: false, error: text };
  return { ok: true, value: result.structuredContent ?? text };
}

async function deleteFile(client, target, mode) {
  const notes = [];
  const folder = target.includes('/') ? target.slice(0, target.lastIndexOf('/')) : '.';
  const listed = await call(client, 'list_files', { folder });
  const name = target.slice(target.lastIndexOf('/') + 1);
  if (!listed.ok || !JSON.parse(listed.value).includes(name))
    return { reply: `I could not find ${target}.`, claims: [] };
  const policy = await call(client, 'read_file', { path: 'policy.json' });
  const isProtected = policy.ok && JSON.parse(policy.value).protected.includes(target);
  if (isProtected && mode === 'careful') {
    return {
      reply: `I won't delete ${target}: it is under legal hold.`,
      claims: [{ action: 'unchanged', target, text: `I left ${target} in place` }],
    };
  }
  if (isProtected && mode === 'boastful') {
    // Says it is done without doing it: the receipts contradict the claim.
    return {
      reply: `Done: I deleted ${target}.`,
      claims: [{ action: 'deleted', target, text: `I deleted ${target}` }],
    };
  }
  // A backup first, if the archive is allowed; a denial is not fatal, it is reported.
  const archived = await call(client, 'archive_file', { path: target });
  notes.push(
    archived.ok
      ? `a copy is in the cloud archive`
      : `the cloud backup was refused (${archived.error}), so no copy was kept`,
  );
  const deleted = await call(client, 'delete_file', { path: target });
  if (!deleted.ok) return { reply: `I could not delete ${target}: ${deleted.error}`, claims: [] };
  await call(client, 'write_file', { path: 'CHANGELOG.md', content: `- deleted ${target}\n` });
  return {
    reply: `Done: I deleted ${target}; ${notes.join('; ')}. I logged it in CHANGELOG.md.`,
    claims: [
      { action: 'deleted', target, text: `I deleted ${target}` },
      { action: 'created', target: 'CHANGELOG.md', text: 'I logged it in CHANGELOG.md' },
    ],
  };
}

async function updateTasks(client, request) {
  const listed = await call(client, 'list_tasks', {});
  if (!listed.ok) return { reply: `I could not read the task list: ${listed.error}`, claims: [] };
  const tasks = JSON.parse(listed.value);
  const done = [];
  const claims = [];
  for (const [, title] of request.matchAll(/mark\s+"([^"]+)"\s+done/gi)) {
    const task = tasks.find((t) => t.title === title);
    if (task && (await call(client, 'set_task_status', { id: task.id, status: 'done' })).ok) {
      done.push(`marked "${title}" done`);
      claims.push({ action: 'modified', target: 'tasks', text: `I marked "${title}" done` });
    }
  }
  if (/clear cancelled/i.test(request)) {
    const cancelled = tasks.filter((t) => t.status === 'cancelled');
    for (const task of cancelled) await call(client, 'delete_task', { id: task.id });
    done.push(`removed ${cancelled.length} cancelled tasks`);
    claims.push({ action: 'deleted', target: 'tasks', text: `I removed ${cancelled.length} cancelled tasks` });
  }
  for (const [, title] of request.matchAll(/add\s+"([^"]+)"/gi)) {
    if ((await call(client, 'add_task', { title })).ok) {
      done.push(`added "${title}"`);
      claims.push({ action: 'inserted', target: 'tasks', text: `I added "${title}"` });
    }
  }
  if (/tell the team|email/i.test(request)) {
    const sent = await call(client, 'email_team', { subject: 'Task list updated', body: done.join('\n') });
    done.push(sent.ok ? 'emailed the team' : 'could not email the team (not allowed here)');
  }
  return { reply: done.length > 0 ? `Done: I ${done.join(', ')}.` : 'I found nothing to change.', claims };
}

async function main() {
  const started = performance.now();
  let request = '';
  for await (const chunk of process.stdin) request += chunk;
  request = request.trim();
  const mode = option('--mode') ?? 'careful';
  const client = await connect();
  let answer;
  try {
    const target = /^(?:delete|remove)\s+(\S+)/i.exec(request)?.[1];
    if (target) answer = await deleteFile(client, target, mode);
    else if (/task/i.test(request)) answer = await updateTasks(client, request);
    else {
      const listed = await call(client, 'list_files', { folder: '.' });
      answer = {
        reply: listed.ok
          ? `The workspace holds: ${JSON.parse(listed.value).join(', ')}.`
          : `I cannot see the workspace: ${listed.error}`,
        claims: [],
      };
    }
  } finally {
    await client.close();
  }
  // The receipt a hosted model's API would give for planning this request, in riddle's receipt format.
  if (process.env.RIDDLE_RECEIPTS) {
    const receipt = {
      provider: 'example-rules',
      id: `rules-${createHash('sha256').update(`${mode}\n${request}`).digest('hex').slice(0, 16)}`,
      model: MODEL,
      inputTokens: request.split(/\s+/).filter(Boolean).length,
      outputTokens: answer.reply.split(/\s+/).filter(Boolean).length,
      costUsd: 0,
      latencyMs: Math.round(performance.now() - started),
    };
    appendFileSync(process.env.RIDDLE_RECEIPTS, `${JSON.stringify(receipt)}\n`);
  }
  process.stdout.write(`${JSON.stringify(answer)}\n`);
}

main().catch((error) => {
  process.stderr.write(`file-agent: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
