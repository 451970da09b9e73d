/**
 * "Your session ended" survives the process that found out. After the platform refuses the refresh
 * token (invalid_grant) the keychain entry is wiped; without a trace, the next process would say
 * "not connected yet", as on first run. This small file in the profile (no secret in it: who, which
 * platform, when) makes every process report `needs-activation` until the user connects again or
 * forgets the session.
 */
import { readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import { writeFileAtomic } from '../config/atomic-write';
import type { Logger } from '../log/logger';

export const SessionEnded = z.object({
  tenant_id: z.string(),
  user_extension: z.string(),
  base_url: z.string(),
  /** ISO 8601. */
  ended_at: z.string(),
});
export type SessionEnded = z.infer<typeof SessionEnded>;

/** Where the marker is kept. */
export interface SessionEndedMarker {
  /** The marker, or undefined when there is none (an unreadable one counts as none). */
  read(): Promise<SessionEnded | undefined>;
  write(ended: SessionEnded): Promise<void>;
  clear(): Promise<void>;
}

/** The marker in memory only (unit tests; one process). */
export function memoryEndedMarker(): SessionEndedMarker {
  let marker: SessionEnded | undefined;
  return {
    read: () => Promise.resolve(marker),
    write: (ended) => {
      marker = ended;
      return Promise.resolve();
    },
    clear: () => {
      marker = undefined;
      return Promise.resolve();
    },
  };
}

/** The marker file `session-ended.json` of the profile in `dataDir`, written atomically. */
export function profileEndedMarker(dataDir: string, log: Logger): SessionEndedMarker {
  const file = join(dataDir, 'session-ended.json');
  return {
    async read() {
      let text: string;
      try {
        text = await readFile(file, 'utf8');
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'ENOENT') {
          log.warn('could not read the session-ended marker', { error });
        }
        return undefined;
      }
      try {
        return SessionEnded.parse(JSON.parse(text));
      } catch {
        log.warn('ignoring a malformed session-ended marker');
        return undefined;
      }
    },
    write: (ended) =>
      writeFileAtomic(file, JSON.stringify(SessionEnded.parse(ended)) + '\n', {
        mode: 0o600,
        dirMode: 0o700,
      }),
    clear: () => rm(file, { force: true }),
  };
}
