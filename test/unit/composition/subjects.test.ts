import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, expect as vitestExpect } from 'vitest';
import { z } from 'zod';
import { summarizeCompositions } from '../../../src/aggregate/index.js';
import { CompositionTrace, type AttemptRecord } from '../../../src/model/index.js';
import {
  commandSubject,
  composition,
  compositionSuite,
  httpSubject,
  replaySubject,
  type AttemptContext,
} from '../../../src/observe/index.js';
import { compositionLines } from '../../../src/report/index.js';
import { resolveTrial, runTrial } from '../../../src/run/index.js';
import { anEnvironment } from '../builders.js';
import { observation } from '../evaluate/helpers.js';
import { fakeContext } from './pipeline.js';

const Brief = z.object({ topic: z.string() });
const Outline = z.object({ topic: z.string(), sections: z.array(z.string()).min(1) });
const Draft = z.object({ text: z.string() });
const Review = z.object({ approved: z.boolean() });
const Archived = z.object({ archived: z.string() });

/** The outliner, a command: reads the brief on stdin, writes outline.txt into its working folder, prints JSON. */
const OUTLINER = `
let text = '';
process.stdin.on('data', (c) => (text += c));
process.stdin.on('end', () => {
  const brief = JSON.parse(text);
  require('node:fs').writeFileSync('outline.txt', 'outline of ' + brief.topic);
  process.stdout.write(JSON.stringify({ reply: { topic: brief.topic, sections: ['intro', 'body'] } }));
});`;

/** Tell the team over the attempt's MCP endpoint, as an agent service offered the trial's tools would. */
async function notifyOverMcp(mcpUrl: string): Promise<void> {
  const client = new Client({ name: 'writer', version: '1' });
  await client.connect(new StreamableHTTPClientTransport(new URL(mcpUrl)));
  try {
    await client.callTool({ name: 'notify', arguments: { drafted: true } });
  } finally {
    await client.close();
  }
}

/**
 * The writer, a service on loopback: answers each POST with a draft of the outline it was handed, first telling the
 * team over MCP when the attempt serves its tools there.
 */
function writerService(): Promise<{ server: Server; url: string; requests: unknown[]; mcpUrls: unknown[] }> {
  const requests: unknown[] = [];
  const mcpUrls: unknown[] = [];
  const server = createServer((request, response) => {
    let body = '';
    request.on('data', (c) => (body += c));
    request.on('end', async () => {
      const { input, mcpUrl } = JSON.parse(body) as { input: { topic: string; sections: string[] }; mcpUrl: unknown };
      requests.push(input);
      mcpUrls.push(mcpUrl);
      if (typeof mcpUrl === 'string') await notifyOverMcp(mcpUrl);
      response.setHeader('content-type', 'application/json');
      response.end(JSON.stringify({ reply: { text: `${input.topic}: ${input.sections.join(', ')}` } }));
    });
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve({ server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`, requests, mcpUrls }),
    ),
  );
}

function suite(writerUrl: string) {
  return compositionSuite({
    name: 'newsletter',
    version: '1',
    compositions: [
      composition({
        name: 'outliner',
        owner: 'outline-team',
        version: '1',
        input: Brief,
        output: Outline,
        run: commandSubject({
          name: 'outliner',
          command: process.execPath,
          args: ['-e', OUTLINER],
          stdout: 'json',
          revision: 'outliner@1',
        }),
        criteria: { twoSections: ({ output }) => output.sections.length === 2 },
      }),
      composition({
        name: 'writer',
        owner: 'writing-team',
        version: '1',
        input: Outline,
        output: Draft,
        run: httpSubject({ name: 'writer', url: writerUrl, revision: 'writer@1' }),
      }),
      composition({
        name: 'reviewer',
        owner: 'review-team',
        version: '1',
        input: Draft,
        output: Review,
        run: replaySubject({ name: 'reviewer', responses: { case: { approved: true }, control: { approved: 'yes' } } }),
      }),
      composition({
        name: 'archiver',
        owner: 'archive-team',
        version: '1',
        input: Review,
        output: Archived,
        run: async (review, context) => {
          if (context.workspace === null) throw new Error('no workspace');
          await writeFile(path.join(context.workspace, 'archive.txt'), `approved: ${review.approved}`);
          // A tool the attempt does not offer: the failed call is the archiver's own, kept with its error.
          await context.tools.call('notify', { archived: true }).catch(() => null);
          return { archived: 'archive.txt' };
        },
      }),
    ],
    handoffs: [
      { from: 'outliner', to: 'writer' },
      { from: 'writer', to: 'reviewer' },
      { from: 'reviewer', to: 'archiver' },
    ],
  });
}

describe('compositions run by a command, an HTTP service, a replay and a function', () => {
  let service: Awaited<ReturnType<typeof writerService>>;
  let workspace: string;
  const context = (arm: string): AttemptContext =>
    fakeContext({
      arm,
      workspace,
      // Spawning node on a loaded machine: bounded by the work, not by a tight clock.
      stop: { timeoutMs: 120_000, maxOutputBytes: 65_536, maxRounds: 1 },
    });

  beforeAll(async () => {
    service = await writerService();
  });
  beforeEach(async () => {
    workspace = await mkdtemp(path.join(tmpdir(), 'riddle-composition-subjects-'));
  });
  afterEach(async () => {
    await rm(workspace, { recursive: true, force: true });
  });
  afterAll(() => {
    service.server.close();
  });

  it("hands each output on and records each composition's own files, tools, receipts and resources", async () => {
    const response = await suite(service.url).respond({ topic: 'riddle' }, context('case'));
    expect(response.failure).toBeUndefined();
    const trace = CompositionTrace.parse(response.composition);
    expect(trace.stopped).toEqual({ kind: 'finished' });
    expect(response.reply).toEqual({ archived: 'archive.txt' });
    expect(trace.handoffs.map((h) => [h.producer, h.consumer, h.check.result])).toEqual([
      [null, 'outliner', 'valid'],
      ['outliner', 'writer', 'valid'],
      ['writer', 'reviewer', 'valid'],
      ['reviewer', 'archiver', 'valid'],
      ['archiver', null, 'valid'],
    ]);
    // The service got the outline the command printed, as the handoff recorded it.
    expect(service.requests).toEqual([{ topic: 'riddle', sections: ['intro', 'body'] }]);
    expect(trace.handoffs[2]?.payload.value).toEqual({ text: 'riddle: intro, body' });
    const [outliner, writer, reviewer, archiver] = trace.steps;
    expect(trace.steps.map((s) => [s.composition, s.status, s.criteria.map((c) => c.result)])).toEqual([
      ['outliner', 'completed', ['met']],
      ['writer', 'completed', []],
      ['reviewer', 'completed', []],
      ['archiver', 'completed', []],
    ]);
    // Each composition's own writes, not the attempt's: the command wrote outline.txt, the function archive.txt.
    expect(outliner?.observation.files?.map((f) => [f.path, f.change, f.content])).toEqual([
      ['outline.txt', 'created', 'outline of riddle'],
    ]);
    expect(writer?.observation.files).toEqual([]);
    expect(reviewer?.observation.files).toEqual([]);
    expect(archiver?.observation.files?.map((f) => [f.path, f.change])).toEqual([['archive.txt', 'created']]);
    // The command's process exit is its own; the others ran in process or over HTTP.
    expect(outliner?.observation.exit?.code).toBe(0);
    expect(writer?.observation.exit).toBeNull();
    expect(archiver?.observation.resources).toEqual({ cpuMs: null, peakRssBytes: null });
    expect(trace.steps.map((s) => s.observation.tools)).toEqual([
      [],
      [],
      [],
      [{ tool: 'notify', error: 'no tool notify' }],
    ]);

    const record = {
      arm: 'case',
      index: 0,
      verdict: 'PASS',
      observation: observation({ composition: trace }),
    } as unknown as AttemptRecord;
    const summary = summarizeCompositions(suite(service.url).composition ?? null, [record], 0.5, 0.05);
    expect(summary?.results.map((r) => [r.composition, r.observed?.passes, r.observed?.files])).toEqual([
      ['outliner', 1, 1],
      ['writer', 1, 0],
      ['reviewer', 1, 0],
      ['archiver', 1, 1],
    ]);
    const lines = summary ? compositionLines(summary) : [];
    expect(lines[0]).toMatch(
      /^outliner \(outline-team, 1\) .*; itself: 1 pass, 1 file changed, 0 tool calls, 0 receipts/,
    );
    expect(lines[3]).toContain('itself: 1 pass, 1 file changed, 1 tool call (1 failed), 0 receipts');
  });

  it("stops at the replay's recorded reply that breaks the reviewer's type, the producer's", async () => {
    const response = await suite(service.url).respond({ topic: 'trap' }, context('control'));
    const trace = CompositionTrace.parse(response.composition);
    expect(trace.stopped).toEqual({
      kind: 'invalid-handoff',
      producer: 'reviewer',
      consumer: 'archiver',
      iteration: 1,
    });
    expect(trace.steps.map((s) => s.composition)).toEqual(['outliner', 'writer', 'reviewer']);
    expect(trace.steps[2]?.outputCheck?.result).toBe('invalid');
    expect(response.failure?.status).toBe('subject_error');
  });

  it('a service that answers with an error is that composition’s crash, with no files of its own', async () => {
    const down = createServer((_request, response) => {
      response.statusCode = 503;
      response.end('overloaded');
    });
    await new Promise<void>((resolve) => down.listen(0, '127.0.0.1', () => resolve()));
    try {
      const url = `http://127.0.0.1:${(down.address() as AddressInfo).port}/`;
      const response = await suite(url).respond({ topic: 'outage' }, context('case'));
      expect(response.composition?.stopped).toEqual({ kind: 'crashed', composition: 'writer', iteration: 1 });
      expect(response.composition?.steps[1]).toMatchObject({ status: 'crashed', observation: { files: [] } });
      expect(response.composition?.steps[1]?.error).toContain('503');
    } finally {
      down.close();
    }
  });

  it('a trial through a suite with a command composition gives each attempt a workspace, though it has no fixtures', async () => {
    const resolved = resolveTrial(
      { name: 'newsletter', file: 'trials/newsletter.test.ts', path: [] },
      {
        subject: suite(service.url),
        rubric: { criteria: { archives: { description: 'archives the approved draft', needs: 'text' } } },
        checks: { archives: (o) => void vitestExpect(o.reply).toEqual({ archived: 'archive.txt' }) },
        case: { input: { topic: 'riddle' }, expect: ['archives'] },
        repeat: { n: 2, stop: 'fixed' },
        tools: [
          {
            name: 'notify',
            description: 'tell the team',
            effect: 'none',
            inputSchema: { type: 'object' },
            run: () => 'ok',
          },
        ],
      },
    );
    const outcome = await runTrial(
      { ...resolved, environment: anEnvironment(), unavailable: [], fixtures: {} },
      { clock: { now: () => 0 }, expect: vitestExpect },
    );
    expect(outcome.attempts.map((a) => [a.status, a.verdict])).toEqual([
      ['completed', 'PASS'],
      ['completed', 'PASS'],
    ]);
    // The service composition is offered the attempt's tools over MCP, as an HTTP subject alone would be.
    expect(service.mcpUrls.slice(-2)).toEqual([expect.stringMatching(/^http:\/\/127\.0\.0\.1:/), expect.any(String)]);
    // Each composition's tool requests are its own, however made: the service's over MCP, the archiver's direct call.
    const tools = (name: string) => outcome.compositions?.results.find((r) => r.composition === name)?.observed;
    expect(tools('writer')).toMatchObject({ tools: 2, toolErrors: 0 });
    expect(tools('archiver')).toMatchObject({ tools: 2, toolErrors: 0 });
    expect(tools('outliner')).toMatchObject({ tools: 0 });
    expect(tools('reviewer')).toMatchObject({ tools: 0 });
    const steps = outcome.attempts.flatMap((a) => a.observation?.composition?.steps ?? []);
    expect(steps.filter((s) => s.composition === 'writer').map((s) => s.observation.tools)).toEqual([
      [{ tool: 'notify', error: null }],
      [{ tool: 'notify', error: null }],
    ]);
    expect(outcome.attempts.map((a) => a.observation?.toolRequests.length)).toEqual([2, 2]);
    expect(outcome.compositions?.results.map((r) => [r.composition, r.verdict, r.observed?.files])).toEqual([
      ['outliner', 'UNKNOWN', 2],
      ['writer', 'UNKNOWN', 0],
      ['reviewer', 'UNKNOWN', 0],
      ['archiver', 'UNKNOWN', 2],
    ]);
  });
});
