import { gradeCovers, gradeRank, type CriterionFinding, type CriterionResult, type Rubric } from '../model/index.js';

/**
 * Combine all findings on each criterion into one result. Only trusted findings whose evidence is at least the
 * grade the criterion needs can decide it; among those, the most direct grade wins (a receipt outranks text or
 * judgment, and the overruled findings are named in the reason); findings of equal grade that disagree make it
 * DISPUTED, each kept.
 */
export function combineFindings(rubric: Rubric, findings: readonly CriterionFinding[]): CriterionResult[] {
  return rubric.criteria.map((criterion) => {
    const mine = findings.filter((f) => f.criterion === criterion.name);
    const base = { criterion: criterion.name };
    if (mine.length === 0) {
      return { ...base, result: 'unknown', label: null, grade: null, coveredBy: [], reason: 'no evaluator gave a finding' };
    }
    const deciding = mine.filter(
      (f) => (f.result === 'met' || f.result === 'unmet') && f.trusted && f.grade !== null && gradeCovers(f.grade, criterion.needs),
    );
    if (deciding.length === 0) {
      const untrusted = mine.filter((f) => !f.trusted && (f.result === 'met' || f.result === 'unmet'));
      const weak = mine.filter((f) => f.trusted && f.grade !== null && !gradeCovers(f.grade, criterion.needs));
      const reason = untrusted.length
        ? `only untrusted findings (${untrusted.map((f) => f.evaluator).join(', ')}): an uncalibrated judge cannot decide alone`
        : weak.length
          ? `uncovered: needs ${criterion.needs} evidence, best was ${weak.map((f) => f.grade).join('/')}`
          : `uncovered: ${mine.map((f) => `${f.evaluator}: ${f.note}`).join('; ')}`;
      return { ...base, result: 'unknown', label: null, grade: null, coveredBy: [], reason };
    }
    const best = Math.max(...deciding.map((f) => gradeRank(f.grade ?? 'judgment')));
    const top = deciding.filter((f) => gradeRank(f.grade ?? 'judgment') === best);
    const overruled = deciding.filter((f) => gradeRank(f.grade ?? 'judgment') < best && f.result !== top[0]?.result);
    const results = new Set(top.map((f) => f.result));
    const grade = top[0]?.grade ?? null;
    const coveredBy = top.flatMap((f) => f.evidence);
    if (results.size > 1) {
      const sides = top.map((f) => `${f.evaluator}: ${f.result} (${f.note})`).join('; ');
      return { ...base, result: 'disputed', label: null, grade, coveredBy, reason: `evaluators disagree: ${sides}` };
    }
    const result = top[0]?.result === 'met' ? 'met' : 'unmet';
    const labels = new Set(top.map((f) => f.label));
    const label = labels.size === 1 ? (top[0]?.label ?? null) : null;
    const note = overruled.length
      ? `; overrules ${overruled.map((f) => `${f.evaluator} (${f.grade}: ${f.result})`).join(', ')}`
      : '';
    return { ...base, result, label, grade, coveredBy, reason: `${top.map((f) => f.evaluator).join(', ')}: ${top[0]?.note ?? ''}${note}` };
  });
}
