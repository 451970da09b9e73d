/**
 * Events main pushes to the renderer (one `CallbarEvent` union).
 * Part of the IPC contract (src-shared/contract/index.ts says what it is).
 */
import { z } from 'zod';
import { AccountStatus } from './account';
import { CallsSnapshot } from './calls';
import { DirectoryStatus, FavouriteContact } from './directory';
import { ImportsChangedEvent } from './imports';

/** Something a person should know about that is not the answer to a request. */
export const NoticeEvent = z.object({
  type: z.literal('app.notice'),
  level: z.enum(['info', 'warning', 'error']),
  message: z.string(),
});

export const AccountChangedEvent = z.object({
  type: z.literal('account.changed'),
  status: AccountStatus,
});

export const DirectoryChangedEvent = z.object({
  type: z.literal('directory.changed'),
  status: DirectoryStatus,
});

export const CallsChangedEvent = z.object({
  type: z.literal('calls.changed'),
  calls: CallsSnapshot,
});

/** The global shortcut opened the window: focus the search box, prefilled with `query`. */
export const FocusSearchEvent = z.object({
  type: z.literal('app.focusSearch'),
  query: z.string().max(512),
});
export type FocusSearchEvent = z.infer<typeof FocusSearchEvent>;

/** The favourites changed (starred here, or the account changed). */
export const FavouritesChangedEvent = z.object({
  type: z.literal('favourites.changed'),
  favourites: z.array(FavouriteContact),
});

/**
 * Settings were saved (in this window, another window or the CLI's process through the router):
 * what follows a live setting (the window's language, the tray's words) reads them again.
 */
export const SettingsChangedEvent = z.object({
  type: z.literal('settings.changed'),
});

export const CallbarEvent = z.discriminatedUnion('type', [
  NoticeEvent,
  FocusSearchEvent,
  AccountChangedEvent,
  DirectoryChangedEvent,
  CallsChangedEvent,
  FavouritesChangedEvent,
  ImportsChangedEvent,
  SettingsChangedEvent,
]);
export type CallbarEvent = z.infer<typeof CallbarEvent>;
