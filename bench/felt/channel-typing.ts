/**
 * The felt script's queries typed over the preview's channel from Node, right after a start (not
 * part of `npm run bench`): each keystroke's search as the window sends it (one WebSocket message,
 * limit 50), with the script's pauses, timed from the message sent to its answer. No browser: what
 * is left is the preview's core and the channel, so a change there is seen without Chromium's
 * share of a keystroke. The first keystrokes after a start are shown apart (their paths not yet
 * compiled), with the slowest queries.
 *
 * Several builds (folders of what bench/felt/build.ts makes; the first built now when none is
 * given) are started in turn on one profile, `rounds` times each:
 *
 *   CALLBAR_PROBE_BUILDS=out/felt-bench-A,out/felt-bench-B \
 *     bash scripts/with-keyring.sh npx tsx bench/felt/channel-typing.ts [size] [rounds]
 */
import WebSocket from 'ws';
import { join } from 'node:path';
import { openVault } from '../../src-main/core/vault/keytar-vault';
import { generateDirectory } from '../search-data';
import { buildFelt } from './build';
import { feltProfile } from './felt-profile';
import { startPreview, type RunningPreview } from './preview-start';
import { showSpread, spread } from './spread';
import { typedTexts, typingScript } from './typing';

/** The first keystrokes after a start, shown apart. */
const FIRST = 30;
/** From the start to the first keystroke, as a page takes to load (ms). */
const BEFORE_TYPING_MS = 1500;

/** Each typed text's search over the channel, ms from sent to answered. */
async function typeOverChannel(
  preview: RunningPreview,
  texts: readonly { text: string; pauseMs: number }[],
): Promise<number[]> {
  const socket = new WebSocket(
    `ws://${new URL(preview.origin).host}/__callbar/channel`,
    ['callbar.v1', `callbar-session.${preview.token}`],
    { origin: preview.origin },
  );
  await new Promise((opened, failed) => {
    socket.once('open', opened);
    socket.once('error', failed);
  });
  const answers = new Map<number, () => void>();
  socket.on('message', (data: Buffer) => {
    const { id } = JSON.parse(data.toString('utf8')) as { id: number };
    answers.get(id)?.();
  });
  const times: number[] = [];
  try {
    for (const [id, { text, pauseMs }] of texts.entries()) {
      await new Promise((pause) => setTimeout(pause, pauseMs));
      const sent = performance.now();
      await new Promise<void>((answered) => {
        answers.set(id, answered);
        socket.send(
          JSON.stringify({ id, channel: 'directory.search', body: { query: text, limit: 50 } }),
        );
      });
      times.push(performance.now() - sent);
    }
  } finally {
    socket.close();
  }
  return times;
}

const size = Number(process.argv[2] ?? 100_000);
const rounds = Number(process.argv[3] ?? 2);
const given = process.env.CALLBAR_PROBE_BUILDS?.split(',').filter(Boolean);
const built = given ? undefined : await buildFelt();
const builds = given ?? [built!.outDir];
const felt = await feltProfile((dataDir) => openVault({ dataDir }));
try {
  const { contacts, priorities } = generateDirectory(size);
  await felt.cache(contacts, priorities);
  const texts = typedTexts(typingScript(contacts, 250));
  for (let round = 0; round < rounds; round++) {
    for (const outDir of builds) {
      const preview = await startPreview(
        { outDir, previewMain: join(outDir, 'preview-main.mjs') },
        felt.env,
        'mar',
      );
      try {
        await new Promise((pause) => setTimeout(pause, BEFORE_TYPING_MS));
        const times = await typeOverChannel(preview, texts);
        const mean = (values: number[]) =>
          (values.reduce((sum, value) => sum + value, 0) / values.length).toFixed(1);
        const slowest = times
          .map((ms, at) => ({ ms, text: texts[at]!.text }))
          .sort((a, b) => b.ms - a.ms)
          .slice(0, 5)
          .map(({ ms, text }) => `"${text}" ${ms.toFixed(1)}`)
          .join(', ');
        console.log(
          `${outDir} at ${size.toLocaleString('en')}: ${showSpread(spread(times))}; the first ${FIRST} keystrokes' mean ${mean(times.slice(0, FIRST))} ms, the rest's ${mean(times.slice(FIRST))} ms; slowest ${slowest}`,
        );
      } finally {
        await preview.stop();
      }
    }
  }
} finally {
  await felt.close();
  built?.remove();
}
