import type { StateCreator } from 'zustand';

/**
 * A slice of the one store (app-store.ts): it reads and writes only its own part, so it is typed
 * on that part alone and knows nothing of the whole state (no import of app-store, no cycle).
 */
export type SliceCreator<Slice> = StateCreator<Slice, [], [], Slice>;
