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
 * Saves one stream's offset in the profile's file after each message it handled, unless the file
 * is already past it: every process of the profile streams the same queue, and one behind the
 * others (a CLI command still reading its backlog while the app is live, then closed) would
 * otherwise move the file back, and the profile's next process would handle again what was
 * handled.
 *
 * The file is read once per chunk the stream brings (`heard`), not before each message: a backlog
 * of a hundred messages came in a few chunks and was a hundred reads of the file, each also
 * parsed and checked. Within a chunk, what was read or written last is taken for the file's
 * content; another process's write at that moment may then be crossed (last writer wins), as two
 * writes at the same moment always could, and the file lags by those few messages only.
 */
export class CursorSaver {
  readonly #file: StateFile<RelayCursor>;
  readonly #deviceId: string;
  /** The file's offset as this stream last read or wrote it (undefined: none, or another's). */
  #known: string | undefined;
  /** Whether `#known` was read since the stream's last chunk. */
  #fresh = false;

  constructor(file: StateFile<RelayCursor>, deviceId: string) {
    this.#file = file;
    this.#deviceId = deviceId;
  }

  /** The stream brought a chunk: the file is read again before the next save. */
  readonly heard = (): void => {
    this.#fresh = false;
  };

  /** Saves `offset` as handled, unless the file is past it. */
  async save(offset: string): Promise<void> {
    if (!this.#fresh) {
      const saved = await this.#file.read();
      this.#known = saved?.device_id === this.#deviceId ? saved.offset : undefined;
      this.#fresh = true;
    }
    if (this.#known !== undefined && laterOffset(this.#known, offset) !== offset) return;
    await this.#file.write({ device_id: this.#deviceId, offset });
    this.#known = offset;
  }
}
