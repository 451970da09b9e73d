/**
 * The keystroke alone, for finding where its time goes (not part of `npm run bench`): builds what
 * the felt benchmark runs, caches a directory of CALLBAR_FELT_SIZES' first size (default 8,700),
 * types CALLBAR_FELT_KEYSTROKES keys (default 150) into the real window through the preview and
 * prints keystroke → painted with its split (page-probe.ts). With `--profile` it also records a
 * Chrome trace and a JavaScript CPU profile of the typing and prints what the renderer's main
 * thread spent its time on (trace events by self time; JavaScript functions by self time);
 * CALLBAR_FELT_TRACE=file.json keeps the trace (for chrome://tracing or the DevTools).
 *
 *   bash scripts/with-keyring.sh npx tsx bench/felt-keystroke.ts [--profile]
 */
import { chromium, type CDPSession } from 'playwright-core';
import { writeFileSync } from 'node:fs';
import { buildFelt } from './felt/build';
import { feltProfile } from './felt/felt-profile';
import { startPreview } from './felt/preview-start';
import { keystrokeSplit, showSplit } from './felt/split';
import { showSpread, spread } from './felt/spread';
import { typeScript } from './felt/typing-run';
import { typingScript } from './felt/typing';
import { generateDirectory } from './search-data';
import { openVault } from '../src-main/core/vault/keytar-vault';

const SIZE = Number((process.env.CALLBAR_FELT_SIZES ?? '8700').split(',')[0]);
const KEYSTROKES = Number(process.env.CALLBAR_FELT_KEYSTROKES ?? 150);
const PROFILE = process.argv.includes('--profile');

const built = await buildFelt({ readable: PROFILE });
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking'],
});
const felt = await feltProfile((dataDir) => openVault({ dataDir }));
try {
  const { contacts, priorities } = generateDirectory(SIZE);
  await felt.cache(contacts, priorities);
  const keys = typingScript(contacts, KEYSTROKES);
  const preview = await startPreview(built, felt.env, 'mar');
  try {
    const page = await browser.newPage({ viewport: { width: 420, height: 640 } });
    await page.goto(preview.url);
    await page.locator('.search-box').waitFor();
    const answer = await page.evaluate(`(async () => {
      const response = await fetch('/__callbar/invoke/directory.search', {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-callbar-session': sessionStorage.getItem('callbar.preview.session') },
        body: JSON.stringify({ query: 'mar', limit: 200 }),
      });
      const text = await response.text();
      return { bytes: text.length, hits: JSON.parse(text).value.hits.length, headers: [...response.headers].length };
    })()`);
    console.log(`${SIZE} contacts; the answer to "mar" (limit 200):`, answer);
    let cdp: CDPSession | undefined;
    if (PROFILE) {
      cdp = await page.context().newCDPSession(page);
      await cdp.send('Profiler.enable');
      await cdp.send('Profiler.setSamplingInterval', { interval: 500 });
      await cdp.send('Profiler.start');
      await browser.startTracing(page, {
        categories: [
          'devtools.timeline',
          'blink.user_timing',
          'v8',
          'disabled-by-default-devtools.timeline',
        ],
      });
    }
    const typed = await typeScript(page, keys);
    if (cdp) {
      const trace = await browser.stopTracing();
      if (process.env.CALLBAR_FELT_TRACE) writeFileSync(process.env.CALLBAR_FELT_TRACE, trace);
      const { profile } = await cdp.send('Profiler.stop');
      showTrace(
        JSON.parse(trace.toString('utf8')) as { traceEvents: TraceEvent[] },
        typed.timings.length,
      );
      showProfile(profile, typed.timings.length);
    }
    console.log(`keystroke → painted: ${showSpread(spread(typed.timings.map((t) => t.paintMs)))}`);
    console.log(
      `keystroke → list changed: ${showSpread(spread(typed.timings.map((t) => t.domMs)))}`,
    );
    console.log(`${typed.unchanged} keys changed nothing; the split:`);
    console.log(showSplit(keystrokeSplit(typed.timings)));
    console.log('the slowest keystrokes (keydown → sent, answered, list changed, painted; ms):');
    for (const t of [...typed.timings].sort((a, b) => b.paintMs - a.paintMs).slice(0, 10)) {
      const marks = [t.sentMs, t.answeredMs, t.domMs, t.paintMs].map((ms) => ms?.toFixed(1) ?? '–');
      console.log(`  ${JSON.stringify(t.text).padEnd(24)} ${marks.join(' / ')}`);
    }
    await page.close();
  } finally {
    await preview.stop();
  }
} finally {
  await browser.close();
  await felt.close();
  built.remove();
}

interface TraceEvent {
  name: string;
  ph: string;
  ts: number;
  dur?: number;
  /** The thread's CPU time in the event (wall time minus waiting for a core), µs. */
  tdur?: number;
  pid: number;
  tid: number;
  args?: { name?: string; data?: { type?: string } };
}

/**
 * The renderer main thread's trace events by self time per keystroke, ms: wall time and the
 * thread's CPU time (the latter hardly depends on what else runs on the machine).
 */
function showTrace({ traceEvents }: { traceEvents: TraceEvent[] }, keystrokes: number) {
  const main = traceEvents.find(
    (event) =>
      event.ph === 'M' && event.name === 'thread_name' && event.args?.name === 'CrRendererMain',
  );
  if (!main) return console.log('no renderer main thread in the trace');
  const events = traceEvents
    .filter((event) => event.pid === main.pid && event.tid === main.tid && event.ph === 'X')
    .sort((a, b) => a.ts - b.ts || (b.dur ?? 0) - (a.dur ?? 0));
  const self = new Map<string, { wall: number; cpu: number }>();
  const add = (name: string, wall: number, cpu: number) => {
    const entry = self.get(name) ?? { wall: 0, cpu: 0 };
    entry.wall += wall;
    entry.cpu += cpu;
    self.set(name, entry);
  };
  const stack: { end: number; name: string }[] = [];
  const total = { wall: 0, cpu: 0 };
  const label = (event: TraceEvent) =>
    event.args?.data?.type ? `${event.name}(${event.args.data.type})` : event.name;
  for (const event of events) {
    const [wall, cpu] = [event.dur ?? 0, event.tdur ?? 0];
    while (stack.length && stack.at(-1)!.end <= event.ts) stack.pop();
    const parent = stack.at(-1);
    if (parent) add(parent.name, -wall, -cpu);
    else {
      total.wall += wall;
      total.cpu += cpu;
    }
    add(label(event), wall, cpu);
    stack.push({ end: event.ts + wall, name: label(event) });
  }
  const ms = (us: number) => (us / 1000 / keystrokes).toFixed(2).padStart(6);
  console.log(
    `renderer main thread per keystroke: busy ${ms(total.wall)} ms wall, ${ms(total.cpu)} ms CPU; by self time (wall, CPU):`,
  );
  for (const [name, { wall, cpu }] of [...self].sort((a, b) => b[1].cpu - a[1].cpu).slice(0, 25)) {
    console.log(`  ${ms(wall)} ${ms(cpu)}  ${name}`);
  }
}

interface CpuProfile {
  nodes: { id: number; callFrame: { functionName: string; url: string; lineNumber: number } }[];
  samples?: number[];
  timeDeltas?: number[];
}

/** JavaScript functions by self time per keystroke (ms), from the CPU profile. */
function showProfile(profile: CpuProfile, keystrokes: number) {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const self = new Map<string, number>();
  (profile.samples ?? []).forEach((id, index) => {
    const frame = byId.get(id)!.callFrame;
    const name = `${frame.functionName || '(anonymous)'} ${frame.url.split('/').at(-1) ?? ''}:${frame.lineNumber}`;
    self.set(name, (self.get(name) ?? 0) + (profile.timeDeltas?.[index + 1] ?? 0));
  });
  console.log('renderer JavaScript by self time per keystroke (ms):');
  for (const [name, us] of [...self].sort((a, b) => b[1] - a[1]).slice(0, 30)) {
    console.log(`  ${(us / 1000 / keystrokes).toFixed(2).padStart(6)}  ${name}`);
  }
}
