import type {
  DialTarget,
  DirectoryStatus,
  ErrorInfo,
  SearchHit,
} from '../../../src-shared/contract';
import type { SliceCreator } from './slice';

/** How many hits one search asks for (the list is virtualized; the contract allows 500). */
export const SEARCH_LIMIT = 200;

/** A typed number (digits and what people put between them) or a pasted phone link. */
const DIALABLE = /^(?:(?:tel|callto|sips?):.*|[+(]?[\d\s().\-/*#]*\d[\d\s().\-/*#]*)$/i;

/** The search box, its answers and the directory's sync state. */
export interface DirectorySlice {
  directory: DirectoryStatus | undefined;
  directoryError: ErrorInfo | undefined;
  query: string;
  /** The answer to the latest query (older answers that arrive late are dropped). */
  hits: SearchHit[];
  /** What the typed text would dial, when it reads as a number ("Dial +49 30 …"). */
  dialRow: DialTarget | undefined;
  searchError: ErrorInfo | undefined;
  /** Index of the highlighted row in the combined list (dial row first, then hits). */
  selected: number;
  loadDirectory: () => Promise<void>;
  syncDirectory: () => Promise<void>;
  setQuery: (query: string) => Promise<void>;
  /** Moves the highlighted row by `delta`, staying inside the list. */
  moveSelection: (delta: number) => void;
  select: (index: number) => void;
  applyDirectoryEvent: (status: DirectoryStatus) => void;
}

export const createDirectorySlice: SliceCreator<DirectorySlice> = (set, get) => {
  let latest = 0;
  const search = async (query: string) => {
    const ticket = ++latest;
    const trimmed = query.trim();
    if (trimmed === '') {
      set({ hits: [], dialRow: undefined, searchError: undefined, selected: 0 });
      return;
    }
    const [found, parsed] = await Promise.all([
      window.callbar.directory.search({ query: trimmed, limit: SEARCH_LIMIT }),
      DIALABLE.test(trimmed) ? window.callbar.calls.parse({ input: trimmed }) : undefined,
    ]);
    if (ticket !== latest) return;
    set({
      hits: found.ok ? found.value.hits : [],
      searchError: found.ok ? undefined : found.error,
      dialRow: parsed?.ok ? parsed.value : undefined,
      selected: 0,
    });
  };
  return {
    directory: undefined,
    directoryError: undefined,
    query: '',
    hits: [],
    dialRow: undefined,
    searchError: undefined,
    selected: 0,
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
    moveSelection: (delta) => {
      const count = get().hits.length + (get().dialRow ? 1 : 0);
      if (count === 0) return;
      set({ selected: Math.min(count - 1, Math.max(0, get().selected + delta)) });
    },
    select: (index) => set({ selected: index }),
    applyDirectoryEvent: (status) => {
      const before = get().directory;
      const changed = status.contacts !== before?.contacts || status.synced_at !== before.synced_at;
      set({ directory: status, directoryError: undefined });
      // The index changed while something is typed: ask again so the list shows it.
      if (changed && get().query.trim() !== '') void search(get().query);
    },
  };
};
