import { describe, expect, it } from 'vitest';
import { FindingsFile } from '../../../src/model/index.js';
import {
  capabilitySentence,
  findingsFile,
  findingsFor,
  renderFindingsMarkdown,
  renderFindingsText,
  renderMarkdown,
} from '../../../src/report/index.js';
import { renderHtml } from '../../../src/report/html.js';
import { runOutcome } from './run-outcome.js';

/** A healthy trial (every attempt passes) and an unhealthy one (every attempt fails), run in process. */
async function outcomes() {
  const healthy = await runOutcome('greets', {
    subject: () => 'hello',
    rubric: { criteria: { greets: { description: 'says hello', needs: 'text' } } },
    checks: { greets: (o) => void expect(String(o.reply)).toBe('hello') },
    case: { input: 'hi', expect: ['greets'] },
    repeat: { n: 20, stop: 'fixed' },
  });
  const unhealthy = await runOutcome('mute', {
    subject: () => '',
    rubric: { criteria: { greets: { description: 'says hello', needs: 'text' } } },
    checks: { greets: (o) => void expect(String(o.reply)).toBe('hello') },
    case: { input: 'hi', expect: ['greets'] },
    repeat: { n: 20, stop: 'fixed' },
  });
  return { healthy, unhealthy };
}

describe('capability claims in the findings file and the reports', () => {
  it('exports each claim with its trial and the id of the Outcome it was made in', async () => {
    const { healthy, unhealthy } = await outcomes();
    expect(healthy.capabilities).toHaveLength(1);
    expect(unhealthy.capabilities).toEqual([]);
    const file = FindingsFile.parse(findingsFile([unhealthy, healthy], 'run-1'));
    expect(file.schema).toBe('riddle.findings/2');
    expect(file.claims).toEqual([{ ...healthy.capabilities[0], trial: healthy.trial, outcome: healthy.id }]);
    expect(file.claims?.[0]).toMatchObject({
      kind: 'arm',
      scope: {
        rubric: healthy.pinned.rubric,
        evaluators: healthy.pinned.evaluators,
        environment: healthy.pinned.environment,
      },
      bound: { interval: 'clopper-pearson', side: 'lower', threshold: healthy.records.rubric.threshold.rate },
    });
    // Claims are no findings: the count stays that of the findings, and an owner's view keeps the run's claims.
    expect(file.total).toBe(unhealthy.findings.length);
    expect(findingsFor(file, 'subject').claims).toEqual(file.claims);
  });

  it('renders the claim from its record, with its scope and Outcome, in text, Markdown and HTML', async () => {
    const { healthy } = await outcomes();
    const [claim] = healthy.capabilities;
    if (claim === undefined) throw new Error('no claim');
    const sentence = capabilitySentence(claim);
    expect(sentence).toMatch(
      /^s \(1\) met greets on case "case" in 20 of 20 attempts: its success rate is at least 0\.86/,
    );
    const file = findingsFile([healthy], null);
    const text = renderFindingsText(file);
    expect(text).toContain('no findings');
    expect(text).toContain(`greets: ${sentence}`);
    expect(text).toContain(`Outcome ${healthy.id}`);
    expect(text).toContain(`rubric ${healthy.pinned.rubric.slice('sha256:'.length, 'sha256:'.length + 12)}`);
    expect(renderFindingsMarkdown(file)).toContain('## Capability claims (1)');
    expect(renderMarkdown([healthy], 'run-1')).toContain(`- capability: ${sentence} _(for s 1; rubric `);
    expect(renderHtml([healthy], 'run-1')).toContain(
      `<h4>Capability claims</h4><ul><li>${sentence.replace(/"/g, '&quot;')} <small>for s 1; rubric `,
    );
  });
});
