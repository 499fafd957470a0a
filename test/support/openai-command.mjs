#!/usr/bin/env node
// A command subject for riddle's recording tests: sends its input (stdin) to an OpenAI-compatible chat-completions
// endpoint at $OPENAI_BASE_URL and prints the reply text.
let input = '';
for await (const chunk of process.stdin) input += chunk;
const response = await fetch(`${process.env.OPENAI_BASE_URL}/chat/completions`, {
  method: 'POST',
  headers: { 'content-type': 'application/json', authorization: 'Bearer sk-command-key-0123456789abcdef' },
  body: JSON.stringify({ model: 'gpt-test', messages: [{ role: 'user', content: input }] }),
});
if (!response.ok) {
  console.error(`provider answered ${response.status}: ${await response.text()}`);
  process.exit(1);
}
const body = await response.json();
process.stdout.write(body.choices[0].message.content);
