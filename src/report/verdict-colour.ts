import pc from 'picocolors';
import type { Verdict } from '../model/index.js';

/** One colour per verdict in every terminal rendering: green passes, red fails, magenta lies, grey unknowns. */
export const VERDICT_COLOUR: Record<Verdict, (s: string) => string> = {
  PASS: pc.green,
  PARTIAL: pc.yellow,
  FAIL: pc.red,
  CONTRADICTED: pc.magenta,
  UNKNOWN: pc.gray,
  DISPUTED: pc.cyan,
};
