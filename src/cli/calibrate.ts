import path from 'node:path';
import { parseArgs } from 'node:util';
import { z } from 'zod';
import { calibrate, type CalibrationFloor, type ExpectFunction } from '../evaluate/index.js';
import { LabelledControl, migrate, type Calibration, type Rubric } from '../model/index.js';
import { artifactJson, writeFileAtomic } from '../report/index.js';
import { evaluatorMisfits } from '../run/evaluator-fit.js';
import { asEvaluator, importDefault } from './load-module.js';
import { loadRun, readJsonFile } from './read-records.js';
import { UsageError } from './usage.js';

/**
 * Labelled controls on file: a list of `{ id, observation, labels }`, or the retained attempts of an Outcome with
 * labels by attempt key: `{ "outcome": "path/to/outcome.json", "labels": { "case#0": { "declines": "met" } } }`.
 */
const ControlsFromOutcome = z.object({
  outcome: z.string(),
  labels: z.record(z.string(), z.record(z.string(), z.string())),
});

function readControls(file: string): LabelledControl[] {
  const data = readJsonFile(file);
  const list = z.array(LabelledControl).safeParse(data);
  if (list.success) return list.data;
  const fromOutcome = ControlsFromOutcome.safeParse(data);
  if (!fromOutcome.success) {
    throw new Error(
      `${file}: expected a list of { id, observation, labels } or { outcome, labels }: ${list.error.issues[0]?.message ?? ''}`,
    );
  }
  const outcomeFile = path.resolve(path.dirname(file), fromOutcome.data.outcome);
  const [outcome] = loadRun(outcomeFile).outcomes;
  if (!outcome) throw new Error(`${outcomeFile}: no Outcome found`);
  return Object.entries(fromOutcome.data.labels).map(([key, labels]) => {
    const attempt = outcome.attempts.find((a) => `${a.arm}#${a.index}` === key);
    if (!attempt) throw new Error(`${file}: ${outcomeFile} has no attempt ${key} (keys are arm#index, e.g. case#0)`);
    if (!attempt.observation)
      throw new Error(`${file}: attempt ${key} of ${outcomeFile} retained no Observation to calibrate on`);
    return { id: key, observation: attempt.observation, labels };
  });
}

const fixed = (x: number | null, digits = 3) => (x === null ? '—' : x.toFixed(digits));

/** The calibration as a table: one line per criterion. */
export function formatCalibration(calibration: Calibration): string {
  const lines = [
    `${calibration.evaluator.id} (${calibration.evaluator.revision}) on ${calibration.controls.count} labelled controls, ` +
      `one-sided ${Math.round((1 - calibration.method.alpha) * 100)}% Clopper–Pearson bounds`,
    '',
    '  criterion            sensitivity (≥ lower)   specificity (≥ lower)   raw     κ       AC1     α       floor  trusted',
  ];
  for (const c of calibration.criteria) {
    const se = `${fixed(c.sensitivity.value)} (≥ ${fixed(c.sensitivity.lower)}) ${c.sensitivity.tp}/${c.sensitivity.tp + c.sensitivity.fn}`;
    const sp = `${fixed(c.specificity.value)} (≥ ${fixed(c.specificity.lower)}) ${c.specificity.tn}/${c.specificity.tn + c.specificity.fp}`;
    const { raw, cohenKappa, gwetAC1, krippendorffAlpha } = c.agreement;
    lines.push(
      `  ${c.criterion.padEnd(20)} ${se.padEnd(23)} ${sp.padEnd(23)} ${fixed(raw).padEnd(7)} ${fixed(cohenKappa).padEnd(7)} ${fixed(gwetAC1).padEnd(7)} ` +
        `${fixed(krippendorffAlpha).padEnd(7)} ${c.floor.toFixed(2).padEnd(6)} ${c.trusted ? 'yes' : 'NO'}` +
        (c.controls.unjudged > 0 ? `  (${c.controls.unjudged} unjudged)` : ''),
    );
  }
  return lines.join('\n');
}

/**
 * `riddle calibrate --evaluator <module.js> [--controls <controls.json>] [--floor 0.8] [--alpha 0.05] [--out <file>]`
 *
 * The module default-exports `{ evaluator, rubric, controls?, floor?, expect? }`: the evaluator to calibrate (a
 * `modelJudge(…)` without calibration), the Rubric declaring its criteria, labelled controls (or `--controls`),
 * the floor its one-sided lower bounds must clear, and, for checks that assert, an `expect`. Writes the
 * calibration file (default `<evaluator id>.calibration.json`) to reference from the judge's `calibration` option.
 * Exit code 0 when the evaluator is trusted for every criterion, 1 when not.
 */
export async function calibrateCommand(args: readonly string[]): Promise<number> {
  const { values } = parseArgs({
    args: [...args],
    options: {
      evaluator: { type: 'string' },
      controls: { type: 'string' },
      floor: { type: 'string' },
      alpha: { type: 'string' },
      out: { type: 'string' },
    },
  });
  if (!values.evaluator) throw new UsageError('calibrate', 'needs --evaluator <module.js>');
  const module = await importDefault(values.evaluator, 'evaluator');
  const evaluator = asEvaluator(module.evaluator, `${values.evaluator}: default export .evaluator`);
  const rubric: Rubric = migrate('rubric', module.rubric, `${values.evaluator}: default export .rubric`);
  const [misfit] = evaluatorMisfits(rubric, [evaluator]);
  if (misfit)
    throw new Error(`${values.evaluator}: default export .evaluator ("${evaluator.record.id}") ${misfit.problem}`);
  const controls = values.controls
    ? readControls(values.controls)
    : z.array(LabelledControl).parse(module.controls ?? [], {
        error: () => `${values.evaluator}: default export .controls must be a list of { id, observation, labels }`,
      });
  if (controls.length === 0)
    throw new Error('no labelled controls: pass --controls <file> or export controls from the module');
  const floor: CalibrationFloor | undefined =
    values.floor !== undefined ? Number(values.floor) : (module.floor as CalibrationFloor | undefined);
  if (floor === undefined)
    throw new Error('declare the floor the lower bounds must clear: --floor 0.8, or export floor from the module');
  const alpha = values.alpha !== undefined ? Number(values.alpha) : undefined;
  const calibration = await calibrate(evaluator, controls, {
    rubric,
    floor,
    ...(alpha !== undefined ? { alpha } : {}),
    source: values.controls ?? values.evaluator,
    ...(typeof module.expect === 'function' ? { expect: module.expect as ExpectFunction } : {}),
  });
  const out = values.out ?? `${evaluator.record.id.replace(/[^\w.-]+/g, '-')}.calibration.json`;
  writeFileAtomic(path.resolve(out), artifactJson(calibration));
  process.stdout.write(`${formatCalibration(calibration)}\n\n  wrote ${out}\n`);
  return calibration.criteria.every((c) => c.trusted) ? 0 : 1;
}
