import { describe } from 'vitest';
import { trial } from 'riddle/trial';
import { airlineChangeClaims } from '../tau-bench/claims.js';
import { loadTauBench } from '../tau-bench/dataset.js';
import { TAU_RUBRIC, TAU_SUMMARY, tauCases, tauEvaluators, tauSubject } from '../tau-bench/suite.js';

// τ-bench airline (Yao et al. 2024) from its released GPT-4o trajectories: 50 tasks × 4 recorded trials replayed as
// attempts, every tool call re-issued through riddle's gateway as a receipt. The suite tables reproduce the
// leaderboard's pass^1…pass^4 and add what it does not print: intervals over tasks, the tasks' spread by successes,
// a verdict under a declared rule, claims of changes no write bears out, and riddle's own write matcher calibrated
// against the recorded reward.
const tasks = loadTauBench();
const recorded = tauSubject(tasks);

describe('τ-bench airline, recorded GPT-4o runs', () => {
  trial.suite('τ-bench airline — gpt-4o tool calling', {
    subject: recorded.subject,
    tools: recorded.tools,
    rubric: TAU_RUBRIC,
    evaluators: tauEvaluators(tasks),
    claimExtractors: [airlineChangeClaims],
    cases: tauCases(tasks),
    repeat: { n: 4, order: 'sequential', stop: 'fixed', concurrency: 4 },
    effectClass: 'external',
    summary: TAU_SUMMARY,
    // The declared rule (TAU_SUMMARY: pass^4 ≥ 0.5) decides the suite, not its tasks one by one (four attempts
    // certify no task at 0.8); GPT-4o's pass^4 fails it, and passOn lets this documentation trial show that FAIL.
    // Two replies claim changes no write bears out: those attempts are CONTRADICTED, counted in the suite tables.
    passOn: ['PASS', 'FAIL'],
  });
});
