import { z } from 'zod';
import {
  JsonValue,
  type RecordedConversation,
  type RecordedRound,
  type RecordedToolCall,
  lazySchema,
} from '../model/index.js';
import { DatasetError } from './errors.js';

const text = lazySchema(() => z.string().nullable().optional());

/** OpenAI chat format: the four roles a recorded tool-calling conversation holds. */
export const ChatMessage = lazySchema(() =>
  z.discriminatedUnion('role', [
    z.object({ role: z.literal('system'), content: z.string() }),
    z.object({ role: z.literal('user'), content: z.string() }),
    z.object({
      role: z.literal('assistant'),
      content: text,
      tool_calls: z
        .array(
          z.object({
            id: z.string().min(1),
            type: z.literal('function').optional(),
            function: z.object({ name: z.string().min(1), arguments: z.string() }),
          }),
        )
        .nullable()
        .optional(),
    }),
    z.object({
      role: z.literal('tool'),
      tool_call_id: z.string().min(1),
      name: z.string().optional(),
      content: z.string(),
    }),
  ]),
);
export type ChatMessage = z.infer<typeof ChatMessage>;

/** A problem at a message of the conversation, with the path below the conversation (`12.tool_call_id`). */
interface PairingIssue {
  path: (string | number)[];
  message: string;
}

function parseArguments(raw: string): { value: JsonValue } | { error: string } {
  try {
    const value: unknown = JSON.parse(raw);
    const checked = JsonValue.safeParse(value);
    return checked.success ? { value: checked.data } : { error: 'arguments are not plain JSON' };
  } catch (error) {
    return { error: `arguments are not JSON: ${(error as Error).message}` };
  }
}

/**
 * Split messages into rounds and pair every tool result with its call by id. A result must answer a call made
 * earlier that has no result yet, under the same tool name; a call id may be reused only once its call is answered;
 * arguments must be JSON. A call never answered keeps a null result.
 */
function pairConversation(messages: readonly ChatMessage[]): {
  conversation: RecordedConversation;
  issues: PairingIssue[];
} {
  const issues: PairingIssue[] = [];
  const rounds: RecordedRound[] = [];
  // Calls awaiting their result, by id. Recorded agents reuse a call id once its call is answered, so an id is
  // unique only among open calls.
  const open = new Map<string, { call: RecordedToolCall; at: number }>();
  const texts: string[][] = [];
  let system: string | null = null;
  const current = () => {
    if (rounds.length === 0) {
      rounds.push({ input: null, toolCalls: [], reply: null });
      texts.push([]);
    }
    return { round: rounds[rounds.length - 1] as RecordedRound, texts: texts[texts.length - 1] as string[] };
  };
  for (const [index, message] of messages.entries()) {
    switch (message.role) {
      case 'system':
        if (index !== 0) issues.push({ path: [index, 'role'], message: 'a system message may only come first' });
        else system = message.content;
        break;
      case 'user':
        rounds.push({ input: message.content, toolCalls: [], reply: null });
        texts.push([]);
        break;
      case 'assistant': {
        const turn = current();
        if (message.content) turn.texts.push(message.content);
        for (const [position, raw] of (message.tool_calls ?? []).entries()) {
          const earlier = open.get(raw.id);
          if (earlier) {
            issues.push({
              path: [index, 'tool_calls', position, 'id'],
              message: `call id ${raw.id} repeats the call of message ${earlier.at}, which has no result yet`,
            });
            continue;
          }
          const parsed = parseArguments(raw.function.arguments);
          if ('error' in parsed) {
            issues.push({ path: [index, 'tool_calls', position, 'function', 'arguments'], message: parsed.error });
            continue;
          }
          const call: RecordedToolCall = { id: raw.id, tool: raw.function.name, arguments: parsed.value, result: null };
          open.set(raw.id, { call, at: index });
          turn.round.toolCalls.push(call);
        }
        break;
      }
      case 'tool': {
        const made = open.get(message.tool_call_id);
        if (!made) {
          issues.push({
            path: [index, 'tool_call_id'],
            message: `${message.tool_call_id} answers no tool call awaiting a result`,
          });
        } else if (message.name !== undefined && message.name !== made.call.tool) {
          issues.push({
            path: [index, 'name'],
            message: `${message.name}, but call ${message.tool_call_id} (message ${made.at}) is to ${made.call.tool}`,
          });
        } else {
          made.call.result = message.content;
          open.delete(message.tool_call_id);
        }
        break;
      }
      default:
        message satisfies never;
    }
  }
  for (const [i, round] of rounds.entries()) {
    const said = texts[i] ?? [];
    round.reply = said.length > 0 ? said.join('\n\n') : null;
  }
  return { conversation: { system, rounds }, issues };
}

/**
 * A recorded conversation in OpenAI chat format (system, user, assistant with `tool_calls`, tool results by
 * `tool_call_id`) as rounds: one per user message, holding the tool calls paired with their results and the
 * assistant's reply. Use it as a field of a dataset row schema (`loadJson`), so a malformed conversation is
 * reported with its file, row and the path of the message at fault.
 */
export const ChatConversation = lazySchema(() =>
  z.array(ChatMessage).transform((messages, context): RecordedConversation => {
    const { conversation, issues } = pairConversation(messages);
    for (const issue of issues) context.addIssue({ code: 'custom', path: issue.path, message: issue.message });
    return conversation;
  }),
);

/**
 * Read one recorded conversation outside a dataset file. Throws a DatasetError naming `record` (what the caller
 * calls this conversation: a file and row, a task and trial) and the message at fault.
 */
export function readChatConversation(messages: unknown, record: string): RecordedConversation {
  const parsed = ChatConversation.safeParse(messages);
  if (parsed.success) return parsed.data;
  throw new DatasetError(
    parsed.error.issues.map((issue) => ({
      file: record,
      line: null,
      row: null,
      column: issue.path.length === 0 ? null : issue.path.map(String).join('.'),
      message: issue.message,
    })),
  );
}
