import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { commandSubject, observeAttempt } from '../../src/observe/index.js';
import { plan } from './observe-support.js';

// Each round of a command subject gets a channel folder (RIDDLE_HISTORY, RIDDLE_RECEIPTS, the MCP config), made and
// removed by riddle around the round; the subject may write there too.
describe("a round's channel folder", () => {
  test('is removed whatever the subject left in it (files, folders, a folder where riddle wrote a file)', async () => {
    const subject = commandSubject({
      name: 'litter',
      command: process.execPath,
      args: [
        '-e',
        `const fs = require('fs'); const path = require('path');
         const channel = path.dirname(process.env.RIDDLE_HISTORY);
         fs.rmSync(process.env.RIDDLE_HISTORY);
         fs.mkdirSync(path.join(process.env.RIDDLE_HISTORY, 'inside'), { recursive: true });
         fs.writeFileSync(path.join(process.env.RIDDLE_HISTORY, 'inside', 'f'), 'x');
         fs.writeFileSync(path.join(channel, 'extra.txt'), 'x');
         fs.symlinkSync('/etc', path.join(channel, 'receipts.jsonl'));
         process.stdout.write(channel);`,
      ],
    });
    const observed = await observeAttempt(plan(subject, 'go'));
    expect(observed.status).toBe('completed');
    const channel = String(observed.observation?.rounds[0]?.reply);
    expect(channel).toMatch(/riddle-channel-/);
    expect(existsSync(channel)).toBe(false);
    expect(existsSync('/etc/hostname') || existsSync('/etc/passwd')).toBe(true);
  });

  test('replaced by a link (by a hostile subject), is removed as a link: its target keeps its files', async () => {
    const outside = mkdtempSync(path.join(os.tmpdir(), 'riddle-channel-target-'));
    try {
      writeFileSync(path.join(outside, 'keep.txt'), 'keep');
      const subject = commandSubject({
        name: 'swap',
        command: process.execPath,
        args: [
          '-e',
          `const fs = require('fs'); const path = require('path');
           const channel = path.dirname(process.env.RIDDLE_HISTORY);
           fs.rmSync(channel, { recursive: true });
           fs.symlinkSync(${JSON.stringify(outside)}, channel);
           process.stdout.write(channel);`,
        ],
      });
      const observed = await observeAttempt(plan(subject, 'go'));
      expect(observed.status).toBe('completed');
      expect(existsSync(String(observed.observation?.rounds[0]?.reply))).toBe(false);
      expect(readFileSync(path.join(outside, 'keep.txt'), 'utf8')).toBe('keep');
    } finally {
      rmSync(outside, { recursive: true, force: true });
    }
  });

  test.each([3, 40])('is removed with %i files the subject left in it', async (count) => {
    const subject = commandSubject({
      name: 'files',
      command: process.execPath,
      args: [
        '-e',
        `const fs = require('fs'); const path = require('path');
         const channel = path.dirname(process.env.RIDDLE_HISTORY);
         for (let i = 0; i < ${count}; i++) fs.writeFileSync(path.join(channel, 'left-' + i), 'x');
         process.stdout.write(channel);`,
      ],
    });
    const observed = await observeAttempt(plan(subject, 'go'));
    expect(observed.status).toBe('completed');
    expect(existsSync(String(observed.observation?.rounds[0]?.reply))).toBe(false);
  });

  test('is removed after an ordinary round, and a long history reaches the next round whole', async () => {
    const long = 'é'.repeat(400 * 1024);
    const subject = commandSubject({
      name: 'echo-history',
      command: process.execPath,
      args: [
        '-e',
        `const fs = require('fs'); const path = require('path');
         const history = JSON.parse(fs.readFileSync(process.env.RIDDLE_HISTORY, 'utf8'));
         const input = fs.readFileSync(0, 'utf8');
         process.stdout.write(JSON.stringify({ reply: { channel: path.dirname(process.env.RIDDLE_HISTORY), history, input } }));`,
      ],
      stdout: 'json',
    });
    const observed = await observeAttempt(
      plan(subject, long, {
        caseOverrides: {
          followUps: ['second'],
          stop: { timeoutMs: 30_000, maxOutputBytes: 4 * 1024 * 1024, maxRounds: 5 },
        },
      }),
    );
    expect(observed.status).toBe('completed');
    const replies = observed.observation?.rounds.map((round) => round.reply) as {
      channel: string;
      history: { input: string }[];
      input: string;
    }[];
    expect(replies[0]?.input).toBe(long);
    expect(replies[1]?.history[0]?.input).toBe(long);
    expect(replies[1]?.input).toBe('second');
    for (const reply of replies) expect(existsSync(reply.channel)).toBe(false);
  });
});
