/**
 * Favourites: contacts starred to come first (the window's empty search, the tray menu). They
 * come from sources: the person's own stars, kept in the profile's `favourites.json` (contact ids
 * and when each was starred; no secret), and read-only ones pushed by someone else, such as an
 * administrator's policy (issue 30), which names numbers. Policy favourites come first and cannot
 * be unstarred here.
 *
 * The app and the CLI may star at the same moment: every change is "read, change, write" under
 * the profile's `favourites.lock`, and the file is replaced atomically, so neither loses the
 * other's star. A missing or unreadable file is no favourites (logged), never an error.
 */
import { join } from 'node:path';
import { z } from 'zod';
import type {
  DirectoryContact,
  FavouriteContact,
  ShownNumbers,
} from '../../../src-shared/contract';
import { processOnlyLock, profileSessionLock, type SessionLock } from '../account/session-lock';
import { fileFormat } from '../config/file-format';
import { memoryStateFile, profileStateFile, type StateFile } from '../config/state-file';
import { said } from '../text/said';
import { CallbarError } from '../errors';
import type { Logger } from '../log/logger';

/** The most stars a person keeps (the tray lists them all; the file stays a few kB). */
export const MAX_FAVOURITES = 200;

const StoredFavourite = z.object({
  contact_id: z.number().int().positive(),
  /** When it was starred (ms since the epoch): the order they are listed in. */
  starred_at: z.number(),
});

const FavouritesContent = z.object({
  favourites: z.array(StoredFavourite).max(MAX_FAVOURITES),
});
type FavouritesContent = z.infer<typeof FavouritesContent>;

/** `favourites.json`: version 1; the files before it said `"format": 1` with the same content. */
export const FavouritesFile = fileFormat({
  version: 1,
  content: FavouritesContent,
  migrate: (old) => ({ favourites: old.favourites }),
});

/** Favourites someone else decides (read-only here): contacts named by number (E.164). */
export interface FavouriteSource {
  readonly name: 'policy';
  numbers(): readonly string[];
}

/** The favourites an administrator's policy names (`favourites`, docs/administration.md). */
export function policyFavourites(numbers: readonly string[]): FavouriteSource {
  return { name: 'policy', numbers: () => numbers };
}

/** What the directory answers that favourites need. */
export interface FavouriteDirectory {
  /** The contacts with these ids (stars), in the directory's order. */
  withIds(ids: ReadonlySet<number>): readonly DirectoryContact[];
  lookupByNumber(number: string): DirectoryContact | undefined;
  /** A contact's numbers as a person reads them (in the user's region). */
  shownNumbers(contact: DirectoryContact): ShownNumbers;
}

export interface FavouritesOptions {
  file: StateFile<FavouritesContent>;
  lock: SessionLock;
  directory: FavouriteDirectory;
  sources?: readonly FavouriteSource[];
  now?: () => number;
}

export class Favourites {
  readonly #file: StateFile<FavouritesContent>;
  readonly #lock: SessionLock;
  readonly #directory: FavouriteDirectory;
  readonly #sources: readonly FavouriteSource[];
  readonly #now: () => number;
  #queue: Promise<unknown> = Promise.resolve();

  constructor(options: FavouritesOptions) {
    this.#file = options.file;
    this.#lock = options.lock;
    this.#directory = options.directory;
    this.#sources = options.sources ?? [];
    this.#now = options.now ?? Date.now;
  }

  /**
   * The favourite contacts the directory has, policy ones first, then the person's in the order
   * they were starred. A star whose contact is not in the directory (deleted, or not synced yet)
   * is kept but not listed.
   */
  async list(): Promise<FavouriteContact[]> {
    const stored = (await this.#file.read())?.favourites ?? [];
    const listed: FavouriteContact[] = [];
    const seen = new Set<number>();
    for (const source of this.#sources) {
      for (const number of source.numbers()) {
        const contact = this.#directory.lookupByNumber(number);
        if (!contact || seen.has(contact.id)) continue;
        seen.add(contact.id);
        const shown = this.#directory.shownNumbers(contact);
        listed.push({ ...contact, source: source.name, read_only: true, shown });
      }
    }
    const byId = new Map(stored.map((entry) => [entry.contact_id, entry.starred_at]));
    const mine = this.#directory
      .withIds(new Set(byId.keys()))
      .filter((contact) => !seen.has(contact.id))
      .sort((a, b) => byId.get(a.id)! - byId.get(b.id)!);
    for (const contact of mine) {
      const shown = this.#directory.shownNumbers(contact);
      listed.push({ ...contact, source: 'user', read_only: false, shown });
    }
    return listed;
  }

  /** How many stars name a contact the directory does not have (deleted, or not synced yet). */
  async unlisted(): Promise<number> {
    const stored = (await this.#file.read())?.favourites ?? [];
    const held = this.#directory.withIds(new Set(stored.map((entry) => entry.contact_id)));
    return stored.length - held.length;
  }

  /** Whether the person starred this contact (listed or not: its contact may be gone). */
  async starred(contactId: number): Promise<boolean> {
    const stored = (await this.#file.read())?.favourites ?? [];
    return stored.some((entry) => entry.contact_id === contactId);
  }

  /** Stars or unstars a contact; the favourites afterwards. */
  async set(contactId: number, starred: boolean): Promise<FavouriteContact[]> {
    if (!starred && (await this.list()).some((f) => f.id === contactId && f.read_only)) {
      throw new CallbarError('favourite_read_only', said('errors:favourites.readOnly'));
    }
    await this.#alone(async () => {
      const stored = (await this.#file.read())?.favourites ?? [];
      const others = stored.filter((entry) => entry.contact_id !== contactId);
      if (!starred) {
        if (others.length !== stored.length) {
          await this.#file.write({ favourites: others });
        }
        return;
      }
      if (others.length !== stored.length) return; // starred already
      if (stored.length >= MAX_FAVOURITES) {
        throw new CallbarError(
          'too_many_favourites',
          said('errors:favourites.tooMany', { max: MAX_FAVOURITES }),
        );
      }
      await this.#file.write({
        favourites: [...stored, { contact_id: contactId, starred_at: this.#now() }],
      });
    });
    return this.list();
  }

  /** Runs `task` alone: after this process's earlier changes, holding the profile's lock. */
  #alone<T>(task: () => Promise<T>): Promise<T> {
    const run = this.#queue.then(() => this.#lock.hold(task));
    this.#queue = run.catch(() => undefined);
    return run;
  }
}

/** The person's stars in the profile folder (files/folder-watch.ts follows it by this name). */
export const FAVOURITES_FILE_NAME = 'favourites.json';

/** The favourites of the profile in `dataDir`, shared by its processes. */
export function profileFavourites(
  dataDir: string,
  log: Logger,
  directory: FavouriteDirectory,
  sources: readonly FavouriteSource[] = [],
): Favourites {
  return new Favourites({
    file: profileStateFile(join(dataDir, FAVOURITES_FILE_NAME), FavouritesFile, log, 'favourites'),
    lock: profileSessionLock(dataDir, {
      log,
      name: 'favourites.lock',
      holding: said('errors:lock.savingFavourites'),
      staleMs: 5_000,
      waitMs: 10_000,
    }),
    directory,
    sources,
  });
}

/** Favourites of this process only (unit tests, a core without a profile folder). */
export function memoryFavourites(directory: FavouriteDirectory): Favourites {
  return new Favourites({ file: memoryStateFile(), lock: processOnlyLock, directory });
}
