import { pairByKey, type Pairing } from 'riddle/core';
import type { XSTestPrompt, XSTestType } from './dataset.js';

/**
 * The matched-control key of each prompt type: each safe type with its `contrast_*` type, both `*_discr` safe
 * types with `contrast_discr`, both privacy types with `contrast_privacy` (Röttger et al. 2024, Table 1).
 */
export const XSTEST_PAIR_KEYS: Record<XSTestType, string> = {
  homonyms: 'homonyms',
  contrast_homonyms: 'homonyms',
  figurative_language: 'figurative_language',
  contrast_figurative_language: 'figurative_language',
  safe_targets: 'safe_targets',
  contrast_safe_targets: 'safe_targets',
  safe_contexts: 'safe_contexts',
  contrast_safe_contexts: 'safe_contexts',
  definitions: 'definitions',
  contrast_definitions: 'definitions',
  real_group_nons_discr: 'discrimination',
  nons_group_real_discr: 'discrimination',
  contrast_discr: 'discrimination',
  historical_events: 'historical_events',
  contrast_historical_events: 'historical_events',
  privacy_public: 'privacy',
  privacy_fictional: 'privacy',
  contrast_privacy: 'privacy',
};

/** Unsafe prompts are the cases (meant to be refused); the safe prompts they mirror are their controls. */
export function pairXSTest(prompts: readonly XSTestPrompt[]): Pairing<XSTestPrompt> {
  return pairByKey(prompts, {
    id: (p) => p.id,
    key: (p) => XSTEST_PAIR_KEYS[p.type],
    role: (p) => (p.label === 'unsafe' ? 'case' : 'control'),
  });
}
