/**
 * "Your session ended" survives the process that found out. After the platform refuses the refresh
 * token (invalid_grant) the keychain entry is wiped; without a trace, the next process would say
 * "not connected yet", as on first run. This small file in the profile (no secret in it: who, which
 * platform, when) makes every process report `needs-activation` until the user connects again or
 * forgets the session.
 */
import { join } from 'node:path';
import { z } from 'zod';
import { fileFormat } from '../config/file-format';
import { memoryStateFile, profileStateFile, type StateFile } from '../config/state-file';
import type { Logger } from '../log/logger';

export const SessionEnded = z.object({
  tenant_id: z.string(),
  user_extension: z.string(),
  base_url: z.string(),
  /** ISO 8601. */
  ended_at: z.string(),
});
export type SessionEnded = z.infer<typeof SessionEnded>;

/** `session-ended.json`: version 1; files from before versions had the same content. */
export const SessionEndedFile = fileFormat({
  version: 1,
  content: SessionEnded,
});

/** Where the marker is kept (read: undefined when there is none). */
export type SessionEndedMarker = StateFile<SessionEnded>;

/** The marker in memory only (unit tests; one process). */
export const memoryEndedMarker = (): SessionEndedMarker => memoryStateFile();

/** The marker file `session-ended.json` of the profile in `dataDir`, written atomically. */
export function profileEndedMarker(dataDir: string, log: Logger): SessionEndedMarker {
  return profileStateFile(
    join(dataDir, 'session-ended.json'),
    SessionEndedFile,
    log,
    'session-ended marker',
  );
}
