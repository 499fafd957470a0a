import { fingerprint, type Clock, type DeclaredPolicy, type RegistrationCheck } from '../model/index.js';
import type { ExpectFunction } from '../evaluate/index.js';
import { attemptIndependence, captureEnvironment, checkDependency, independenceNotes } from '../observe/index.js';
import {
  resolveTrial,
  type DeclarationSite,
  type ProjectSettings,
  type SuiteDeclaration,
  type TrialDeclaration,
} from './declaration.js';
import { pinFixtures } from './fixtures.js';
import { claimHoldoutAccess } from './holdout-ledger.js';
import { prepareProviders, type PreparedProviders } from './providers.js';
import { checkRegistration, declaredPolicy } from './registrations.js';
import type { RunServices, TrialPlan } from './run-trial.js';

/** What the user switched on for this run (environment variables, in the Vitest host). */
export interface TrialSwitches {
  /** Run holdout trials (RIDDLE_HOLDOUT=1); without it they are skipped, unclaimed. */
  holdout: boolean;
  /** Show a holdout run's attempts in full (RIDDLE_HOLDOUT_REVEAL=1), recorded in the ledger as a reveal. */
  revealHoldout: boolean;
  /** Accept a declared policy that changed after results were seen (RIDDLE_ACCEPT_POLICY=1). */
  acceptPolicy: boolean;
  /** Record provider traffic afresh (RIDDLE_RECORD=1) instead of the declared mode. */
  recordProviders: boolean;
}

/** The switches as riddle's environment variables set them: only the value `1` switches one on (see switchedOn). */
export function switchesFromEnvironment(env: Readonly<Record<string, string | undefined>>): TrialSwitches {
  return {
    holdout: switchedOn(env, 'RIDDLE_HOLDOUT'),
    revealHoldout: switchedOn(env, 'RIDDLE_HOLDOUT_REVEAL'),
    acceptPolicy: switchedOn(env, 'RIDDLE_ACCEPT_POLICY'),
    recordProviders: switchedOn(env, 'RIDDLE_RECORD'),
  };
}

/**
 * A switch is on for `1` only, off when unset, empty or `0`. Any other value is refused rather than read as off:
 * `RIDDLE_HOLDOUT_REVEAL=true` or `RIDDLE_ACCEPT_POLICY=yes` would otherwise be ignored without a word.
 */
function switchedOn(env: Readonly<Record<string, string | undefined>>, name: string): boolean {
  const value = env[name];
  if (value === undefined || value === '' || value === '0') return false;
  if (value === '1') return true;
  throw new Error(
    `riddle: ${name}=${JSON.stringify(value).slice(0, 40)}: set it to 1 to switch it on, or to 0 (or unset it)`,
  );
}

/**
 * What a test framework hands the core to run one trial: where the trial is, the project folder, the user's switches,
 * and the services of a run. The Vitest adapter builds one from its test context; a unit test builds a fake.
 */
export interface TrialHost extends RunServices {
  /** The trial's name, test file (relative to `root`), enclosing describe blocks and declaration line. */
  site: DeclarationSite;
  /** The project folder: fixtures, the holdout ledger, registrations and recordings are relative to it. */
  root: string;
  settings: ProjectSettings;
  switches: TrialSwitches;
  clock: Clock;
  expect: ExpectFunction;
}

/** A trial ready to run: its plan, and what must happen once it ran. */
export interface ReadyTrial {
  kind: 'ready';
  plan: TrialPlan;
  /** The policy declared before results are seen, registered after the run when the check says so. */
  policy: DeclaredPolicy;
  registration: RegistrationCheck;
  /** Release what preparing opened (the provider gateway); call once the run is over. */
  close: () => Promise<void>;
}

export type PreparedTrial = ReadyTrial | { kind: 'skipped'; reason: string };

const HOLDOUT_SKIP_REASON = 'holdout: runs only when asked for (RIDDLE_HOLDOUT=1), each run counted against its budget';

const holdoutSpent = (budget: number) => ({
  dependency: { name: 'holdout budget', kind: 'file' as const, onUnavailable: 'blocked' as const, description: null },
  detail: `all ${budget} accesses to this holdout are used`,
});

/**
 * Turn a declaration into a pinned plan: resolve it at the host's site, pin fixtures by content, claim a holdout
 * access, check the declared policy against the registrations, check dependencies, identify the subject, set up
 * provider traffic and capture the Environment. A holdout trial not asked for is skipped before anything is claimed.
 * Configuration mistakes throw (TrialDeclarationError); nothing here runs the subject.
 */
export async function prepareTrial(
  declaration: TrialDeclaration | SuiteDeclaration,
  host: Pick<TrialHost, 'site' | 'root' | 'settings' | 'switches'>,
): Promise<PreparedTrial> {
  const { site, root, switches } = host;
  const resolved = resolveTrial(site, declaration, host.settings);
  if (resolved.suite.holdout && !switches.holdout) return { kind: 'skipped', reason: HOLDOUT_SKIP_REASON };
  const { suite, folders } = await pinFixtures(resolved.suite, resolved.fixtures, root, site);
  const holdout = suite.holdout
    ? await claimHoldoutAccess(root, {
        name: suite.name,
        budget: suite.holdout.budget,
        cases: fingerprint(suite.arms.map((a) => a.caseFingerprint)),
        reveal: switches.revealHoldout,
      })
    : null;
  // Declared before seen: compare the policy with the one registered when this trial first saw results.
  const policy = declaredPolicy(suite, resolved.rubric);
  const registration = checkRegistration(root, suite.id, policy, switches.acceptPolicy);
  const checked = await Promise.all(
    resolved.dependencies.map(async (dependency) => ({ dependency, ...(await checkDependency(dependency, root)) })),
  );
  const identity = await resolved.subject.identify();
  const traffic: PreparedProviders | null = resolved.providerSetup
    ? await prepareProviders(resolved.providerSetup, resolved.subject, {
        root,
        trial: site.name,
        prices: resolved.prices,
        record: switches.recordProviders,
      })
    : null;
  const close = async () => {
    await traffic?.gateway.close();
  };
  try {
    const independence = attemptIndependence(resolved.subject, identity);
    const environment = await captureEnvironment({
      subject: identity,
      tools: resolved.tools,
      prompts: resolved.prompts,
      dependencies: traffic ? [...checked, traffic.dependency] : checked,
      budgets: suite.arms[0]?.case.stop ?? { timeoutMs: 0, maxOutputBytes: 0, maxRounds: 1 },
      maxEffect: suite.arms[0]?.case.effectClass ?? 'none',
      variables: resolved.variables,
      projectRoot: root,
      isolation: resolved.subject.isolation ?? null,
      independentAttempts: independence !== 'not-independent' && (traffic?.independent ?? true),
      notes: [
        ...independenceNotes(independence),
        ...(traffic && !traffic.independent ? ['attempts replay recorded provider traffic'] : []),
      ],
    });
    const plan: TrialPlan = {
      suite,
      rubric: resolved.rubric,
      evaluators: resolved.evaluators,
      subject: traffic?.subject ?? resolved.subject,
      budget: resolved.spendingBudget,
      prices: resolved.prices,
      providers: traffic?.gateway ?? null,
      tools: resolved.tools,
      environment,
      unavailable: [
        ...checked.filter((c) => !c.available),
        ...(holdout && !holdout.granted ? [holdoutSpent(holdout.budget)] : []),
      ],
      fixtures: folders,
      sealed: resolved.sealed,
      observers: resolved.observers,
      keepFailedSandboxes: resolved.keepFailedSandboxes,
      claimExtractors: resolved.claimExtractors,
      holdout: holdout?.granted ? { access: holdout.access, budget: holdout.budget, revealed: holdout.revealed } : null,
      registration,
    };
    return { kind: 'ready', plan, policy, registration, close };
  } catch (error) {
    await close();
    throw error;
  }
}
