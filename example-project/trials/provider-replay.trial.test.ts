import { expect } from 'vitest';
import { trial } from 'riddle/trial';
import { askCapital, CAPITAL_PRICES } from '../src/capital-bot.js';

// The capital bot calls OpenAI through its SDK. CI runs it from the committed recordings in
// recordings/trials-provider-replay-trial/…: no key, no network, the same Observations every time. Re-record with
// `RIDDLE_RECORD=1 OPENAI_API_KEY=… npx vitest run trials/provider-replay.trial.test.ts`. Replayed attempts are
// not independent samples (the Outcome says so), and three attempts cannot certify τ = 0.8: UNKNOWN is expected.
trial('capital bot: answers from recorded provider traffic', {
  subject: (input) => askCapital(String(input)),
  revision: 'capital-bot@1',
  providers: { hosts: ['https://api.openai.com/v1'] },
  prices: CAPITAL_PRICES,
  budget: { usd: 0.01 },
  rubric: { criteria: { namesCanberra: { description: 'the answer names Canberra', needs: 'text' } } },
  checks: {
    namesCanberra: (observation) => {
      expect(String(observation.reply)).toMatch(/\bCanberra\b/);
    },
  },
  case: { input: 'What is the capital of Australia?', expect: ['namesCanberra'] },
  repeat: { n: 3, seed: 11, stop: 'fixed' },
  passOn: ['PASS', 'UNKNOWN'],
});
