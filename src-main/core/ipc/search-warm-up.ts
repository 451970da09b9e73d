/**
 * The first keystrokes after a start as fast as the later ones. V8 compiles a function when it
 * first runs and optimizes it once it has run often, so the first search of each kind (one
 * letter, a word, two words, a misspelt word, digits, digits typed with a space, an international
 * number) paid for compiling the paths it takes, and so did the answer's check and the dial row's
 * reading: typed in the felt bench right after a start, the first keystrokes took 40–70 ms more
 * than the same keystrokes typed again.
 *
 * Once the index is built, the core asks a few searches of each kind through its router, as a
 * keystroke's request goes (the request's check, the search, the dial row, the answer's check and
 * wording), one per turn of the event loop, so a person's request waits for at most one of them.
 * Their answers are dropped: nothing is sent to the platform, written or published.
 */
import type { Router } from './router';

/** One search of each kind a person types, in the window's page size. */
export const WARM_UP_QUERIES: readonly string[] = [
  'a',
  'an',
  'and',
  'anderson',
  'andersno',
  'an b',
  '0',
  '03',
  '030',
  '0301',
  '030 12',
  '+4930',
  '12',
];
/** The window's first page (src-renderer's FIRST_LIMIT). */
const WARM_UP_LIMIT = 50;

/**
 * Asks `router` each warm-up search in turn, one per turn of the event loop, until done or
 * `stopped()` says the core is closing. Resolves with how many it asked.
 */
export async function warmUpSearch(
  router: Pick<Router, 'invoke'>,
  stopped: () => boolean,
): Promise<number> {
  let asked = 0;
  for (const query of WARM_UP_QUERIES) {
    await new Promise((turn) => setImmediate(turn));
    if (stopped()) break;
    await router.invoke('directory.search', { query, limit: WARM_UP_LIMIT });
    asked += 1;
  }
  return asked;
}
