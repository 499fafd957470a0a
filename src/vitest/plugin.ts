/// <reference types="vitest/config" />
import type { Plugin } from 'vite';
import type { Verdict } from '../model/index.js';

export interface RiddlePluginOptions {
  /** Folder for Outcome artifacts, relative to the root (default `riddle-report`). */
  outputDir?: string;
  /** Project-wide verdicts under which a trial's test passes (a trial's own `passOn` wins). */
  passOn?: Verdict[];
  /** Add the riddle reporter when no reporter was chosen on the command line (default true). */
  reporter?: boolean;
}

/** Values the plugin hands to test workers through Vitest's `provide`/`inject`. */
export interface RiddleProvided {
  passOn: Verdict[] | null;
}

declare module 'vitest' {
  interface ProvidedContext {
    riddle: RiddleProvided;
  }
}

/**
 * The riddle Vite plugin: project-wide defaults for trials and the riddle reporter in the reporter list (kept
 * once, whatever the command line added).
 */
export function riddle(options: RiddlePluginOptions = {}): Plugin {
  return {
    name: 'riddle',
    config() {
      return { test: { provide: { riddle: { passOn: options.passOn ?? null } } } };
    },
    configureVitest({ vitest }) {
      const reporters = vitest.config.reporters;
      const named = (entry: (typeof reporters)[number], name: string) => Array.isArray(entry) && entry[0] === name;
      const existingAt = reporters.findIndex((entry) => named(entry, 'riddle'));
      if (existingAt >= 0) {
        const existing = reporters[existingAt];
        const given = Array.isArray(existing) && typeof existing[1] === 'object' ? existing[1] : {};
        if (options.outputDir)
          reporters.splice(existingAt, 1, [
            'riddle',
            { ...given, outputDir: options.outputDir },
          ] as (typeof reporters)[number]);
        return;
      }
      if (options.reporter === false) return;
      // The riddle reporter is the default reporter plus riddle's summary: it takes the default's place.
      const defaultAt = reporters.findIndex((entry) => named(entry, 'default'));
      const entry = ['riddle', { outputDir: options.outputDir }] as (typeof reporters)[number];
      if (defaultAt >= 0) reporters.splice(defaultAt, 1, entry);
      else reporters.push(entry);
    },
  };
}
