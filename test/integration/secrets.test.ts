import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { fixture, readLatestRun, runVitest, tempDir } from './support.js';

function* files(dir: string): Generator<string> {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) yield* files(full);
    else yield full;
  }
}

const planted = {
  PLANTED_API_KEY: 'sk-proj-PLANTEDkey0123456789abcdef',
  PLANTED_DB_PASSWORD: 'correct-horse-PLANTED-battery',
  // Not secret by its name, but by its value's known key prefix.
  PLANTED_PLAIN: 'ghp_PLANTEDtoken0123456789abcdefABCDEF',
  PLANTED_VISIBLE: 'just-a-region-eu-west-1',
  // Secret by the credentials in it: the password must appear nowhere, the variable only by fingerprint.
  DATABASE_URL: 'postgres://admin:hunter2-PLANTED-pw@db.internal:5432/app',
  // Secret only by what it is used for (an Authorization header), not by its name or format.
  PLANTED_BEARER: 'opaque0PLANTED0bearer0value',
};

describe('sealed cases', () => {
  it('are judged on their real content but appear in no record, report or log, only by salted fingerprint', async () => {
    const reportDir = tempDir('sealed');
    const run = await runVitest(
      fixture('secrets'),
      ['--reporter=riddle', `--outputFile.riddle=${reportDir}`, '-t', 'sealed case'],
      { RIDDLE_SEAL_SALT: 'salt-1' },
    );
    const { outcomes } = readLatestRun(reportDir);
    const sealed = outcomes[0]!;
    expect(sealed.judgment.verdict).toBe('PASS');
    const pinned = sealed.records.suite.arms[0]!.case;
    expect(pinned.sealed).toBe(true);
    expect(pinned.input).toEqual({ sealed: expect.stringMatching(/^sha256:[0-9a-f]{64}$/) });
    expect(pinned.oracle).toEqual({ sealed: expect.stringMatching(/^sha256:/) });
    const leaks: string[] = [];
    for (const file of files(reportDir)) {
      const text = readFileSync(file, 'utf8');
      for (const needle of ['canary:7f3e9c2a', '2031 riddle summit', 'Lisbon'])
        if (text.includes(needle)) leaks.push(`${path.basename(file)}: ${needle}`);
    }
    expect(leaks).toEqual([]);
    expect(run.output).not.toContain('canary:7f3e9c2a');
    // another salt gives another fingerprint: the content cannot be confirmed by guessing without the salt
    const other = tempDir('sealed-2');
    await runVitest(fixture('secrets'), ['--reporter=riddle', `--outputFile.riddle=${other}`, '-t', 'sealed case'], {
      RIDDLE_SEAL_SALT: 'salt-2',
    });
    expect(readLatestRun(other).outcomes[0]!.records.suite.arms[0]!.case.input).not.toEqual(pinned.input);
  });
});

describe('sealed fragments', () => {
  it('a truncated assertion diff and a subject echoing part of the input leave no 8-character run anywhere', async () => {
    const prompt = 'Zorblax quintessa vemorth 4471? canary:91ab77ce-qwfp';
    const windows = Array.from({ length: prompt.length - 7 }, (_, i) => prompt.slice(i, i + 8).toLowerCase());
    const reportDir = tempDir('sealed-fragments');
    const run = await runVitest(
      fixture('secrets'),
      ['--reporter=riddle', `--outputFile.riddle=${reportDir}`, '-t', 'sealed fragments'],
      { RIDDLE_SEAL_SALT: 'salt-3' },
    );
    expect(run.exitCode, run.output).toBe(0);
    const texts = [...files(reportDir)].map((file) => [path.basename(file), readFileSync(file, 'utf8')] as const);
    expect(texts.some(([name]) => name.endsWith('.html'))).toBe(true);
    expect(texts.some(([name]) => name.endsWith('.md'))).toBe(true);
    // The attempts did fail on the real content (so the diff existed), and the record says so without quoting it.
    expect(texts.map(([, text]) => text).join('\n')).toContain('unmet (sealed: the message is withheld)');
    const leaks = [...texts, ['terminal', run.output] as const].flatMap(([name, text]) =>
      windows.filter((w) => text.toLowerCase().includes(w)).map((w) => `${name}: ${w}`),
    );
    expect(leaks).toEqual([]);
    for (const [name, text] of texts)
      expect(text, name).not.toContain(Buffer.from(prompt).toString('base64').slice(0, 12));
  });

  it('a sealed Case without RIDDLE_SEAL_SALT is refused with a declaration error', async () => {
    const run = await runVitest(fixture('secrets'), ['-t', 'sealed fragments'], { RIDDLE_SEAL_SALT: '' });
    expect(run.exitCode).not.toBe(0);
    expect(run.output).toMatch(/case\.sealed: a sealed Case needs RIDDLE_SEAL_SALT/);
  });
});

describe('secrets in the environment', () => {
  it('never reach any artifact of a run, whatever the subject does with them', async () => {
    const reportDir = tempDir('secrets');
    const blobDir = tempDir('secrets-blob');
    const run = await runVitest(
      fixture('secrets'),
      [
        '--reporter=riddle',
        `--outputFile.riddle=${reportDir}`,
        '--reporter=blob',
        `--outputFile.blob=${path.join(blobDir, 'blob.json')}`,
        '-t',
        'careless',
      ],
      { ...planted, RIDDLE_SEAL_SALT: 'salt-0' },
    );
    expect(run.exitCode, run.output).toBe(0);
    const { outcomes } = readLatestRun(reportDir);
    const outcome = outcomes.find((o) => o.trial.name === 'careless subject that leaks what it sees')!;
    // The leak was observed (so the test can fail): the subject did echo, write and throw.
    expect(outcome.attempts.map((a) => a.status).sort()).toEqual(['completed', 'completed', 'subject_error']);
    expect(JSON.stringify(outcome)).toContain('[redacted]');
    const fingerprinted = expect.stringMatching(/^\[redacted [0-9a-f]{12}\]$/);
    expect(outcome.records.environment.variables).toEqual({
      PLANTED_API_KEY: fingerprinted,
      PLANTED_DB_PASSWORD: fingerprinted,
      PLANTED_PLAIN: fingerprinted,
      PLANTED_VISIBLE: 'just-a-region-eu-west-1',
      DATABASE_URL: fingerprinted,
    });
    // The tool request and the subject's stderr were kept, scrubbed.
    const requests = outcome.attempts.flatMap((a) => a.observation?.toolRequests ?? []);
    expect(requests.length).toBeGreaterThan(0);
    expect(requests[0]?.arguments).toMatchObject({
      url: '[redacted]',
      headers: { Authorization: '[redacted]' },
    });
    const leaks: string[] = [];
    const secrets = [
      planted.PLANTED_API_KEY,
      planted.PLANTED_DB_PASSWORD,
      planted.PLANTED_PLAIN,
      'hunter2-PLANTED-pw',
      planted.PLANTED_BEARER,
    ];
    for (const file of [...files(reportDir), ...files(blobDir)]) {
      const text = readFileSync(file, 'latin1');
      for (const secret of secrets)
        if (text.includes(secret)) leaks.push(`${path.basename(file)} holds ${secret.slice(0, 8)}…`);
    }
    expect(leaks).toEqual([]);
    for (const secret of secrets) expect(run.output).not.toContain(secret);
  });
});
