/**
 * The contact changes the profile's processes saved lately (`directory-changes.json`: ids and the
 * contacts as saved; no secret). A sync fetches the platform over seconds or minutes; a contact
 * another process saved meanwhile (`callbar contacts create` or `delete` while the app syncs) may
 * come before the page that holds it was fetched, or after. The sync's directory is written with
 * the changes saved since it began applied, as those of its own process are (directory.ts), so it
 * does not write them away. Written and read under the cache's lock (directory-saving.ts).
 */
import { join } from 'node:path';
import { z } from 'zod';
import { DirectoryContact } from '../../../src-shared/contract';
import { fileFormat } from '../config/file-format';
import { profileStateFile, type StateFile } from '../config/state-file';
import type { Logger } from '../log/logger';
import type { LocalChange } from './directory-saving';

/** Changes kept: the last ones, and none older than a sync may take (SYNC_LIMITS, 30 min). */
const MAX_CHANGES = 100;
const KEPT_MS = 60 * 60_000;
/** The file: MAX_CHANGES changes, a bulk delete's ids among them. */
const MAX_FILE_BYTES = 1024 * 1024;

const RecentChange = z.object({
  /** When it was saved, ms since the epoch (the wall clock, the same for every process here). */
  at: z.number(),
  /** The process that saved it (a sync has its own process's changes already, in order). */
  pid: z.number().int().positive(),
  change: z.union([
    z.object({ upsert: DirectoryContact }),
    z.object({ remove: z.array(z.number().int()).max(10_000) }),
  ]),
});
const RecentChanges = z.object({ changes: z.array(RecentChange).max(MAX_CHANGES) });
type RecentChanges = z.infer<typeof RecentChanges>;

/** `directory-changes.json`: version 1. */
export const RecentChangesFile = fileFormat({ version: 1, content: RecentChanges });

export type RecentChangesStore = StateFile<RecentChanges>;

/** The recent changes of the profile in `dataDir`. */
export function recentChangesFile(dataDir: string, log: Logger): RecentChangesStore {
  return profileStateFile(
    join(dataDir, 'directory-changes.json'),
    RecentChangesFile,
    log,
    'recent contact changes',
    MAX_FILE_BYTES,
  );
}

/** Adds `change`, saved `at`; the oldest go past the bound. */
export async function noteChange(
  file: RecentChangesStore,
  change: LocalChange,
  at: number,
): Promise<void> {
  const kept = ((await file.read())?.changes ?? []).filter((each) => at - each.at < KEPT_MS);
  await file.write({ changes: [...kept, { at, pid: process.pid, change }].slice(-MAX_CHANGES) });
}

/** The changes other processes saved at `since` or later, in the order they were saved. */
export async function othersChangesSince(
  file: RecentChangesStore,
  since: number,
): Promise<LocalChange[]> {
  const changes = (await file.read())?.changes ?? [];
  return changes
    .filter((each) => each.at >= since && each.pid !== process.pid)
    .map((each) => each.change);
}
