/**
 * Ctrl+C (SIGINT), `kill` (SIGTERM) and a closed terminal (SIGHUP) for the processes Callbar runs
 * under plain Node: the `callbar` CLI and the web preview. (Electron turns these signals into
 * app.quit(), whose will-quit awaits core.close() the same way.)
 *
 * Without this a signal ends the process where it stands, like kill -9: when it lands after the
 * platform rotated the token pair and before the keychain holds the new one, the session is gone.
 * With it, the first signal stops gracefully: what the process does is cancelled (a command's own
 * way of stopping, or `stop`), `stop` closes the profile, which waits for a session write in
 * flight (TokenManager.close, bounded), and only then the process exits, with 128 + the signal's
 * number as shells expect. While it waits it says so; a second signal exits at once.
 */

/** The exit code of a process ended by each signal, as a shell reports it (128 + its number). */
export const SIGNAL_EXIT_CODES = { SIGHUP: 129, SIGINT: 130, SIGTERM: 143 } as const;
export type StopSignal = keyof typeof SIGNAL_EXIT_CODES;

export const FINISHING_SAVE_NOTICE =
  'Finishing saving your session… press Ctrl+C again to quit now';

export interface StopSignalOptions {
  /**
   * Stops the process's work and closes its profile or core (which waits for the session write
   * in flight); the process exits when it settles. Not called while a `cancel` is registered.
   */
  stop: () => Promise<void>;
  /** Whether a session write is in flight (the notice is shown then). */
  saving: () => boolean;
  /** Shows a line to the person at the terminal (stderr). */
  say: (line: string) => void;
}

export interface StopSignals {
  /**
   * Lets the running work stop itself on the first signal (its own words), instead of `stop` and
   * the signal's exit code; the work then ends as usual. `cancel` gets the exit code the stop
   * stands for (130, 143, 129; 141 from {@link StopSignals.stopFor}). Returns the removal.
   */
  onSignal(cancel: (exitCode: number) => void): () => void;
  /**
   * Stops as a first signal does, for another reason (stdout's reader went away), with
   * `exitCode`; nothing once stopping. Nothing is said on the terminal.
   */
  stopFor(exitCode: number): void;
  /** Stops listening (the process's default for each signal applies again). */
  dispose(): void;
}

export function handleStopSignals(options: StopSignalOptions): StopSignals {
  const exit = (signal: StopSignal) => process.exit(SIGNAL_EXIT_CODES[signal]);
  const cancels = new Set<(exitCode: number) => void>();
  let stopping = false;

  const stop = (exitCode: number) => {
    stopping = true;
    if (cancels.size > 0) {
      for (const cancel of [...cancels]) cancel(exitCode);
      return;
    }
    void options
      .stop()
      .catch(() => undefined)
      .finally(() => process.exit(exitCode));
  };

  const listener = (signal: StopSignal) => {
    if (stopping) {
      // Asked twice: the person prefers quitting now to waiting.
      exit(signal);
      return;
    }
    if (signal === 'SIGHUP') {
      // The terminal is gone: writing to it fails, which must not end the process mid-write.
      for (const stream of [process.stdout, process.stderr]) stream.on('error', () => undefined);
    } else if (options.saving()) options.say(FINISHING_SAVE_NOTICE);
    stop(SIGNAL_EXIT_CODES[signal]);
  };
  const signals = Object.keys(SIGNAL_EXIT_CODES) as StopSignal[];
  for (const signal of signals) process.on(signal, listener);

  return {
    onSignal(cancel) {
      cancels.add(cancel);
      return () => void cancels.delete(cancel);
    },
    stopFor(exitCode) {
      if (!stopping) stop(exitCode);
    },
    dispose() {
      for (const signal of signals) process.off(signal, listener);
    },
  };
}
