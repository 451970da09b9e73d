/**
 * The main window's remembered position and size (`<dataDir>/window-state.json`). State, not a
 * setting: it is written when the window moves, atomically, and a missing, unreadable or invalid
 * file simply means "centred at the default size". A remembered position on a screen that is no
 * longer attached is not used, so the window never opens off-screen. Its own format, version 1
 * (files from before versions had the same content); a newer version also means "default".
 */
import { join } from 'node:path';
import { z } from 'zod';
import { writeFileAtomic } from '../files/atomic-write';
import { fileFormat } from '../config/file-format';
import { readFileNoFollowSync } from '../files/no-follow-file';
import type { WindowBounds } from './window-security';

const WindowState = z.object({
  x: z.int().min(-100_000).max(100_000),
  y: z.int().min(-100_000).max(100_000),
  width: z.int().min(100).max(20_000),
  height: z.int().min(100).max(20_000),
});

/** `window-state.json`, version 1. */
export const WindowStateFile = fileFormat({
  version: 1,
  content: WindowState,
});

export const WINDOW_STATE_FILE = 'window-state.json';

export function loadWindowBounds(dataDir: string): WindowBounds | undefined {
  try {
    return WindowStateFile.parse(
      JSON.parse(readFileNoFollowSync(join(dataDir, WINDOW_STATE_FILE), 4096) ?? 'null'),
    );
  } catch {
    return undefined;
  }
}

export async function saveWindowBounds(dataDir: string, bounds: WindowBounds): Promise<void> {
  const checked = WindowStateFile.serialize({
    x: Math.round(bounds.x),
    y: Math.round(bounds.y),
    width: Math.round(bounds.width),
    height: Math.round(bounds.height),
  });
  await writeFileAtomic(join(dataDir, WINDOW_STATE_FILE), JSON.stringify(checked) + '\n', {
    mode: 0o600,
    dirMode: 0o700,
  });
}

/** How much of the window's title bar must be on a screen for the position to be kept. */
const MIN_VISIBLE = 48;

/**
 * `saved` when at least a grip of its top edge lies on one of the screens' work areas, else
 * undefined (the caller then centres the window).
 */
export function visibleBounds(
  saved: WindowBounds | undefined,
  workAreas: readonly WindowBounds[],
): WindowBounds | undefined {
  if (!saved) return undefined;
  const onScreen = workAreas.some((area) => {
    const overlap =
      Math.min(saved.x + saved.width, area.x + area.width) - Math.max(saved.x, area.x);
    const topInside = saved.y >= area.y && saved.y <= area.y + area.height - MIN_VISIBLE;
    return overlap >= MIN_VISIBLE && topInside;
  });
  return onScreen ? saved : undefined;
}
