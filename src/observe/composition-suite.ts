import {
  COMPOSITION_SUITE_SCHEMA,
  CompositionSuite as CompositionSuiteRecord,
  fingerprint,
  type Handoff,
  type SubjectIdentity,
} from '../model/index.js';
import { CompositionDeclarationError, type Composition } from './composition.js';
import { runComposition } from './composition-subject.js';
import { describeSchema, incompatibilities, schemaAt, type JsonSchema } from './schema-compatibility.js';
import type { Subject } from './subject.js';

/** An edge of the graph: the producer's output (or the member `map` names) becomes the consumer's input. */
export interface HandoffDeclaration {
  from: string;
  to: string;
  /** Dotted path into the producer's output to hand on instead of all of it (`plan.steps`). */
  map?: string;
  /**
   * Declares this handoff a loop edge (it may close a cycle): taken after `from` completes while `while(output)`
   * holds, at most `max` times in an attempt; otherwise the graph goes on past `from`.
   */
  loop?: { max: number; while: (output: unknown) => boolean };
}

export interface CompositionSuiteOptions {
  name: string;
  version: string;
  compositions: readonly Composition[];
  handoffs: readonly HandoffDeclaration[];
  /** The composition that receives the attempt's input; default: the one no handoff feeds. */
  entry?: string;
  /** The composition whose output is the attempt's reply; default: the one that hands nothing on. */
  exit?: string;
  /** Largest handoff payload kept whole in the Observation, in bytes (its fingerprint is always kept); default 64 KiB. */
  retainPayloadBytes?: number;
}

/** A Composition Suite, declared and validated: a subject whose every attempt runs the graph. */
export interface CompositionSuiteSubject extends Subject {
  /** The pinned graph: each composition's owner, version and types, and the handoffs. */
  readonly composition: CompositionSuiteRecord;
  /** Fingerprint of `record`: the subject revision, so changing any composition gives a new Outcome. */
  readonly fingerprint: string;
}

/** The graph as the runner walks it: nodes in topological order, each node's feeding handoff, loop edges apart. */
export interface CompositionGraph {
  readonly record: CompositionSuiteRecord;
  readonly fingerprint: string;
  readonly nodes: ReadonlyMap<string, Composition>;
  /** Topological order over the handoffs that are not loops. */
  readonly order: readonly string[];
  /** The handoff feeding each node other than the entry (a node has one input). */
  readonly feeds: ReadonlyMap<string, HandoffDeclaration>;
  readonly loops: readonly HandoffDeclaration[];
  readonly retainPayloadBytes: number;
}

const DEFAULT_RETAIN_PAYLOAD_BYTES = 64 * 1024;
const MAX_LISTED = 5;

const edge = (h: Pick<HandoffDeclaration, 'from' | 'to'>) => `${h.from} → ${h.to}`;

/** A cycle among the handoffs that are not loops, as the names along it; null when there is none. */
function findCycle(names: readonly string[], edges: readonly HandoffDeclaration[]): string[] | null {
  const next = new Map(names.map((n) => [n, edges.filter((e) => e.from === n).map((e) => e.to)]));
  const state = new Map<string, 'open' | 'done'>();
  const path: string[] = [];
  const visit = (node: string): string[] | null => {
    state.set(node, 'open');
    path.push(node);
    for (const to of next.get(node) ?? []) {
      if (state.get(to) === 'open') return [...path.slice(path.indexOf(to)), to];
      if (!state.has(to)) {
        const found = visit(to);
        if (found) return found;
      }
    }
    path.pop();
    state.set(node, 'done');
    return null;
  };
  for (const name of names) {
    if (!state.has(name)) {
      const found = visit(name);
      if (found) return found;
    }
  }
  return null;
}

function reachable(from: string, edges: readonly HandoffDeclaration[]): Set<string> {
  const seen = new Set([from]);
  const queue = [from];
  for (let node = queue.shift(); node !== undefined; node = queue.shift()) {
    for (const e of edges) {
      if (e.from === node && !seen.has(e.to)) {
        seen.add(e.to);
        queue.push(e.to);
      }
    }
  }
  return seen;
}

/**
 * Check a Composition Suite's declaration and build its graph: names unique and every node owned, handoffs between
 * declared compositions, acyclic unless a bounded loop closes the cycle, one input per composition, every
 * composition reached from the entry, and every handoff's types compatible. Each mistake throws a
 * `CompositionDeclarationError` naming the suite, the handoff or composition, and what to change.
 */
export function buildCompositionGraph(options: CompositionSuiteOptions): CompositionGraph {
  const suiteName = typeof options?.name === 'string' ? options.name : '';
  const place = `compositionSuite "${suiteName}"`;
  if (suiteName.trim() === '')
    throw new CompositionDeclarationError('compositionSuite', 'name must be a non-empty string');
  if (typeof options.version !== 'string' || options.version.trim() === '')
    throw new CompositionDeclarationError(
      place,
      `version must be a non-empty string; got ${JSON.stringify(options.version)}`,
    );
  if (!Array.isArray(options.compositions) || options.compositions.length === 0)
    throw new CompositionDeclarationError(place, 'compositions must list at least one composition(...)');
  if (!Array.isArray(options.handoffs)) throw new CompositionDeclarationError(place, 'handoffs must be an array');
  const nodes = new Map<string, Composition>();
  for (const [i, node] of options.compositions.entries()) {
    const at = `${place}: compositions[${i}]`;
    if (typeof node !== 'object' || node === null || typeof node.record !== 'object')
      throw new CompositionDeclarationError(
        at,
        'must be made by composition({ name, owner, version, input, output, run })',
      );
    if (typeof node.owner !== 'string' || node.owner.trim() === '')
      throw new CompositionDeclarationError(
        `${at} "${node.name}"`,
        'has no owner: every composition is owned; set owner',
      );
    if (nodes.has(node.name))
      throw new CompositionDeclarationError(at, `"${node.name}" is declared twice; composition names must be unique`);
    nodes.set(node.name, node);
  }
  const known = [...nodes.keys()].join(', ');
  const handoffs: HandoffDeclaration[] = [];
  for (const [i, h] of options.handoffs.entries()) {
    const at = `${place}: handoffs[${i}]${h && typeof h === 'object' ? ` (${edge(h)})` : ''}`;
    if (typeof h !== 'object' || h === null) throw new CompositionDeclarationError(at, 'must be { from, to }');
    for (const end of ['from', 'to'] as const) {
      if (!nodes.has(h[end]))
        throw new CompositionDeclarationError(
          at,
          `${end} "${String(h[end])}" is not a composition of this suite (${known})`,
        );
    }
    if (h.map !== undefined && (typeof h.map !== 'string' || !/^[^.]+(\.[^.]+)*$/.test(h.map)))
      throw new CompositionDeclarationError(
        at,
        `map must be a dotted path into ${h.from}'s output (plan.steps); got ${JSON.stringify(h.map)}`,
      );
    if (h.loop !== undefined) {
      if (!Number.isInteger(h.loop?.max) || h.loop.max < 1)
        throw new CompositionDeclarationError(
          at,
          `loop.max must be an integer of at least 1 (a loop is bounded); got ${JSON.stringify(h.loop?.max)}`,
        );
      if (typeof h.loop.while !== 'function')
        throw new CompositionDeclarationError(
          at,
          "loop.while must be a function of the producer's output saying whether to go round again",
        );
    }
    if (handoffs.some((other) => other.from === h.from && other.to === h.to))
      throw new CompositionDeclarationError(at, 'is declared twice');
    handoffs.push(h);
  }
  const plain = handoffs.filter((h) => h.loop === undefined);
  const loops = handoffs.filter((h) => h.loop !== undefined);
  const names = [...nodes.keys()];
  const cycle = findCycle(names, plain);
  if (cycle)
    throw new CompositionDeclarationError(
      place,
      `the handoffs ${cycle.join(' → ')} form a cycle; a cycle must be a declared bounded loop: give one of its handoffs loop: { max, while }`,
    );
  for (const loop of loops) {
    if (!reachable(loop.to, plain).has(loop.from))
      throw new CompositionDeclarationError(
        `${place}: loop ${edge(loop)}`,
        `does not close a cycle: ${loop.to} never hands on to ${loop.from}; a loop edge goes back to an earlier composition`,
      );
  }
  const feeds = new Map<string, HandoffDeclaration>();
  for (const name of names) {
    const incoming = plain.filter((h) => h.to === name);
    if (incoming.length > 1)
      throw new CompositionDeclarationError(
        `${place}: composition "${name}"`,
        `takes input from ${incoming.map((h) => h.from).join(' and ')}; a composition has one input: merge them in a composition of their own`,
      );
    const [only] = incoming;
    if (only) feeds.set(name, only);
  }
  const pick = (role: 'entry' | 'exit', declared: string | undefined, candidates: string[]): string => {
    if (declared !== undefined) {
      if (!nodes.has(declared))
        throw new CompositionDeclarationError(
          place,
          `${role} "${declared}" is not a composition of this suite (${known})`,
        );
      return declared;
    }
    const [only, ...more] = candidates;
    if (only === undefined || more.length > 0)
      throw new CompositionDeclarationError(
        place,
        `cannot tell the ${role} (${candidates.length === 0 ? 'none' : candidates.join(', ')} ${role === 'entry' ? 'receive no handoff' : 'hand nothing on'}); declare ${role}: '<name>'`,
      );
    return only;
  };
  const entry = pick(
    'entry',
    options.entry,
    names.filter((n) => !feeds.has(n)),
  );
  const exit = pick(
    'exit',
    options.exit,
    names.filter((n) => !plain.some((h) => h.from === n)),
  );
  if (feeds.has(entry))
    throw new CompositionDeclarationError(
      `${place}: entry "${entry}"`,
      `receives the attempt's input, yet ${feeds.get(entry)?.from} also hands on to it`,
    );
  const deadEnds = names.filter((n) => n !== exit && !plain.some((h) => h.from === n));
  if (deadEnds.length > 0)
    throw new CompositionDeclarationError(
      place,
      `${deadEnds.join(', ')} ${deadEnds.length === 1 ? 'hands' : 'hand'} nothing on and ${deadEnds.length === 1 ? 'is' : 'are'} not the exit (${exit}): every output goes somewhere`,
    );
  const unfed = names.filter((n) => n !== entry && !feeds.has(n));
  if (unfed.length > 0)
    throw new CompositionDeclarationError(
      place,
      `${unfed.join(', ')} ${unfed.length === 1 ? 'receives' : 'receive'} no handoff and ${unfed.length === 1 ? 'is' : 'are'} not the entry (${entry}), so ${unfed.length === 1 ? 'it' : 'they'} would never run`,
    );
  for (const h of handoffs) {
    const producer = nodes.get(h.from)?.record.output as JsonSchema;
    const consumer = nodes.get(h.to)?.record.input as JsonSchema;
    const given = h.map === undefined ? producer : schemaAt(producer, h.map);
    const at = `${place}: handoff ${edge(h)}${h.map === undefined ? '' : ` (map ${h.map})`}`;
    if (typeof given === 'string') throw new CompositionDeclarationError(at, `${h.from}'s ${given}`);
    const problems = incompatibilities(given, consumer);
    if (problems.length > 0)
      throw new CompositionDeclarationError(
        at,
        `${h.from}'s output (${describeSchema(given)}) does not fit ${h.to}'s input: ${problems.slice(0, MAX_LISTED).join('; ')}${problems.length > MAX_LISTED ? `; and ${problems.length - MAX_LISTED} more` : ''}`,
      );
  }
  const order: string[] = [];
  const pending = new Set(names);
  while (pending.size > 0) {
    const ready = [...pending].filter((n) => {
      const feed = feeds.get(n);
      return feed === undefined || !pending.has(feed.from);
    });
    // Unreachable after the checks above (acyclic, one input each); a guard so a missed case cannot spin forever.
    if (ready.length === 0) throw new CompositionDeclarationError(place, `no order runs ${[...pending].join(', ')}`);
    for (const n of ready) {
      order.push(n);
      pending.delete(n);
    }
  }
  const retain = options.retainPayloadBytes ?? DEFAULT_RETAIN_PAYLOAD_BYTES;
  if (!Number.isInteger(retain) || retain < 0)
    throw new CompositionDeclarationError(place, `retainPayloadBytes must be a whole number of bytes; got ${retain}`);
  const toRecord = (h: HandoffDeclaration): Handoff => ({
    from: h.from,
    to: h.to,
    map: h.map ?? null,
    loop: h.loop ? { max: h.loop.max } : null,
  });
  const record = CompositionSuiteRecord.parse({
    schema: COMPOSITION_SUITE_SCHEMA,
    name: suiteName,
    version: options.version,
    compositions: order.map((n) => nodes.get(n)?.record),
    handoffs: handoffs.map(toRecord),
    entry,
    exit,
  });
  return { record, fingerprint: fingerprint(record), nodes, order, feeds, loops, retainPayloadBytes: retain };
}

/**
 * Declare a Composition Suite: a versioned graph of separately owned Compositions and typed handoffs, validated
 * now. It is a subject: each attempt runs the graph on the Case's input, and its Observation records every handoff
 * and each composition's own observation (see composition-subject.ts).
 */
export function compositionSuite(options: CompositionSuiteOptions): CompositionSuiteSubject {
  const graph = buildCompositionGraph(options);
  const identity: SubjectIdentity = {
    kind: 'function',
    name: graph.record.name,
    revision: `${graph.record.version}+${graph.fingerprint.slice(7, 19)}`,
    revisionSource: 'content',
  };
  // The parts' declared secrets (a command part's env.set, an HTTP part's headers) are the suite's: its Observation
  // holds what every part said.
  const secrets = [...new Set([...graph.nodes.values()].flatMap((node) => node.subject.secrets ?? []))];
  return {
    kind: 'function',
    name: graph.record.name,
    ...(secrets.length > 0 ? { secrets } : {}),
    composition: graph.record,
    fingerprint: graph.fingerprint,
    identify: async () => identity,
    respond: (input, context) => runComposition(graph, input, context),
  };
}
