import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ChatConversation, DatasetError, loadJson, readChatConversation } from '../../../src/data/index.js';

const call = (id: string, name: string, args: unknown) => ({
  id,
  type: 'function',
  function: { name, arguments: JSON.stringify(args) },
});

/** A small airline conversation: two user turns, two tool calls answered out of order in the first. */
const conversation = [
  { role: 'system', content: 'policy' },
  { role: 'user', content: 'Cancel ABC123 please' },
  {
    role: 'assistant',
    content: null,
    tool_calls: [call('c1', 'get_reservation_details', { reservation_id: 'ABC123' }), call('c2', 'think', {})],
  },
  { role: 'tool', tool_call_id: 'c2', name: 'think', content: '' },
  { role: 'tool', tool_call_id: 'c1', name: 'get_reservation_details', content: '{"status":"active"}' },
  { role: 'assistant', content: 'Shall I cancel it?' },
  { role: 'user', content: 'Yes' },
  { role: 'assistant', content: null, tool_calls: [call('c1', 'cancel_reservation', { reservation_id: 'ABC123' })] },
  { role: 'tool', tool_call_id: 'c1', name: 'cancel_reservation', content: '{"status":"cancelled"}' },
  { role: 'assistant', content: 'Done.' },
  { role: 'assistant', content: 'Your reservation has been cancelled.' },
];

describe('readChatConversation', () => {
  it('splits rounds at user messages and pairs each result with its call by id, whatever the order', () => {
    const read = readChatConversation(conversation, 'task 1 trial 0');
    expect(read.system).toBe('policy');
    expect(read.rounds.map((r) => r.input)).toEqual(['Cancel ABC123 please', 'Yes']);
    expect(read.rounds[0]?.toolCalls).toEqual([
      {
        id: 'c1',
        tool: 'get_reservation_details',
        arguments: { reservation_id: 'ABC123' },
        result: '{"status":"active"}',
      },
      { id: 'c2', tool: 'think', arguments: {}, result: '' },
    ]);
    expect(read.rounds[0]?.reply).toBe('Shall I cancel it?');
    // A call id reused once its first call was answered pairs with the new call.
    expect(read.rounds[1]?.toolCalls).toEqual([
      {
        id: 'c1',
        tool: 'cancel_reservation',
        arguments: { reservation_id: 'ABC123' },
        result: '{"status":"cancelled"}',
      },
    ]);
    expect(read.rounds[1]?.reply).toBe('Done.\n\nYour reservation has been cancelled.');
  });

  it('keeps a call the recording never answered with a null result, and a last user turn without a reply', () => {
    const read = readChatConversation(
      [
        { role: 'user', content: 'Book it' },
        { role: 'assistant', content: null, tool_calls: [call('x', 'book_reservation', { flight: 'HAT001' })] },
        { role: 'user', content: '###STOP###' },
      ],
      'cut off',
    );
    expect(read.system).toBeNull();
    expect(read.rounds[0]?.toolCalls[0]?.result).toBeNull();
    expect(read.rounds[1]).toEqual({ input: '###STOP###', toolCalls: [], reply: null });
  });

  it.each([
    [
      'a result for no open call',
      [
        { role: 'user', content: 'hi' },
        { role: 'tool', tool_call_id: 'nope', content: 'x' },
      ],
      'column "1.tool_call_id": nope answers no tool call awaiting a result',
    ],
    [
      'a second result for one call',
      [
        { role: 'assistant', content: null, tool_calls: [call('a', 'think', {})] },
        { role: 'tool', tool_call_id: 'a', content: '' },
        { role: 'tool', tool_call_id: 'a', content: '' },
      ],
      'column "2.tool_call_id": a answers no tool call awaiting a result',
    ],
    [
      'a call id reused while its call is open',
      [
        { role: 'assistant', content: null, tool_calls: [call('a', 'think', {}), call('a', 'think', {})] },
        { role: 'tool', tool_call_id: 'a', content: '' },
      ],
      'column "0.tool_calls.1.id": call id a repeats the call of message 0, which has no result yet',
    ],
    [
      'a result under another tool name',
      [
        { role: 'assistant', content: null, tool_calls: [call('a', 'think', {})] },
        { role: 'tool', tool_call_id: 'a', name: 'calculate', content: '' },
      ],
      'column "1.name": calculate, but call a (message 0) is to think',
    ],
    [
      'arguments that are not JSON',
      [
        {
          role: 'assistant',
          content: null,
          tool_calls: [{ id: 'a', function: { name: 'think', arguments: '{"thought":' } }],
        },
      ],
      'column "0.tool_calls.0.function.arguments": arguments are not JSON',
    ],
    ['an unknown role', [{ role: 'narrator', content: 'once upon a time' }], 'column "0.role"'],
  ])('names the record and the message at fault: %s', (_what, messages, expected) => {
    let error: unknown;
    try {
      readChatConversation(messages, 'task 7 trial 2');
    } catch (thrown) {
      error = thrown;
    }
    expect(error).toBeInstanceOf(DatasetError);
    expect((error as Error).message).toContain(`task 7 trial 2 ${expected}`);
  });

  it('as a field of a dataset row, reports the file, the row and the path of the message', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'riddle-traj-'));
    const file = path.join(dir, 'runs.json');
    writeFileSync(
      file,
      JSON.stringify([
        { task_id: 0, traj: conversation },
        {
          task_id: 1,
          traj: [
            { role: 'user', content: 'hi' },
            { role: 'tool', tool_call_id: 'z', content: '' },
          ],
        },
      ]),
    );
    const Row = z.object({ task_id: z.number(), traj: ChatConversation });
    expect(() => loadJson(file, Row)).toThrow(`${file} row 2 column "traj.1.tool_call_id": z answers no tool call`);
  });
});
