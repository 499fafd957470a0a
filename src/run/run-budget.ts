import { appendFileSync, closeSync, fstatSync, openSync, readSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { Budget, BudgetRecord, costOf, type AttemptRecord, type PriceTable, lazySchema } from '../model/index.js';
import { withFolderLock } from './folder-lock.js';

/**
 * A run-wide budget as the host hands it to every worker: the limits, the ledger file they all write to, and when
 * the run started (its wall time counts from then). Plain JSON: it crosses into workers through the host.
 */
export interface RunBudgetShare {
  limits: Budget;
  /** Absolute path of the run's ledger (JSON Lines). */
  ledger: string;
  /** When the run started, in milliseconds since the epoch. */
  startedAt: number;
}

export const RUN_LEDGER_SCHEMA = 'riddle.run-ledger/1';

/**
 * One line of the ledger. The first line opens it; every finished attempt of every trial adds its spending, every
 * attempt refused adds a block, and the first worker to find the budget spent adds the reason all others then give.
 */
const LedgerLine = lazySchema(() =>
  z.discriminatedUnion('kind', [
    z.object({ kind: z.literal('open'), schema: z.literal(RUN_LEDGER_SCHEMA), limits: Budget, startedAt: z.number() }),
    z.object({
      kind: z.literal('spend'),
      trial: z.string(),
      attempt: z.string(),
      usd: z.number().nullable(),
      tokens: z.number().int().min(0),
    }),
    z.object({ kind: z.literal('spent'), reason: z.string() }),
    z.object({ kind: z.literal('block'), trial: z.string(), attempt: z.string() }),
  ]),
);
type LedgerLine = z.infer<typeof LedgerLine>;

const usd = (value: number) => `$${Number(value.toFixed(6))}`;

/** Start a run's ledger (replacing any file at that path). */
export function openRunLedger(share: RunBudgetShare): void {
  writeFileSync(
    share.ledger,
    `${JSON.stringify({ kind: 'open', schema: RUN_LEDGER_SCHEMA, limits: share.limits, startedAt: share.startedAt })}\n`,
  );
}

/** Sums of a ledger read so far. */
interface Tally {
  usd: number | null;
  tokens: number;
  reason: string | null;
  blocked: number;
}

/**
 * The run's budget as one worker sees it. Reads and writes hold the ledger's folder lock, so attempts finishing in
 * several workers (processes or threads) at once are all counted; the file is append-only and each reader keeps its
 * place, so a check reads only the lines added since the last one.
 */
export class RunLedger {
  private offset = 0;
  private rest = '';
  private readonly tally: Tally = { usd: null, tokens: 0, reason: null, blocked: 0 };

  constructor(readonly share: RunBudgetShare) {}

  private locked<T>(work: () => T): Promise<T> {
    return withFolderLock(path.dirname(this.share.ledger), path.basename(this.share.ledger), work);
  }

  /** Take in the lines appended since the last read. */
  private catchUp(): void {
    const fd = openSync(this.share.ledger, 'r');
    try {
      const size = fstatSync(fd).size;
      if (size <= this.offset) return;
      const chunk = Buffer.alloc(size - this.offset);
      readSync(fd, chunk, 0, chunk.length, this.offset);
      this.offset = size;
      const lines = (this.rest + chunk.toString('utf8')).split('\n');
      this.rest = lines.pop() ?? '';
      for (const text of lines) if (text !== '') this.take(parseLine(text, this.share.ledger));
    } finally {
      closeSync(fd);
    }
  }

  private take(line: LedgerLine): void {
    if (line.kind === 'spend') {
      if (line.usd !== null) this.tally.usd = (this.tally.usd ?? 0) + line.usd;
      this.tally.tokens += line.tokens;
    } else if (line.kind === 'spent') this.tally.reason ??= line.reason;
    else if (line.kind === 'block') this.tally.blocked += 1;
  }

  private append(line: LedgerLine): void {
    appendFileSync(this.share.ledger, `${JSON.stringify(line)}\n`);
  }

  /** Why the run's budget is spent (the same words in every worker), or null while it lasts. */
  spent(now: number): Promise<string | null> {
    return this.locked(() => {
      this.catchUp();
      if (this.tally.reason !== null) return this.tally.reason;
      const reason = exhaustion(this.share.limits, this.tally, now - this.share.startedAt);
      if (reason !== null) {
        this.append({ kind: 'spent', reason });
        this.tally.reason = reason;
      }
      return reason;
    });
  }

  /** Add what a finished attempt of a trial spent: USD (null when unknown) and tokens. */
  spend(trial: string, attempt: string, spent: { usd: number | null; tokens: number }): Promise<void> {
    return this.locked(() => this.append({ kind: 'spend', trial, attempt, ...spent }));
  }

  /** Note an attempt refused because the run's budget was spent. */
  block(trial: string, attempt: string): Promise<void> {
    return this.locked(() => this.append({ kind: 'block', trial, attempt }));
  }
}

function parseLine(text: string, file: string): LedgerLine {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    throw new Error(`riddle: run budget ledger ${file} has a line that is not JSON: ${text.slice(0, 80)}`);
  }
  const parsed = LedgerLine.safeParse(data);
  if (!parsed.success) throw new Error(`riddle: run budget ledger ${file} has a malformed line: ${text.slice(0, 80)}`);
  return parsed.data;
}

/** The limit a run has spent, in words, or null. */
function exhaustion(limits: Budget, tally: Tally, elapsedMs: number): string | null {
  if (limits.usd !== null && tally.usd !== null && tally.usd >= limits.usd)
    return `run cost budget spent: ${usd(tally.usd)} of ${usd(limits.usd)} across the run's trials`;
  if (limits.tokens !== null && tally.tokens >= limits.tokens)
    return `run token budget spent: ${tally.tokens} of ${limits.tokens} tokens across the run's trials`;
  if (limits.wallMs !== null && elapsedMs >= limits.wallMs)
    return `run wall-time budget spent: ${Math.round(elapsedMs)} ms of ${limits.wallMs} ms since the run started`;
  return null;
}

/**
 * What a run's budget allowed and what the run spent, read from its ledger once the run is over: the record the
 * run index keeps. `finishedAt` gives the run's wall time.
 */
export function readRunLedger(file: string, finishedAt: number): BudgetRecord {
  const lines = readLines(file);
  const opening = lines[0];
  if (opening?.kind !== 'open') throw new Error(`riddle: run budget ledger ${file} does not start with its limits`);
  const tally: Tally = { usd: null, tokens: 0, reason: null, blocked: 0 };
  for (const line of lines) {
    if (line.kind === 'spend') {
      if (line.usd !== null) tally.usd = (tally.usd ?? 0) + line.usd;
      tally.tokens += line.tokens;
    } else if (line.kind === 'spent') tally.reason ??= line.reason;
    else if (line.kind === 'block') tally.blocked += 1;
  }
  return BudgetRecord.parse({
    declared: opening.limits,
    spent: { usd: tally.usd, tokens: tally.tokens, wallMs: Math.max(0, finishedAt - opening.startedAt) },
    exhausted: tally.reason,
    blockedAttempts: tally.blocked,
  });
}

function readLines(file: string): LedgerLine[] {
  const fd = openSync(file, 'r');
  try {
    const chunk = Buffer.alloc(fstatSync(fd).size);
    readSync(fd, chunk, 0, chunk.length, 0);
    return chunk
      .toString('utf8')
      .split('\n')
      .filter((text) => text !== '')
      .map((text) => parseLine(text, file));
  } finally {
    closeSync(fd);
  }
}

/**
 * One trial's view of the run's budget, as the scheduler asks it before each attempt: whether the run's budget is
 * spent, which arms it stopped and after how many attempts, for the trial's stopping records.
 */
export class RunBudgetGate {
  private readonly blocked = new Set<string>();
  private readonly runs = new Map<string, number>();
  private reason: string | null = null;

  constructor(
    private readonly ledger: RunLedger,
    private readonly trial: string,
    private readonly prices: PriceTable,
    private readonly now: () => number,
  ) {}

  async spent(): Promise<string | null> {
    this.reason ??= await this.ledger.spent(this.now());
    return this.reason;
  }

  async block(arm: string, index: number): Promise<void> {
    this.blocked.add(arm);
    await this.ledger.block(this.trial, `${arm}#${index}`);
  }

  /** Add a finished attempt's receipts (their own cost, else the trial's price of their model) to the run's spending. */
  async spend(record: AttemptRecord): Promise<void> {
    this.runs.set(record.arm, (this.runs.get(record.arm) ?? 0) + 1);
    const cost = costOf(record.observation?.receipts ?? [], this.prices);
    await this.ledger.spend(this.trial, `${record.arm}#${record.index}`, {
      usd: cost.usd,
      tokens: cost.inputTokens + cost.outputTokens,
    });
  }

  /** The stopping records of the arms the run's budget stopped. */
  stops(): { arm: string; afterAttempts: number; decision: string; rule: string }[] {
    return [...this.blocked].map((arm) => ({
      arm,
      afterAttempts: this.runs.get(arm) ?? 0,
      decision: 'run budget',
      rule: this.reason ?? 'run budget',
    }));
  }
}

/** A run-wide budget as declared (the riddle plugin's `runBudget` option). */
export interface RunBudgetDeclaration {
  /** USD across every trial of the run, from receipts (or each trial's price table). */
  usd?: number;
  /** Input + output tokens across every trial of the run, from receipts. */
  tokens?: number;
  /** Wall time of the whole run, in milliseconds from its start. */
  wallMs?: number;
}

/** Environment variables that set (and override) the run budget's limits, e.g. in CI. */
export const RUN_BUDGET_VARIABLES = {
  usd: 'RIDDLE_RUN_BUDGET_USD',
  tokens: 'RIDDLE_RUN_BUDGET_TOKENS',
  wallMs: 'RIDDLE_RUN_BUDGET_WALL_MS',
} as const;

const LIMITS = ['usd', 'tokens', 'wallMs'] as const;

/**
 * The run budget's limits from the plugin option and the environment (a variable wins over the option), or null
 * when neither declares one. A mistake throws, naming the option or variable and what it accepts.
 */
export function resolveRunBudget(
  declared: RunBudgetDeclaration | undefined,
  env: Readonly<Record<string, string | undefined>>,
): Budget | null {
  if (declared !== undefined && (typeof declared !== 'object' || declared === null || Array.isArray(declared)))
    throw new Error('riddle plugin: runBudget must be an object such as { usd: 2, tokens: 500000, wallMs: 600000 }');
  for (const key of Object.keys(declared ?? {})) {
    if (!(LIMITS as readonly string[]).includes(key))
      throw new Error(`riddle plugin: runBudget.${key} is not a limit; give usd, tokens or wallMs`);
  }
  const limit = (key: (typeof LIMITS)[number]): number | null => {
    const variable = RUN_BUDGET_VARIABLES[key];
    const text = env[variable]?.trim();
    const [value, where] =
      text !== undefined && text !== ''
        ? [Number(text), `${variable}=${text}`]
        : [declared?.[key], `riddle plugin: runBudget.${key} = ${String(declared?.[key])}`];
    if (value === undefined) return null;
    const whole = key === 'tokens';
    if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0 || (whole && !Number.isInteger(value)))
      throw new Error(`${where}: the run's ${key} budget must be a positive ${whole ? 'whole number' : 'number'}`);
    return value;
  };
  const limits: Budget = { usd: limit('usd'), tokens: limit('tokens'), wallMs: limit('wallMs') };
  return LIMITS.some((key) => limits[key] !== null) ? limits : null;
}
