import { Levenshtein } from 'autoevals';
import { autoevalsScorer, trial } from 'riddle/trial';
import { capitalSpeller } from '../src/capital-speller.js';

// A scored criterion: autoevals' Levenshtein scores each reply against the Case's oracle in [0, 1], and the Rubric's
// cutoff makes a score of 0.8 or more "met". The verdict still rests on met/unmet with exact bounds; the report adds
// the score distribution per arm (mean with its interval, quartiles, a histogram). Levenshtein runs no model, so it
// is a mechanical evaluator whose findings are text evidence; a model-based scorer (Factuality, ClosedQA…) would
// need `model` and calibration, like any judge.
trial('capital speller: near-miss spellings still name the capital (scored)', {
  subject: capitalSpeller,
  rubric: {
    criteria: {
      namesCapital: { description: 'the reply spells Canberra closely', needs: 'text', score: { cutoff: 0.8 } },
    },
  },
  evaluators: [autoevalsScorer({ scorer: Levenshtein, criteria: ['namesCapital'], revision: 'autoevals@0.3.0' })],
  case: { input: 'What is the capital of Australia?', expect: ['namesCapital'], oracle: 'Canberra' },
  repeat: { n: 20, seed: 3 },
});
