/**
 * Call notes: a short note the user keeps on a call ("call back Tuesday about the invoice"), in
 * the profile's `call-notes.json` (call ids and notes; kept on this computer only, never sent to
 * the platform). The app and the CLI may write at the same moment: every change is "read,
 * change, write" under the profile's `call-notes.lock` and the file is replaced atomically (as
 * favourites.json), so neither loses the other's note. A missing or unreadable file is no notes
 * (logged), never an error.
 */
import { join } from 'node:path';
import { z } from 'zod';
import { CALL_NOTE_CHARS } from '../../../src-shared/contract';
import { processOnlyLock, profileSessionLock, type SessionLock } from '../account/session-lock';
import { memoryStateFile, profileStateFile, type StateFile } from '../config/state-file';
import { CallbarError } from '../errors';
import { said } from '../text/said';
import type { Logger } from '../log/logger';
import { fileFormat } from '../config/file-format';

/** Notes kept: the recent list's calls and some; beyond it the oldest notes go first. */
export const MAX_CALL_NOTES = 200;
/** The file: MAX_CALL_NOTES notes of CALL_NOTE_CHARS characters, each escaped in JSON. */
const MAX_NOTES_FILE_BYTES = 1024 * 1024;

const StoredNote = z.object({
  call_id: z.string().min(1).max(64),
  note: z.string().min(1).max(CALL_NOTE_CHARS),
  /** When it was written (ms since the epoch): the oldest go first past the cap. */
  noted_at: z.number(),
});

const CallNotesContent = z.object({
  notes: z.array(StoredNote).max(MAX_CALL_NOTES),
});
type CallNotesContent = z.infer<typeof CallNotesContent>;

/** `call-notes.json`: version 1 (config/file-format.ts). */
export const CallNotesFile = fileFormat({ version: 1, content: CallNotesContent });

/** Anything that acts instead of showing, except the line break a note may have. */
// eslint-disable-next-line no-control-regex -- control characters are what is refused here
const REFUSED_CHARACTERS = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;

/**
 * `text` as a note: trimmed, line breaks as \n, at most CALL_NOTE_CHARS characters, no control
 * or bidi characters.
 * @throws CallbarError `note_invalid` saying what is wrong.
 */
export function checkedNote(text: string): string {
  const note = text.replace(/\r\n?/g, '\n').trim();
  if (note.length > CALL_NOTE_CHARS) {
    throw new CallbarError(
      'note_invalid',
      said('errors:callNotes.tooLong', { max: CALL_NOTE_CHARS, length: note.length }),
      { field: 'note' },
    );
  }
  if (REFUSED_CHARACTERS.test(note)) {
    throw new CallbarError('note_invalid', said('errors:callNotes.controlCharacters'), {
      field: 'note',
    });
  }
  return note;
}

export interface CallNotesOptions {
  file: StateFile<CallNotesContent>;
  lock: SessionLock;
  now?: () => number;
}

export class CallNotes {
  readonly #file: StateFile<CallNotesContent>;
  readonly #lock: SessionLock;
  readonly #now: () => number;
  #queue: Promise<unknown> = Promise.resolve();
  /** The notes as last read or written: what snapshots show. */
  #notes = new Map<string, string>();

  constructor(options: CallNotesOptions) {
    this.#file = options.file;
    this.#lock = options.lock;
    this.#now = options.now ?? Date.now;
  }

  /** Reads the notes again (what another process wrote). */
  async load(): Promise<void> {
    this.#remember((await this.#file.read())?.notes ?? []);
  }

  /** The note on call `callId`, as last loaded or set. */
  note(callId: string): string | undefined {
    return this.#notes.get(callId);
  }

  /** Sets (or, with '', removes) the note on `callId`; `text` is checked first (checkedNote). */
  async set(callId: string, text: string): Promise<void> {
    const note = checkedNote(text);
    await this.#alone(async () => {
      const stored = (await this.#file.read())?.notes ?? [];
      const others = stored.filter((entry) => entry.call_id !== callId);
      const notes = note
        ? [...others, { call_id: callId, note, noted_at: this.#now() }]
            .sort((a, b) => a.noted_at - b.noted_at)
            .slice(-MAX_CALL_NOTES)
        : others;
      await this.#file.write({ notes });
      this.#remember(notes);
    });
  }

  /** Removes the notes on `callIds` (calls cleared from the recent list). */
  async remove(callIds: readonly string[]): Promise<void> {
    if (callIds.length === 0) return;
    const gone = new Set(callIds);
    await this.#alone(async () => {
      const stored = (await this.#file.read())?.notes ?? [];
      const kept = stored.filter((entry) => !gone.has(entry.call_id));
      if (kept.length !== stored.length) await this.#file.write({ notes: kept });
      this.#remember(kept);
    });
  }

  #remember(notes: readonly z.infer<typeof StoredNote>[]): void {
    this.#notes = new Map(notes.map((entry) => [entry.call_id, entry.note]));
  }

  /** Runs `task` alone: after this process's earlier changes, holding the profile's lock. */
  #alone<T>(task: () => Promise<T>): Promise<T> {
    const run = this.#queue.then(() => this.#lock.hold(task));
    this.#queue = run.catch(() => undefined);
    return run;
  }
}

/** The call notes of the profile in `dataDir`, shared by its processes. */
export function profileCallNotes(dataDir: string, log: Logger): CallNotes {
  return new CallNotes({
    file: profileStateFile(
      join(dataDir, 'call-notes.json'),
      CallNotesFile,
      log,
      'call notes',
      MAX_NOTES_FILE_BYTES,
    ),
    lock: profileSessionLock(dataDir, {
      log,
      name: 'call-notes.lock',
      holding: said('errors:lock.savingNote'),
      staleMs: 5_000,
      waitMs: 10_000,
    }),
  });
}

/** Notes of this process only (unit tests). */
export function memoryCallNotes(): CallNotes {
  return new CallNotes({ file: memoryStateFile(), lock: processOnlyLock });
}
