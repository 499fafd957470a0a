import { describe, expect, test } from 'vitest';
import { createToolGateway, ToolDeniedError, type ToolDefinition } from '../../../src/observe/index.js';

const tool = (
  name: string,
  effect: ToolDefinition['effect'],
  run: ToolDefinition['run'] = () => 'ok',
): ToolDefinition => ({
  name,
  description: name,
  effect,
  inputSchema: { type: 'object' },
  run,
});

function gateway(maxEffect: ToolDefinition['effect']) {
  let now = 0;
  return createToolGateway({
    tools: [
      tool('look', 'read'),
      tool('edit', 'write'),
      tool('post', 'external'),
      tool('shred', 'irreversible'),
      tool('broken', 'none', () => {
        throw new Error('nope');
      }),
    ],
    maxEffect,
    context: { workspace: '/ws', signal: new AbortController().signal },
    elapsedMs: () => (now += 5),
  });
}

describe('tool gateway', () => {
  test('admits tools up to the effect class, denies stronger ones, records all in order', async () => {
    const g = gateway('write');
    await expect(g.call('look', { a: 1 })).resolves.toBe('ok');
    await expect(g.call('edit', {})).resolves.toBe('ok');
    g.setRound(2);
    await expect(g.call('post', {})).rejects.toBeInstanceOf(ToolDeniedError);
    await expect(g.call('shred', {})).rejects.toThrow(/effect "irreversible" exceeds the case's allowed "write"/);
    expect(g.requests.map((r) => [r.id, r.round, r.tool, r.effect, r.admitted, r.atMs])).toEqual([
      ['t1', 1, 'look', 'read', true, 5],
      ['t2', 1, 'edit', 'write', true, 10],
      ['t3', 2, 'post', 'external', false, 15],
      ['t4', 2, 'shred', 'irreversible', false, 20],
    ]);
    expect(g.requests[0]).toMatchObject({
      arguments: { a: 1 },
      result: 'ok',
      error: null,
      reason: 'effect "read" within "write"',
    });
  });

  test('effect class none admits only harmless tools', async () => {
    const g = gateway('none');
    await expect(g.call('look', {})).rejects.toThrow(/denied/);
    await expect(g.call('broken', {})).rejects.toThrow('nope');
    expect(g.requests.map((r) => [r.tool, r.admitted, r.error])).toEqual([
      ['look', false, null],
      ['broken', true, 'nope'],
    ]);
  });

  test('an unknown tool is denied and recorded at the strongest effect', async () => {
    const g = gateway('irreversible');
    await expect(g.call('teleport', {})).rejects.toThrow(/no tool named "teleport"/);
    expect(g.requests[0]).toMatchObject({ tool: 'teleport', effect: 'irreversible', admitted: false });
  });

  test('after close, requests are refused and not recorded', async () => {
    const g = gateway('write');
    g.close();
    await expect(g.call('look', {})).rejects.toThrow(/the attempt is over/);
    expect(g.requests).toEqual([]);
  });

  test('tools get the workspace and signal; a tool returning nothing records null', async () => {
    let seen: string | null = null;
    const g = createToolGateway({
      tools: [
        tool('peek', 'read', (_args, context) => {
          seen = context.workspace;
          return undefined as never;
        }),
      ],
      maxEffect: 'read',
      context: { workspace: '/sandbox', signal: new AbortController().signal },
      elapsedMs: () => 0,
    });
    await g.call('peek', {});
    expect(seen).toBe('/sandbox');
    expect(g.requests[0]?.result).toBeNull();
  });
});

describe('tool gateway bounds', () => {
  const bounded = (bounds: { count: number; jsonChars: number }, result: ToolDefinition['run'] = () => 'ok') =>
    createToolGateway({
      tools: [tool('look', 'read', result), tool('post', 'external')],
      maxEffect: 'read',
      context: { workspace: '/ws', signal: new AbortController().signal },
      elapsedMs: () => 0,
      bounds,
    });

  test('past the count, requests are refused and not recorded, denied ones counting alike', async () => {
    const g = bounded({ count: 3, jsonChars: 1_000_000 });
    await g.call('look', { n: 1 });
    await expect(g.call('post', {})).rejects.toBeInstanceOf(ToolDeniedError);
    await g.call('look', { n: 3 });
    expect(g.overflow).toBeNull();
    await expect(g.call('look', { n: 4 })).rejects.toThrow(
      'tool request denied: look: not recorded: it made more than 3 tool requests, the most riddle records',
    );
    await expect(g.call('unknown', {})).rejects.toBeInstanceOf(ToolDeniedError);
    expect(g.requests.map((r) => r.arguments)).toEqual([{ n: 1 }, {}, { n: 3 }]);
    expect(g.overflow).toEqual({ reason: 'it made more than 3 tool requests, the most riddle records', refused: 2 });
  });

  test('past the JSON of arguments, the request that would cross is refused and not run', async () => {
    let runs = 0;
    const g = bounded({ count: 100, jsonChars: 250 }, () => {
      runs += 1;
      return null;
    });
    const text = 'x'.repeat(100);
    await g.call('look', { text });
    await g.call('look', { text });
    await expect(g.call('look', { text })).rejects.toThrow(
      /not recorded: the arguments and results of its tool requests/,
    );
    expect(runs).toBe(2);
    expect(g.requests).toHaveLength(2);
    expect(g.overflow?.refused).toBe(1);
  });

  test('a result that crosses the bound is kept with its request; the requests after it are refused', async () => {
    const g = bounded({ count: 100, jsonChars: 1000 }, (args) => 'y'.repeat((args as { size: number }).size));
    await expect(g.call('look', { size: 5000 })).resolves.toHaveLength(5000);
    expect(g.requests[0]?.result).toHaveLength(5000);
    await expect(g.call('look', { size: 1 })).rejects.toBeInstanceOf(ToolDeniedError);
    expect(g.requests).toHaveLength(1);
  });
});
