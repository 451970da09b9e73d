/**
 * This installation's random id (`update-id.json` in the profile folder), made on first use and
 * kept: it gives the computer its stable place in a staged rollout (update-decision.ts). Not a
 * secret and never sent anywhere; a missing or unreadable file is replaced by a new id (the
 * computer just draws a new place).
 */
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { z } from 'zod';
import { fileFormat } from '../config/file-format';
import { profileStateFile } from '../config/state-file';
import type { Logger } from '../log/logger';

/** The file's format, version 1 (the first: no older shape). */
export const InstallationIdFile = fileFormat({
  version: 1,
  content: z.strictObject({ id: z.uuid() }),
});

export const INSTALLATION_ID_FILE = 'update-id.json';

/** The profile's installation id, made and stored when there is none yet. */
export async function installationId(dataDir: string, log: Logger): Promise<string> {
  const file = profileStateFile(
    join(dataDir, INSTALLATION_ID_FILE),
    InstallationIdFile,
    log,
    'update id file',
  );
  const stored = await file.read();
  if (stored) return stored.id;
  const id = randomUUID();
  await file.write({ id });
  return id;
}
