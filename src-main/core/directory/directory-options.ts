/**
 * What a Directory is opened with (open-directory gives the app's, the preview's and the CLI's),
 * the rate budget of its syncs, and what a sync resolves with.
 */
import type { DirectoryStatus } from '../../../src-shared/contract';
import type { AccountOwner } from '../account/account-history';
import type { PhonebookApi } from '../api/phonebook-api';
import type { Clock } from '../clock';
import type { Logger } from '../log/logger';
import type { GradualBuild } from './indexed-contacts';
import type { RequestPacer } from './request-pacer';

export interface DirectoryOptions {
  dataDir: string;
  /** The user's region, read at each request (the profile's live region source), or a fixed one. */
  region: string | (() => string);
  log: Logger;
  /** The platform's phonebook API, when connected (undefined: a sync says to connect first). */
  phonebooks: () => PhonebookApi | undefined;
  /** The account (and platform) connected now; undefined when none is. */
  owner: () => AccountOwner | undefined;
  /** Between automatic refreshes (sync_interval_minutes); also when a directory counts as stale. */
  intervalMs: number;
  /** Shared by every sync of the process; default: 100 requests a minute. */
  pacer?: RequestPacer;
  pageSize?: number;
  /**
   * The platform's time as Callbar sees it: the pacer's window, Retry-After waits, staleness
   * (default: the process's real time).
   */
  clock?: Clock;
  /**
   * Builds an index in slices (default: ContactIndex.buildGradually); the directory runs one
   * slice at a time, letting requests in between. Tests wrap it to see the slices.
   */
  buildIndex?: GradualBuild;
  /** From this many contacts on, an index is built in slices while a scan answers (default 2,000). */
  gradualFrom?: number;
  /** How long a build waits for the first search before it starts anyway (default 2 s). */
  buildAfterMs?: number;
}

/** The rate budget of syncs: below the tightest platform limit seen (120 a minute). */
export const SYNC_BUDGET = { budget: 100, windowMs: 60_000 };

export interface SyncOutcome {
  status: DirectoryStatus;
  /** Requests the sync sent. */
  requests: number;
}
