/**
 * The search benchmark: Callbar's index against FlexSearch, uFuzzy, MiniSearch, Fuse.js and a
 * naive filter(), on 100,000 generated contacts and one set of typed keystrokes (names,
 * companies, digit fragments with and without spaces, speed dials, one-typo names). Per engine:
 * index build time, the memory the index holds (JS heap + typed-array buffers), p50/p99/max per
 * keystroke (top 50), recall on digit fragments of 6+ digits and on one-typo names.
 *
 * The general-purpose engines get each contact as one text: name, company, both numbers as
 * stored, and both numbers' bare digits (so a fragment typed without spaces has a chance).
 * Timings: a warm-up pass, then `runs` timed passes; each figure is the median over the passes.
 */
import { Charset, Index as FlexIndex } from 'flexsearch';
import Fuse from 'fuse.js';
import uFuzzy from '@leeoniya/ufuzzy';
import MiniSearch from 'minisearch';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import type { DirectoryContact } from '../src-shared/contract';
import type { PartyCalls } from '../src-main/core/directory/call-affinity';
import { ContactIndex } from '../src-main/core/directory/contact-index';
import { foldText } from '../src-main/core/directory/text-fold';
import { generateDirectory, seededRandom } from './search-data';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

const LIMIT = 50;

export interface EngineFigures {
  build_ms: number;
  mem_mb: number;
  p50_ms: number;
  p99_ms: number;
  max_ms: number;
  digit_recall: number;
  typo_recall: number;
  /**
   * The same in CPU time of the process: on a shared machine, wall-clock figures also measure
   * the waits for a core; CPU time measures the work.
   */
  build_cpu_ms: number;
  cpu_p50_ms: number;
  cpu_p99_ms: number;
  cpu_max_ms: number;
}

export interface Query {
  text: string;
  /** The contact the query is meant to find, for recall. */
  target?: number;
  kind: 'keystroke' | 'digits' | 'typo';
}

type Search = (query: string) => number[];
export interface Engine {
  name: string;
  build: (contacts: DirectoryContact[], priorities: Map<number, number>) => Search;
  /** Slow engines are timed once instead of `runs` times. */
  slow?: boolean;
}

function haystackOf(contact: DirectoryContact): string {
  const numbers = [contact.number, contact.secondary_number ?? ''];
  return [
    contact.display_name,
    contact.company,
    ...numbers,
    ...numbers.map((number) => number.replace(/\D/g, '')),
    contact.speed_dial ?? '',
  ].join(' ');
}

/** The call log's largest recent list: parties the ranking lifts (see callHistory). */
const CALLED_PARTIES = 100;

/**
 * A call history as the call log gives it at its fullest: 100 parties, half by contact id, half
 * by number alone, with 1–10 calls each over the last 120 days.
 */
function callHistory(contacts: DirectoryContact[]): PartyCalls[] {
  const random = seededRandom(11);
  const now = Date.now();
  return Array.from({ length: CALLED_PARTIES }, (_, i) => {
    const contact = contacts[Math.floor(random() * contacts.length)]!;
    return {
      ...(i % 2 === 0 ? { contact_id: contact.id } : {}),
      number: contact.number,
      calls: 1 + Math.floor(random() * 10),
      last_ms: now - Math.floor(random() * 120 * 24 * 60 * 60_000),
    };
  });
}

function callbarEngine(name: string, withCalls: boolean): Engine {
  return {
    name,
    build: (contacts, priorities) => {
      const index = ContactIndex.build(contacts, {
        region: 'DE',
        priorityOf: (id) => priorities.get(id),
      });
      if (withCalls) index.setCallHistory(callHistory(contacts));
      return (query) => index.search(query, LIMIT).map((hit) => hit.contact.id);
    },
  };
}

const engines: Engine[] = [
  callbarEngine('callbar', false),
  // The same index ranking by the user's own calls too: what that ranking costs a keystroke.
  callbarEngine('callbar + calls', true),
  {
    name: 'flexsearch',
    build: (contacts) => {
      const index = new FlexIndex({ tokenize: 'forward', encoder: Charset.LatinBalance });
      for (const contact of contacts) index.add(contact.id, haystackOf(contact));
      return (query) => index.search(query, { limit: LIMIT }) as number[];
    },
  },
  {
    name: 'ufuzzy',
    build: (contacts) => {
      const finder = new uFuzzy({ intraMode: 1 });
      const haystack = uFuzzy.latinize(
        contacts.map((contact) => haystackOf(contact).toLowerCase()),
      );
      return (query) => {
        const [idxs, , order] = finder.search(haystack, uFuzzy.latinize(query.toLowerCase()), 1);
        if (!idxs) return [];
        const ranked = order ? order.map((i) => idxs[i]!) : idxs;
        return ranked.slice(0, LIMIT).map((i) => contacts[i]!.id);
      };
    },
  },
  {
    name: 'minisearch',
    build: (contacts) => {
      const index = new MiniSearch<{ id: number; text: string }>({
        fields: ['text'],
        processTerm: (term) => foldText(term),
        searchOptions: {
          prefix: true,
          fuzzy: (term) => (term.length >= 4 ? 1 : false),
          combineWith: 'AND',
        },
      });
      index.addAll(contacts.map((contact) => ({ id: contact.id, text: haystackOf(contact) })));
      return (query) =>
        index
          .search(query)
          .slice(0, LIMIT)
          .map((result) => result.id as number);
    },
  },
  {
    name: 'fuse.js',
    slow: true,
    build: (contacts) => {
      const fuse = new Fuse(
        contacts.map((contact) => ({ id: contact.id, text: haystackOf(contact) })),
        { keys: ['text'], threshold: 0.3, ignoreLocation: true },
      );
      return (query) => fuse.search(query, { limit: LIMIT }).map((result) => result.item.id);
    },
  },
  {
    name: 'naive filter()',
    slow: true,
    build: (contacts) => {
      const haystack = contacts.map((contact) => foldText(haystackOf(contact)));
      return (query) => {
        const terms = foldText(query).split(/\s+/).filter(Boolean);
        const ids: number[] = [];
        for (let i = 0; i < haystack.length && ids.length < LIMIT; i++) {
          if (terms.every((term) => haystack[i]!.includes(term))) ids.push(contacts[i]!.id);
        }
        return ids;
      };
    },
  },
];

/** Every prefix of `text`, as typed one key at a time (spaces included). */
function keystrokes(text: string): string[] {
  return Array.from({ length: text.length }, (_, i) => text.slice(0, i + 1)).filter(
    (prefix) => !prefix.endsWith(' '),
  );
}

/** One edit (substitution, deletion, insertion, transposition) inside a word of 4+ letters. */
function withTypo(name: string, random: () => number): string | undefined {
  const words = name.split(' ');
  const candidates = words
    .map((word, i) => [word, i] as const)
    .filter(([word]) => word.length >= 4);
  if (candidates.length === 0) return undefined;
  const [word, at] = candidates[Math.floor(random() * candidates.length)]!;
  const position = 1 + Math.floor(random() * (word.length - 2));
  const letter = 'abcdefghijklmnopqrstuvwxyz'[Math.floor(random() * 26)]!;
  const edits = [
    word.slice(0, position) + letter + word.slice(position + 1),
    word.slice(0, position) + word.slice(position + 1),
    word.slice(0, position) + letter + word.slice(position),
    word.slice(0, position) + word[position + 1]! + word[position]! + word.slice(position + 2),
  ];
  const typo = edits[Math.floor(random() * edits.length)]!;
  if (typo === word) return undefined;
  words[at] = typo;
  return words.join(' ');
}

export function querySet(contacts: DirectoryContact[], seed = 7): Query[] {
  const random = seededRandom(seed);
  const pick = () => contacts[Math.floor(random() * contacts.length)]!;
  const queries: Query[] = [];
  for (let i = 0; i < 12; i++) {
    const contact = pick();
    for (const text of keystrokes(contact.display_name)) queries.push({ text, kind: 'keystroke' });
  }
  for (let i = 0; i < 5; i++) {
    const contact = pick();
    if (!contact.company) continue;
    for (const text of keystrokes(contact.company)) queries.push({ text, kind: 'keystroke' });
  }
  for (let made = 0; made < 10;) {
    const contact = pick();
    // A stretch of the subscriber part of the number as shown (with its spaces), or of its bare
    // digits: 6+ digits of it are specific enough that the contact belongs on the first page.
    const shown = contact.number;
    const digitAt = [...shown].flatMap((char, i) => (/\d/.test(char) ? [i] : []));
    const from = digitAt[Math.max(0, digitAt.length - 9 + Math.floor(random() * 2))]!;
    const spaced = made % 2 === 0;
    const fragment = spaced
      ? shown.slice(from, digitAt[Math.min(digitAt.length - 1, digitAt.indexOf(from) + 7)]! + 1)
      : shown.slice(from).replace(/\D/g, '').slice(0, 8);
    const digits = fragment.replace(/\D/g, '');
    const matching = contacts.filter((other) =>
      [other.number, other.secondary_number ?? ''].some((n) =>
        n.replace(/\D/g, '').includes(digits),
      ),
    );
    if (matching.length > LIMIT) continue;
    for (const text of keystrokes(fragment)) {
      const typed = text.replace(/\D/g, '').length;
      queries.push({ text, kind: typed >= 6 ? 'digits' : 'keystroke', target: contact.id });
    }
    made++;
  }
  for (let i = 0; i < 5; i++) {
    const contact = pick();
    if (contact.speed_dial === null) continue;
    for (const text of keystrokes(String(contact.speed_dial)))
      queries.push({ text, kind: 'keystroke' });
  }
  for (let made = 0; made < 100;) {
    const contact = pick();
    const typo = withTypo(contact.display_name.replace(',', ''), random);
    if (!typo) continue;
    queries.push({ text: typo, kind: 'typo', target: contact.id });
    made++;
  }
  return queries;
}

const median = (values: number[]) =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

function percentile(sorted: Float64Array, share: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil(share * sorted.length) - 1)]!;
}

function memoryInUse(): number {
  gc();
  gc();
  const usage = process.memoryUsage();
  return usage.heapUsed + usage.arrayBuffers;
}

/** Wall-clock and CPU milliseconds of `work` (CPU: this process, all its threads). */
function timed<T>(work: () => T): { value: T; wall: number; cpu: number } {
  const cpuBefore = process.cpuUsage();
  const started = performance.now();
  const value = work();
  const wall = performance.now() - started;
  const cpu = process.cpuUsage(cpuBefore);
  return { value, wall, cpu: (cpu.user + cpu.system) / 1000 };
}

export function measure(
  engine: Engine,
  contacts: DirectoryContact[],
  priorities: Map<number, number>,
  queries: Query[],
  runs: number,
): EngineFigures {
  const builds: number[] = [];
  const buildsCpu: number[] = [];
  const memories: number[] = [];
  const build = () => {
    const before = memoryInUse();
    const { value: search, wall, cpu } = timed(() => engine.build(contacts, priorities));
    builds.push(wall);
    buildsCpu.push(cpu);
    memories.push(memoryInUse() - before);
    return search;
  };
  // Each build is dropped before the next one is measured.
  for (let extra = 0; extra < (engine.slow ? 0 : 2); extra++) build();
  const run = build();
  const memory = median(memories);
  const wall = { p50: [] as number[], p99: [] as number[], max: [] as number[] };
  const cpu = { p50: [] as number[], p99: [] as number[], max: [] as number[] };
  const record = (into: typeof wall, times: Float64Array) => {
    const sorted = times.slice().sort();
    into.p50.push(percentile(sorted, 0.5));
    into.p99.push(percentile(sorted, 0.99));
    into.max.push(sorted[sorted.length - 1]!);
  };
  // Pass 0 is the warm-up and gives recall (the answers do not change between passes); a slow
  // engine is timed on it alone.
  let digitHits = 0;
  let digitTotal = 0;
  let typoHits = 0;
  let typoTotal = 0;
  const passes = engine.slow ? 1 : runs + 1;
  for (let pass = 0; pass < passes; pass++) {
    const wallTimes = new Float64Array(queries.length);
    const cpuTimes = new Float64Array(queries.length);
    queries.forEach((query, i) => {
      const answer = timed(() => run(query.text));
      wallTimes[i] = answer.wall;
      cpuTimes[i] = answer.cpu;
      if (pass > 0) return;
      if (query.kind === 'digits') {
        digitTotal++;
        if (answer.value.includes(query.target!)) digitHits++;
      } else if (query.kind === 'typo') {
        typoTotal++;
        if (answer.value.includes(query.target!)) typoHits++;
      }
    });
    if (pass > 0 || engine.slow) {
      record(wall, wallTimes);
      record(cpu, cpuTimes);
    }
  }
  const round = (value: number, digits = 3) => Number(value.toFixed(digits));
  return {
    build_ms: round(median(builds), 1),
    mem_mb: round(memory / 2 ** 20, 1),
    p50_ms: round(median(wall.p50)),
    p99_ms: round(median(wall.p99)),
    max_ms: round(median(wall.max)),
    digit_recall: round(digitHits / digitTotal, 3),
    typo_recall: round(typoHits / typoTotal, 3),
    build_cpu_ms: round(median(buildsCpu), 1),
    cpu_p50_ms: round(median(cpu.p50)),
    cpu_p99_ms: round(median(cpu.p99)),
    cpu_max_ms: round(median(cpu.max)),
  };
}

/** Runs the comparison, prints a table, returns the figures per engine. */
export function searchEngines(count = 100_000, runs = 5): Record<string, EngineFigures> {
  const { contacts, priorities } = generateDirectory(count);
  const queries = querySet(contacts);
  const kinds = (kind: Query['kind']) => queries.filter((query) => query.kind === kind).length;
  console.log(
    `${count} contacts; ${queries.length} queries (${kinds('digits')} digit fragments of 6+ digits, ${kinds('typo')} one-typo names); top ${LIMIT}; median of ${runs} passes after a warm-up (fuse.js and the naive filter: one pass)`,
  );
  console.log(
    'engine           build ms  mem MB   p50 ms   p99 ms   max ms  digits  typos   | CPU: build ms   p50 ms   p99 ms   max ms',
  );
  const figures: Record<string, EngineFigures> = {};
  for (const engine of engines) {
    const f = measure(engine, contacts, priorities, queries, runs);
    figures[engine.name] = f;
    console.log(
      `${engine.name.padEnd(15)} ${f.build_ms.toFixed(1).padStart(9)} ${f.mem_mb.toFixed(1).padStart(7)} ${f.p50_ms.toFixed(3).padStart(8)} ${f.p99_ms.toFixed(3).padStart(8)} ${f.max_ms.toFixed(3).padStart(8)} ${(f.digit_recall * 100).toFixed(0).padStart(6)}% ${(f.typo_recall * 100).toFixed(0).padStart(5)}%   | ${f.build_cpu_ms.toFixed(1).padStart(14)} ${f.cpu_p50_ms.toFixed(3).padStart(8)} ${f.cpu_p99_ms.toFixed(3).padStart(8)} ${f.cpu_max_ms.toFixed(3).padStart(8)}`,
    );
  }
  const ranked = figures['callbar + calls']!;
  const plain = figures.callbar!;
  console.log(
    `Ranking by ${CALLED_PARTIES} called parties: p50 ${plain.cpu_p50_ms.toFixed(3)} → ${ranked.cpu_p50_ms.toFixed(3)} ms, p99 ${plain.cpu_p99_ms.toFixed(3)} → ${ranked.cpu_p99_ms.toFixed(3)} ms (CPU), build ${plain.build_cpu_ms.toFixed(1)} → ${ranked.build_cpu_ms.toFixed(1)} ms (with setCallHistory)`,
  );
  return figures;
}
