import { describe, expect, it, vi } from 'vitest';
import { stoppingCommand } from '../../../src/cli/stopping.js';
import { DEFAULTS, stoppingRuleFor } from '../../../src/run/index.js';
import { operatingCharacteristics } from '../../../src/statistics/index.js';
import { aRubric, aSuite, aCase } from '../builders.js';

/** The statistics-level rule a trial gets when it declares no repetition and no threshold. */
const defaultRule = () =>
  stoppingRuleFor(
    aSuite([{ id: 'case', role: 'case', c: aCase() }], { repeat: { ...DEFAULTS.repeat } }),
    aRubric({ threshold: { ...DEFAULTS.threshold } }),
  );

describe('the default repetition and stopping policy (τ = .8, α = .05), by the exact DP', () => {
  it('reaches PASS with probability ≥ .9 for a subject that succeeds 95% of the time', () => {
    expect(DEFAULTS.threshold).toEqual({ rate: 0.8, alpha: 0.05 });
    expect(operatingCharacteristics(defaultRule(), 0.95).pPass).toBeGreaterThanOrEqual(0.9);
  });

  it('keeps a false PASS at or below α at every p < τ', () => {
    const rule = defaultRule();
    for (let p = 0; p < 0.8; p += 0.01) expect(operatingCharacteristics(rule, p).pPass).toBeLessThanOrEqual(0.05);
    expect(operatingCharacteristics(rule, 0.8 - 1e-9).pPass).toBeLessThanOrEqual(0.05);
  });

  it('expects 28.0, 39.4, 41.6 and 40 attempts at p = .5, .8, .95 and 1', () => {
    const rule = defaultRule();
    expect([0.5, 0.8, 0.95, 1].map((p) => operatingCharacteristics(rule, p).expectedN.toFixed(1))).toEqual([
      '28.0',
      '39.4',
      '41.6',
      '40.0',
    ]);
  });

  it('`riddle stopping --explain` prints these figures for the default', () => {
    const out: string[] = [];
    const write = vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => {
      out.push(String(chunk));
      return true;
    });
    try {
      expect(stoppingCommand(['--explain'])).toBe(0);
    } finally {
      write.mockRestore();
    }
    const text = out.join('');
    expect(text).toMatch(/default policy \(curtail, n = 44, τ = 0\.8, α = 0\.05\)/);
    expect(text).toMatch(/P\(PASS \| p = 0\.95\) = 0\.93\d\d/);
    expect(text).toMatch(/expected attempts: 28\.0 at p = 0\.5, 39\.4 at p = 0\.8, 41\.6 at p = 0\.95, 40\.0 at p = 1/);
  });
});
