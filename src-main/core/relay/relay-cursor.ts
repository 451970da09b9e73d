/**
 * Where the profile's relay stream stopped (`relay-cursor.json`, not secret: an offset of the
 * relay's queue for the device), shared by every process of the profile: the next CLI command
 * goes on where the app or the last command stopped.
 */
import { z } from 'zod';
import { fileFormat } from '../config/file-format';
import type { StateFile } from '../config/state-file';
import { StreamOffset } from './relay-protocol';

export const RelayCursor = z.object({ device_id: z.string(), offset: StreamOffset });

/** `relay-cursor.json`: version 1; files from before versions had the same content. */
export const RelayCursorFile = fileFormat({
  version: 1,
  content: RelayCursor,
});
export type RelayCursor = z.infer<typeof RelayCursor>;

/** The later of two stream offsets (`<ms>-<seq>`, StreamOffset), either possibly absent. */
export function laterOffset(a: string | undefined, b: string | undefined): string | undefined {
  if (a === undefined || b === undefined) return a ?? b;
  const [aMs, aSeq] = a.split('-').map(BigInt) as [bigint, bigint];
  const [bMs, bSeq] = b.split('-').map(BigInt) as [bigint, bigint];
  return aMs > bMs || (aMs === bMs && aSeq >= bSeq) ? a : b;
}

/**
 * Saves `reached` unless the profile's file is already past it: every process of the profile
 * streams the same queue, and one behind the others (a CLI command still reading its backlog
 * while the app is live, then closed) would otherwise move the file back, and the profile's next
 * process would handle again what was handled. Two writes at the same moment may still cross
 * (last writer wins); the file then lags by those few messages only.
 */
export async function advanceCursor(
  cursor: StateFile<RelayCursor>,
  reached: RelayCursor,
): Promise<void> {
  const saved = await cursor.read();
  const ahead =
    saved?.device_id === reached.device_id &&
    laterOffset(saved.offset, reached.offset) !== reached.offset;
  if (!ahead) await cursor.write(reached);
}
