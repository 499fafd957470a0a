import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { bubblewrap, commandSubject, observeAttempt, type ToolDefinition } from '../../src/observe/index.js';
import { plan, repoPath, SCRIPTED } from './observe-support.js';

const PROBE = repoPath('fixtures/observe-programs/probe.mjs');
// Outside the workspace and outside /tmp (an isolated subject gets a private /tmp): the repository itself.
const outside = mkdtempSync(path.join(repoPath('.'), '.riddle-isolation-'));
const absoluteTarget = path.join(outside, 'escaped.txt');
let server: Server;
let port = 0;

beforeAll(async () => {
  server = createServer((socket) => socket.end());
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  port = (server.address() as { port: number }).port;
});
afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
  rmSync(outside, { recursive: true, force: true });
});

const echo: ToolDefinition = {
  name: 'echo',
  description: 'Echo a word back',
  effect: 'read',
  inputSchema: { type: 'object', properties: { word: { type: 'string' } } },
  run: (args) => `echo: ${(args as { word: string }).word}`,
};

type Probe = { probe: string; target: string; result: string };
const probes = (reply: unknown): Probe[] =>
  String(reply)
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as Probe);

/**
 * A relative path from the workspace up to `/x`, whatever the depth of the temporary folder the workspace is in: `..`
 * at the root stays there. (Two levels reached `/x` from `/tmp/riddle-…`; under a nested temporary folder they reach the
 * sandbox's own /tmp, which is writable.)
 */
const ESCAPE_UPWARDS = `${'../'.repeat(32)}x`;

const probeSubject = (isolation: Parameters<typeof commandSubject>[0]['isolation']) =>
  commandSubject({ name: 'probe', command: process.execPath, args: [PROBE], isolation });

describe('isolation by bubblewrap', async () => {
  const { available, detail } = await bubblewrap.available();
  test('bwrap can run here (CI installs it)', () => {
    expect(detail).toBe('bwrap runs');
    expect(available).toBe(true);
  });

  test('a write outside the workspace fails inside the subject and shows in its output; the workspace is writable', async () => {
    const steps = [
      ['write', 'inside.txt'],
      ['write', ESCAPE_UPWARDS],
      ['write', absoluteTarget],
      ['write', '/tmp/private.txt'],
    ];
    const observed = await observeAttempt(plan(probeSubject('bubblewrap'), JSON.stringify(steps)));
    expect(observed.status).toBe('completed');
    const results = probes(observed.observation?.rounds[0]?.reply);
    expect(results.map((r) => [r.target, r.result.split(':')[0]])).toEqual([
      ['inside.txt', 'written'],
      [ESCAPE_UPWARDS, 'EROFS'],
      [absoluteTarget, 'EROFS'],
      ['/tmp/private.txt', 'written'],
    ]);
    expect(observed.observation?.files.map((f) => [f.path, f.change])).toEqual([['inside.txt', 'created']]);
    expect(existsSync(absoluteTarget)).toBe(false);
    expect(existsSync('/x')).toBe(false);
    expect(existsSync('/tmp/private.txt')).toBe(false);
  });

  test('the sandboxed process holds no capabilities, even run as root: it cannot remount the root writable and write outside', async () => {
    // On the root file system, not the sandbox's private /tmp: where a writable remount of / would let it write.
    const hostTarget = `/var/tmp/.riddle-isolation-escape-${process.pid}`;
    const script = [
      'mount -o remount,bind,rw / 2>/dev/null; echo "remount $?"',
      `for target in ${hostTarget} ${absoluteTarget}; do (echo x > "$target") 2>/dev/null && echo "wrote $target"; done`,
      'grep -E "^Cap(Inh|Prm|Eff|Amb)" /proc/$$/status',
    ].join('; ');
    const subject = commandSubject({
      name: 'remount',
      command: '/bin/sh',
      args: ['-c', script],
      isolation: 'bubblewrap',
    });
    try {
      const observed = await observeAttempt(plan(subject, ''));
      const reply = String(observed.observation?.rounds[0]?.reply);
      // mount ran (not 127, not found) and failed.
      expect(reply).toMatch(/^remount (?!0\n|127\n)\d+$/m);
      expect(reply).not.toContain('wrote');
      expect(reply.split('\n').slice(1)).toEqual([
        'CapInh:\t0000000000000000',
        'CapPrm:\t0000000000000000',
        'CapEff:\t0000000000000000',
        'CapAmb:\t0000000000000000',
      ]);
      expect(existsSync(hostTarget)).toBe(false);
      expect(existsSync(absoluteTarget)).toBe(false);
    } finally {
      rmSync(hostTarget, { force: true });
    }
  });

  test('without isolation the same write outside succeeds (what the option is for)', async () => {
    const observed = await observeAttempt(plan(probeSubject(undefined), JSON.stringify([['write', absoluteTarget]])));
    expect(probes(observed.observation?.rounds[0]?.reply)[0]?.result).toBe('written');
    expect(existsSync(absoluteTarget)).toBe(true);
    rmSync(absoluteTarget);
  });

  test('no network, not even the host loopback, unless the effect class and a declared allowance permit it', async () => {
    const connect = JSON.stringify([['connect', '127.0.0.1', port]]);
    const result = async (isolation: Parameters<typeof probeSubject>[0], effectClass: 'read' | 'external') =>
      probes(
        (await observeAttempt(plan(probeSubject(isolation), connect, { caseOverrides: { effectClass } }))).observation
          ?.rounds[0]?.reply,
      )[0]?.result;
    expect(await result(undefined, 'read')).toBe('connected');
    expect(await result('bubblewrap', 'external')).not.toBe('connected');
    expect(await result({ engine: 'bubblewrap', network: 'allow' }, 'read')).not.toBe('connected');
    expect(await result({ engine: 'bubblewrap', network: 'allow' }, 'external')).toBe('connected');
  });

  test('the MCP gateway stays reachable from a sandbox without network, and records the request', async () => {
    const steps = [
      ['connect', '127.0.0.1', port],
      ['mcp', 'echo', { word: 'isolated' }],
    ];
    const observed = await observeAttempt(plan(probeSubject('bubblewrap'), JSON.stringify(steps), { tools: [echo] }));
    expect(observed.status).toBe('completed');
    const [network, mcp] = probes(observed.observation?.rounds[0]?.reply);
    expect(network?.result).not.toBe('connected');
    expect(mcp?.result).toBe('echo: isolated');
    expect(observed.observation?.toolRequests.map((r) => [r.tool, r.admitted, r.arguments])).toEqual([
      ['echo', true, { word: 'isolated' }],
    ]);
  });

  test('a subject that hangs inside the sandbox is stopped at the budget like any other', async () => {
    const subject = commandSubject({
      name: 'hangs',
      command: process.execPath,
      args: [SCRIPTED],
      isolation: 'bubblewrap',
      killGraceMs: 200,
    });
    const observed = await observeAttempt(
      plan(subject, JSON.stringify([['grandchild', 'pid.txt'], ['hang']]), {
        caseOverrides: { stop: { timeoutMs: 1500, maxOutputBytes: 1024, maxRounds: 1 } },
      }),
    );
    expect(observed.status).toBe('subject_error');
    expect(observed.error?.message).toMatch(/budget/);
  });

  test('an HTTP-only MCP client under isolation without network is a harness error saying what to declare', async () => {
    const subject = commandSubject({
      name: 'http-client',
      command: process.execPath,
      args: [PROBE],
      isolation: 'bubblewrap',
      mcp: 'http',
    });
    const observed = await observeAttempt(plan(subject, '[]', { tools: [echo] }));
    expect(observed.status).toBe('harness_error');
    expect(observed.error?.message).toMatch(/declare mcp: 'stdio'/);
  });

  test('an engine that cannot run here is a harness error, never an unisolated run', async () => {
    const subject = commandSubject({
      name: 'nowhere',
      command: process.execPath,
      args: [PROBE],
      isolation: {
        engine: {
          name: 'absent',
          available: async () => ({ available: false, detail: 'not installed' }),
          wrap: () => {
            throw new Error('must not be called');
          },
        },
      },
    });
    const observed = await observeAttempt(plan(subject, JSON.stringify([['write', absoluteTarget]])));
    expect(observed.status).toBe('harness_error');
    expect(observed.error?.message).toMatch(/isolated by absent, which cannot run here: not installed/);
    expect(existsSync(absoluteTarget)).toBe(false);
  });
});
