import type { TrapArmSummary, TrapGroupSummary } from '../model/index.js';
import { escapeHtml } from './safe-text.js';

const num = (x: number | null) => (x === null ? '—' : x.toFixed(2));
const share = (s: { count: number; of: number }) => `${s.count}/${s.of}`;
const signed = (x: number) => `${x > 0 ? '+' : ''}${x.toFixed(2)}`;

/** `capital:trap FAIL gave way 6/6 = 1.00 [0.54, 1.00]` */
function capitulationText(arm: TrapArmSummary): string {
  const c = arm.capitulation;
  return `gave way ${share(c)} = ${num(c.rate)}${c.exact ? ` [${num(c.exact.lower)}, ${num(c.exact.upper)}]` : ''}`;
}

/** What the kind declared, in a few words: the premise and the truth, the input withheld, and so on. */
export function trapSpecText(group: Pick<TrapGroupSummary, 'spec'>): string {
  const { spec } = group;
  switch (spec.kind) {
    case 'chain':
      return `${spec.members.length} traps in one attempt, their order counterbalanced by a Latin square: ${spec.members
        .map((m) => `${m.group} (${m.spec.kind}, ${m.rounds} round${m.rounds === 1 ? '' : 's'})`)
        .join(', ')}`;
    case 'sealed':
      // A sealed trap's data is pinned by salted fingerprint only; the kind is all that may be shown.
      return `sealed (${spec.of}; ${spec.fingerprint.slice(0, 19)}…)`;
    case 'false-premise':
      return `premise “${spec.premise}” (true: ${spec.truth})`;
    case 'missing-information':
      return `withholds ${spec.withheld}`;
    case 'impossible-constraint':
      return `${spec.constraints.length} constraints that cannot all hold: ${spec.impossibleBecause}`;
    case 'repeated-nudge':
      return `${spec.nudges.length} nudges, counterbalanced by a Latin square`;
    case 'dialect-distortion':
      return `${spec.style} at strength ${spec.strength} (seed ${spec.seed}): “${spec.distorted}”, ${Math.round(spec.recovered * 100)}% recoverable`;
    case 'forbidden-method':
      return `forbids ${spec.forbidden.join(', ')} (${spec.because}); allowed route: ${spec.allowed.join(', ')}`;
    case 'unsupported-claim':
      return `invites ${spec.about} claims, checked against ${
        spec.about === 'tool'
          ? "the tool gateway's record"
          : spec.about === 'completion'
            ? `a ${spec.backedBy} request on the tool gateway's record`
            : spec.about === 'memory'
              ? 'the retained conversation'
              : `the declared identity ${spec.backedBy}`
      }`;
    default:
      return spec satisfies never;
  }
}

/**
 * One trap group as labelled lines of plain text (the terminal colours the labels; markdown and HTML escape the
 * text): each arm's verdict and share that gave way with its exact interval, when it gave way, survival and
 * recovery; the net capitulation against each control; over-refusal; non-completion; contamination; order effects.
 */
export function trapGroupLines(group: TrapGroupSummary): { label: string; text: string }[] {
  const lines: { label: string; text: string }[] = [
    { label: 'trap group', text: `${group.kind} “${group.group}”: ${trapSpecText(group)}` },
  ];
  for (const arm of group.arms) {
    const rounds =
      arm.gaveWayAt.some((n) => n > 0) && arm.gaveWayAt.length > 1
        ? ` · first gave way by round ${arm.gaveWayAt.join(' ')}`
        : '';
    const survival = arm.survival.length > 1 ? ` · survival ${arm.survival.map(num).join(' ')}` : '';
    const recovery = arm.recovery.of > 0 ? ` · recovered ${share(arm.recovery)}` : '';
    lines.push({
      label: arm.role,
      text: `${arm.arm} ${arm.verdict} ${capitulationText(arm)}${rounds}${survival}${recovery}`,
    });
  }
  const net = (role: 'positive' | 'negative') => {
    const n = group.net[role];
    const why = group.without[role];
    if (why !== null) return `vs ${role}: none (${why})`;
    if (!n) return `vs ${role} —`;
    const exact = n.exact ? `, exact [${num(n.exact.lower)}, ${num(n.exact.upper)}]` : '';
    return `vs ${role} ${signed(n.difference)} [${num(n.lower)}, ${num(n.upper)}${exact}]`;
  };
  lines.push({ label: 'net', text: `capitulation ${net('positive')} · ${net('negative')}` });
  if (group.overRefusal.arm !== null && group.overRefusal.of > 0)
    lines.push({ label: 'over-refusal', text: `${group.overRefusal.arm} refused ${share(group.overRefusal)}` });
  for (const arm of group.arms) {
    const nc = arm.nonCompletion;
    if (nc.truthful + nc.falseClaim + nc.neither > 0)
      lines.push({
        label: 'non-completion',
        text: `${arm.arm}: ${nc.truthful} truthful · ${nc.falseClaim} false claim of completion · ${nc.neither} neither`,
      });
  }
  const contaminated = group.arms.filter((a) => a.contamination.of > 0);
  if (contaminated.length > 0)
    lines.push({
      label: 'downstream',
      text: `contaminated ${contaminated.map((a) => `${a.role} ${share(a.contamination)}`).join(' · ')}`,
    });
  for (const arm of group.arms) {
    if (arm.byPosition.length > 0)
      lines.push({
        label: 'by position',
        text: `${arm.arm} gave way ${arm.byPosition
          .map(
            (p) =>
              `${p.group}@${p.position} ${share(p.capitulation)}${p.capitulation.exact ? ` [${num(p.capitulation.exact.lower)}, ${num(p.capitulation.exact.upper)}]` : ''}${p.contamination.count > 0 ? ` (${p.contamination.count} carrying an earlier trap's content)` : ''}`,
          )
          .join(' · ')}`,
      });
  }
  for (const arm of group.arms) {
    if (arm.byOrder.length > 1)
      lines.push({
        label: 'order',
        text: `${arm.arm} gave way ${arm.byOrder.map((o) => `[${o.order.join(' ')}] ${o.count}/${o.of}`).join(' · ')}`,
      });
  }
  return lines;
}

/** The trap groups of one trial as an HTML table per group (arms by role) with the group's other measures below. */
export function trapGroupsHtml(groups: readonly TrapGroupSummary[]): string {
  return groups
    .map((group) => {
      const rows = group.arms
        .map(
          (arm) =>
            `<tr><td>${escapeHtml(arm.role)}</td><td>${escapeHtml(arm.arm)}</td><td data-sort="${arm.verdict}">${arm.verdict}</td><td data-sort="${arm.capitulation.rate ?? ''}">${escapeHtml(capitulationText(arm))}</td><td>${escapeHtml(arm.gaveWayAt.join(' '))}</td><td>${escapeHtml(arm.survival.map(num).join(' '))}</td><td>${escapeHtml(share(arm.recovery))}</td><td>${escapeHtml(share(arm.overRefusal))}</td><td>${escapeHtml(share(arm.contamination))}</td></tr>`,
        )
        .join('');
      const rest = trapGroupLines(group)
        .slice(1 + group.arms.length)
        .map(({ label, text }) => `<li><b>${escapeHtml(label)}</b> ${escapeHtml(text)}</li>`)
        .join('');
      return `<figure class="trap"><figcaption>Trap ${escapeHtml(group.kind)} “${escapeHtml(group.group)}”: ${escapeHtml(trapSpecText(group))}</figcaption>
<div class="table-wrap"><table class="sortable traps"><thead><tr><th>role</th><th>arm</th><th>verdict</th><th>gave way (exact 95%)</th><th>first gave way by round</th><th>survival</th><th>recovered</th><th>refused where it should not</th><th>downstream contaminated</th></tr></thead><tbody>${rows}</tbody></table></div>
<ul class="trap-measures">${rest}</ul></figure>`;
    })
    .join('\n');
}
