import type { StateCreator } from 'zustand';
import type { AppState } from './app-store';

/** A slice of the one store: it may read and write the whole state, and owns its own part. */
export type SliceCreator<Slice> = StateCreator<AppState, [], [], Slice>;
