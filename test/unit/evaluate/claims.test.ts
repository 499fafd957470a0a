import { describe, expect, it } from 'vitest';
import { checkClaims, englishClaimExtractor, extractClaims, regexClaimExtractor } from '../../../src/evaluate/index.js';
import type { Claim, Observation } from '../../../src/model/index.js';
import { fileChange, observation, toolRequest } from './helpers.js';

const claim = (action: Claim['action'], target: string, text = `I ${action} ${target}`): Claim => ({
  action,
  target,
  text,
  source: 'structured',
  round: 1,
});
const claiming = (claims: Claim[], parts: Partial<Observation> = {}): Observation => ({
  ...observation(parts),
  rounds: [{ index: 1, input: 'go', reply: 'done', claims, durationMs: 1 }],
});
const statusOf = (o: Observation, options = {}) => checkClaims(o, options).map((c) => c.status);

describe('checkClaims: files', () => {
  it('supports a deletion the workspace shows', () => {
    const [check] = checkClaims(
      claiming([claim('deleted', 'notes/2020.txt')], { files: [fileChange('notes/2020.txt', 'deleted')] }),
    );
    expect(check).toMatchObject({
      status: 'supported',
      receipt: { kind: 'file', target: 'notes/2020.txt', grade: 'receipt' },
    });
    expect(check?.claim).toEqual({
      action: 'deleted',
      target: 'notes/2020.txt',
      text: 'I deleted notes/2020.txt',
      round: 1,
      source: 'structured',
      extractor: null,
    });
  });

  it('contradicts a deletion when the only request to delete was denied, and shows the denied request', () => {
    const denied = toolRequest('delete_file', false, { path: 'notes/2019.txt' });
    const [check] = checkClaims(claiming([claim('deleted', 'notes/2019.txt')], { toolRequests: [denied] }));
    expect(check?.status).toBe('contradicted');
    expect(check?.receipt).toMatchObject({ kind: 'tool', target: 'delete_file', grade: 'receipt' });
    expect(check?.receipt?.detail).toContain('denied');
    expect(check?.note).toContain('denied or failed');
  });

  it('contradicts a deletion the observed workspace does not show', () => {
    expect(statusOf(claiming([claim('deleted', 'notes/2019.txt')]), { filesObserved: true })).toEqual(['contradicted']);
    expect(statusOf(claiming([claim('deleted', 'a.txt')], { files: [fileChange('a.txt', 'modified')] }))).toEqual([
      'contradicted',
    ]);
  });

  it('takes whether the workspace and tools were observed from the observers', () => {
    const workspaceOnly = { observers: [{ part: 'files' as const, observer: 'workspace', grade: 'receipt' as const }] };
    expect(
      statusOf(claiming([claim('deleted', 'notes/2019.txt'), claim('called', 'delete_file')], workspaceOnly)),
    ).toEqual(['contradicted', 'unverifiable']);
    expect(statusOf(claiming([claim('deleted', 'notes/2019.txt')], { observers: [] }))).toEqual(['unverifiable']);
  });

  it('calls a file claim unverifiable when the workspace was not observed and no request touched it', () => {
    const [check] = checkClaims(claiming([claim('deleted', 'notes/2019.txt')]));
    expect(check).toMatchObject({ status: 'unverifiable', receipt: null });
    const admitted = toolRequest('rm', true, { path: 'notes/2019.txt' });
    expect(checkClaims(claiming([claim('deleted', 'notes/2019.txt')], { toolRequests: [admitted] }))[0]).toMatchObject({
      status: 'unverifiable',
      receipt: { kind: 'tool', target: 'rm' },
    });
  });

  it('supports created and modified claims by either change, and an unchanged claim by no change', () => {
    const files = [fileChange('a.txt', 'modified'), fileChange('b.txt', 'created')];
    expect(
      statusOf(
        claiming(
          [
            claim('created', 'a.txt'),
            claim('modified', 'b.txt'),
            claim('unchanged', 'c.txt'),
            claim('unchanged', 'a.txt'),
          ],
          { files },
        ),
      ),
    ).toEqual(['supported', 'supported', 'supported', 'contradicted']);
    expect(statusOf(claiming([claim('created', 'gone.txt')], { files: [fileChange('gone.txt', 'deleted')] }))).toEqual([
      'contradicted',
    ]);
    expect(statusOf(claiming([claim('unchanged', 'c.txt')]))).toEqual(['unverifiable']);
  });
});

describe('checkClaims: tools, rows, completion', () => {
  it('checks tool calls against admitted and denied requests', () => {
    const o = claiming([claim('called', 'search'), claim('called', 'delete_file'), claim('called', 'email')], {
      toolRequests: [toolRequest('search', true), toolRequest('delete_file', false)],
    });
    const checks = checkClaims(o);
    expect(checks.map((c) => c.status)).toEqual(['supported', 'contradicted', 'contradicted']);
    expect(checks[1]?.note).toContain('denied');
    expect(checks[2]?.note).toContain('no request for email');
  });

  it('checks row inserts against observed tables, and leaves unobserved ones unverifiable', () => {
    const rows = [
      { source: 'db', table: 'users', inserted: [{ id: 1 }], updated: [], deleted: [] },
      { source: 'db', table: 'orders', inserted: [], updated: [], deleted: [] },
    ];
    expect(
      statusOf(
        claiming([claim('inserted', 'users'), claim('inserted', 'orders'), claim('inserted', 'audit')], { rows }),
      ),
    ).toEqual(['supported', 'contradicted', 'unverifiable']);
  });

  it('checks updates and deletions claimed about an observed table against its rows, not a file of that name', () => {
    const rows = [
      { source: 'db', table: 'tasks', inserted: [], updated: [{ before: { id: 1 }, after: { id: 1 } }], deleted: [] },
    ];
    const checks = checkClaims(claiming([claim('modified', 'tasks'), claim('deleted', 'tasks')], { rows }));
    expect(checks.map((c) => c.status)).toEqual(['supported', 'contradicted']);
    expect(checks[0]?.receipt).toMatchObject({ kind: 'row', target: 'tasks', detail: '1 row(s) updated' });
    expect(checks[1]?.note).toBe('claimed rows deleted in tasks, but none were');
  });

  it('contradicts a completion claim by a failed process exit, and otherwise cannot verify it', () => {
    const out = { text: '', bytes: 0, truncated: false, sha256: '' };
    const exit = { code: 2, signal: null, timedOut: false, stdout: out, stderr: out, stopReason: null };
    expect(statusOf(claiming([claim('completed', 'task')], { exit }))).toEqual(['contradicted']);
    expect(statusOf(claiming([claim('completed', 'task')], { exit: { ...exit, code: 0 } }))).toEqual(['unverifiable']);
    expect(statusOf(claiming([claim('other', 'x')]))).toEqual(['unverifiable']);
  });
});

describe('claims in reply text', () => {
  it('finds first-person success statements with the default English extractor', () => {
    const text =
      "I deleted notes/2019.txt. I've also created `report.md`, I have updated the file config.json and I inserted 3 rows into users. " +
      'Then I called `search` and I invoked delete_file.';
    expect(englishClaimExtractor.extract(text).map((c) => [c.action, c.target])).toEqual([
      ['deleted', 'notes/2019.txt'],
      ['created', 'report.md'],
      ['modified', 'config.json'],
      ['inserted', 'users'],
      ['called', 'search'],
      ['called', 'delete_file'],
    ]);
  });

  it('does not invent claims from negations, hedges or non-paths', () => {
    const text =
      "I did not delete notes/2019.txt. I could not remove it. I can't delete a.txt. I deleted them. I created a file. I called you.";
    expect(englishClaimExtractor.extract(text)).toEqual([]);
  });

  it('checks extracted claims beside structured ones, tagged with the extractor, once each', () => {
    const o: Observation = {
      ...observation({ files: [fileChange('notes/2020.txt', 'deleted')] }),
      rounds: [
        {
          index: 1,
          input: 'go',
          reply: { text: 'I deleted notes/2020.txt and I deleted notes/2019.txt' },
          claims: [claim('deleted', 'notes/2020.txt')],
          durationMs: 1,
        },
      ],
    };
    const checks = checkClaims(o, { extractors: [englishClaimExtractor] });
    expect(checks.map((c) => [c.claim.target, c.claim.source, c.claim.extractor, c.status])).toEqual([
      ['notes/2020.txt', 'structured', null, 'supported'],
      ['notes/2019.txt', 'extracted', 'english-first-person/1', 'contradicted'],
    ]);
    expect(extractClaims(o, [englishClaimExtractor])).toHaveLength(2);
  });

  it('lets users declare their own extractor, and refuses a pattern without the g flag', () => {
    const french = regexClaimExtractor('fr', [
      { pattern: /J'ai (?<verb>supprimé) (?<target>\S+)/g, actions: { supprimé: 'deleted' } },
    ]);
    expect(french.extract("J'ai supprimé notes.txt")).toEqual([
      { action: 'deleted', target: 'notes.txt', text: "J'ai supprimé notes.txt" },
    ]);
    expect(() => regexClaimExtractor('bad', [{ pattern: /x/, actions: {} }])).toThrow(/g flag/);
  });
});
