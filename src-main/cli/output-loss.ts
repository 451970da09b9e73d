/**
 * When the CLI's stdout stops taking output: its reader went away (`callbar contacts list | head
 * -1`, `… | false`: EPIPE), or it cannot take more (`> /dev/full`, a full disk: ENOSPC; EIO). Node
 * reports a failed write as an `error` event on the stream, and one nobody listens to ends the
 * process with a stack trace and exit 1, wherever it stands (a session write in flight included).
 *
 * Here a lost reader ends the command quietly, as SIGPIPE ends a C program: exit 141 (128 + 13),
 * nothing on stderr. A stdout that cannot take more says so in one line on stderr and exits 1.
 * Either way the command stops the way a first Ctrl+C stops it (the session write in flight is
 * finished first, an unfinished `--output` file is removed), through `end`. A failed write to
 * stderr ends nothing: there is nowhere left to say anything, and the command's result still
 * matters.
 */
import { ExitCode } from './cli-io';

/** The exit code of a command whose stdout's reader went away (128 + SIGPIPE). */
export const OUTPUT_CLOSED_EXIT = 141;

export interface OutputWatch {
  /** How a lost output ends the process from now on (by default: at once, nothing being open). */
  endWith(end: (exitCode: number) => void): void;
  /** The exit code the lost output stands for, once it was lost. */
  readonly lostWith: number | undefined;
}

/**
 * Watches the process's stdout (and stderr) for failed writes, for as long as the process runs.
 * `say` tells why the output could not be written (never for a reader that went away).
 */
export function watchProcessOutput(say: (code: string) => void): OutputWatch {
  let end = (exitCode: number): void => process.exit(exitCode);
  let lostWith: number | undefined;
  process.stdout.on('error', (error: NodeJS.ErrnoException) => {
    // Every write after the first failed one fails too: the first one decides.
    if (lostWith !== undefined) return;
    const closed = error.code === 'EPIPE' || error.code === 'ERR_STREAM_DESTROYED';
    lostWith = closed ? OUTPUT_CLOSED_EXIT : ExitCode.failed;
    if (!closed) say(error.code ?? error.message);
    end(lostWith);
  });
  process.stderr.on('error', () => undefined);
  return {
    endWith(next) {
      end = next;
    },
    get lostWith() {
      return lostWith;
    },
  };
}
