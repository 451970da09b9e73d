/**
 * The web preview's stand-in for the desktop shell's global dial shortcut (a browser tab has
 * none): presses arrive on a stream, one JSON line each, {"shortcut":"dial","clipboard":"…"}.
 * Never part of a packaged app.
 */
import { createInterface } from 'node:readline';
import type { Readable } from 'node:stream';
import { z } from 'zod';
import type { Logger } from '../core/log/logger';

const ShortcutPress = z
  .object({ shortcut: z.literal('dial'), clipboard: z.string().max(64 * 1024) })
  .strict();

/** Calls `press` with the clipboard's text for every well-formed line; others are logged. */
export function readShortcutPresses(
  input: Readable,
  log: Logger,
  press: (clipboard: string) => Promise<void>,
): void {
  const lines = createInterface({ input });
  lines.on('line', (line) => {
    let parsed;
    try {
      parsed = ShortcutPress.safeParse(JSON.parse(line));
    } catch {
      parsed = undefined;
    }
    if (!parsed?.success) {
      log.warn('preview: ignored a shortcut line that is not {"shortcut":"dial","clipboard":…}');
      return;
    }
    press(parsed.data.clipboard).catch((error: unknown) =>
      log.error('preview: the dial shortcut failed', { error }),
    );
  });
}
