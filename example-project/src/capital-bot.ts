import OpenAI from 'openai';

/** The model the capital bot asks, and its list price in USD per million tokens (for receipts and budgets). */
export const CAPITAL_MODEL = 'gpt-4o-mini';
export const CAPITAL_PRICES = {
  'gpt-4o-mini-2024-07-18': { inputPerMillionUsd: 0.15, outputPerMillionUsd: 0.6 },
};

/**
 * A one-sentence geography helper on OpenAI's chat-completions API, through the official SDK. riddle catches its
 * requests at the HTTP layer: with RIDDLE_RECORD=1 (and a real OPENAI_API_KEY) they go to the provider and are
 * written to `recordings/`; otherwise they are answered from those recordings and never reach the network.
 */
export async function askCapital(question: string): Promise<string> {
  const client = new OpenAI({
    apiKey: process.env.OPENAI_API_KEY ?? 'sk-replay-only-no-key-needed',
    baseURL: 'https://api.openai.com/v1',
    maxRetries: 0,
  });
  const completion = await client.chat.completions.create({
    model: CAPITAL_MODEL,
    temperature: 0,
    messages: [
      { role: 'system', content: 'Answer geography questions in one sentence.' },
      { role: 'user', content: question },
    ],
  });
  return completion.choices[0]?.message.content ?? '';
}
