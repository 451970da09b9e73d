import type {
  DialTarget,
  DirectoryStatus,
  ErrorInfo,
  SearchHit,
} from '../../../src-shared/contract';
import { resultRows, sameRowAt } from './result-rows';
import type { SliceCreator } from './slice';

/**
 * How many hits a keystroke's search asks for: a few pages of the list, so the answer is small
 * to send, parse and keep (the felt benchmark: 200 hits are ~57 KB of JSON, 50 are ~15 KB).
 */
export const FIRST_LIMIT = 50;
/** How many hits the list holds when scrolled towards the end (the contract allows 500). */
export const SEARCH_LIMIT = 200;

/** The search box, its answers and the directory's sync state. */
export interface DirectorySlice {
  directory: DirectoryStatus | undefined;
  directoryError: ErrorInfo | undefined;
  /** The text in the search box (only the box follows it: each key re-renders the box alone). */
  query: string;
  /** The query (trimmed) the shown answer is for: the list shows it, not the typed text. */
  answered: string;
  /** The answer to the latest query (older answers that arrive late are dropped). */
  hits: SearchHit[];
  /** The answer holds every hit there is (it had fewer than it asked for). */
  allHits: boolean;
  /** What the typed text would dial, when it reads as a number ("Dial +49 30 …"). */
  dialRow: DialTarget | undefined;
  /** How many hits come before the dial row (core places it: 0, first). */
  dialAt: number;
  searchError: ErrorInfo | undefined;
  /** Index of the highlighted row in the combined list (dial row first, then hits). */
  selected: number;
  loadDirectory: () => Promise<void>;
  syncDirectory: () => Promise<void>;
  setQuery: (query: string) => Promise<void>;
  /** Asks for the shown query's further hits (the list nears the end of a partial answer). */
  moreHits: () => Promise<void>;
  /** Moves the highlighted row by `delta`, staying inside the list. */
  moveSelection: (delta: number) => void;
  select: (index: number) => void;
  applyDirectoryEvent: (status: DirectoryStatus) => void;
}

/** No answer shown: the search box is empty. */
const NO_ANSWER = {
  answered: '',
  hits: [],
  allHits: true,
  dialRow: undefined,
  dialAt: 0,
  searchError: undefined,
  selected: 0,
} satisfies Partial<DirectorySlice>;

/** The index in use changed (other contacts, or a sync completed): what it answered may differ. */
export function indexChanged(before: DirectoryStatus | undefined, after: DirectoryStatus): boolean {
  return after.contacts !== before?.contacts || after.synced_at !== before.synced_at;
}

export const createDirectorySlice: SliceCreator<DirectorySlice> = (set, get) => {
  // Each search takes a ticket; an answer is shown only while its ticket is the latest, so a
  // slow answer to an older query never replaces a newer one (the last typed text wins). One
  // search is asked at a time and only the latest text waits behind it: fast typing over a large
  // directory asks for what is on screen, not for every text typed on the way there (the main
  // process answers one at a time anyway, so the skipped ones would only delay the last).
  let latest = 0;
  let wanted: { query: string; ticket: number } | undefined;
  let pumping: Promise<void> | undefined;
  const pump = async () => {
    while (wanted) {
      const { query, ticket } = wanted;
      wanted = undefined;
      // One round trip: the answer also says what Enter dials when the text reads as a number.
      const found = await window.callbar.directory.search({ query, limit: FIRST_LIMIT });
      if (ticket !== latest) continue;
      const hits = found.ok ? found.value.hits : [];
      const next = {
        hits,
        dialRow: found.ok ? found.value.dial : undefined,
        dialAt: found.ok ? (found.value.dial_at ?? 0) : 0,
      };
      // The same text asked again (the index changed under it: a sync landed, the region
      // changed): the highlighted row stays highlighted, so Enter still calls whom the person
      // chose. Before, it went back to the first row, and Enter called someone else.
      const kept =
        query === get().answered
          ? sameRowAt(resultRows(next), resultRows(get())[get().selected])
          : -1;
      set({
        ...next,
        answered: query,
        allHits: hits.length < FIRST_LIMIT,
        searchError: found.ok ? undefined : found.error,
        selected: Math.max(kept, 0),
      });
    }
  };
  /** Resolves once the latest text asked for so far is answered. */
  const search = (query: string): Promise<void> => {
    const ticket = ++latest;
    const trimmed = query.trim();
    if (trimmed === '') {
      set(NO_ANSWER);
      return Promise.resolve();
    }
    wanted = { query: trimmed, ticket };
    pumping ??= pump().finally(() => {
      pumping = undefined;
    });
    return pumping;
  };
  let asking: string | undefined;
  const moreHits = async () => {
    const { answered, allHits } = get();
    if (allHits || answered === '' || asking === answered) return;
    const ticket = latest;
    asking = answered;
    try {
      const found = await window.callbar.directory.search({ query: answered, limit: SEARCH_LIMIT });
      if (ticket !== latest || !found.ok) return;
      // The highlighted row stays highlighted (a longer answer may rank its first hits apart).
      const next = {
        hits: found.value.hits,
        dialRow: found.value.dial,
        dialAt: found.value.dial_at ?? 0,
      };
      const at = sameRowAt(resultRows(next), resultRows(get())[get().selected]);
      set({ ...next, allHits: true, selected: at >= 0 ? at : get().selected });
    } finally {
      asking = undefined;
    }
  };
  return {
    directory: undefined,
    directoryError: undefined,
    query: '',
    ...NO_ANSWER,
    loadDirectory: async () => {
      const result = await window.callbar.directory.status();
      if (result.ok) set({ directory: result.value, directoryError: undefined });
      else set({ directoryError: result.error });
    },
    syncDirectory: async () => {
      const result = await window.callbar.directory.sync();
      if (result.ok) set({ directory: result.value, directoryError: undefined });
      else set({ directoryError: result.error });
    },
    setQuery: async (query) => {
      set({ query });
      await search(query);
    },
    moreHits,
    moveSelection: (delta) => {
      const count = get().hits.length + (get().dialRow ? 1 : 0);
      if (count === 0) return;
      set({ selected: Math.min(count - 1, Math.max(0, get().selected + delta)) });
    },
    select: (index) => set({ selected: index }),
    applyDirectoryEvent: (status) => {
      const changed = indexChanged(get().directory, status);
      set({ directory: status, directoryError: undefined });
      // The index changed while something is typed: ask again so the list shows it.
      if (changed && get().query.trim() !== '') void search(get().query);
    },
  };
};
