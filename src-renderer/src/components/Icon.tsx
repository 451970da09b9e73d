/**
 * The window's few icons, drawn as strokes in the text's colour (currentColor), so they follow
 * the theme and forced colours. Always beside words that say the same (never the only name of a
 * control), so they are hidden from screen readers.
 */
const PATHS = {
  /** A handset. */
  phone:
    'M5 4h3l1.5 4-2 1.3a10 10 0 0 0 5.2 5.2L14 12.5l4 1.5v3a2 2 0 0 1-2 2A14 14 0 0 1 3 6a2 2 0 0 1 2-2z',
  /** A handset hung up (on its side). */
  hangUp: 'M3 13.5c5-4.6 13-4.6 18 0l-2.2 2.7-3.3-1.4v-2.6a11 11 0 0 0-7 0v2.6l-3.3 1.4z',
  /** Ringing: a handset with waves. */
  ringing:
    'M5 4h3l1.5 4-2 1.3a10 10 0 0 0 5.2 5.2L14 12.5l4 1.5v3a2 2 0 0 1-2 2A14 14 0 0 1 3 6a2 2 0 0 1 2-2zM14.5 3.5a6 6 0 0 1 6 6M14.5 7a2.5 2.5 0 0 1 2.5 2.5',
  /** An arrow into a handset (a call to you). */
  incoming:
    'M5 4h3l1.5 4-2 1.3a10 10 0 0 0 5.2 5.2L14 12.5l4 1.5v3a2 2 0 0 1-2 2A14 14 0 0 1 3 6a2 2 0 0 1 2-2zM21 3l-6 6M15 4v5h5',
  /** Connected: a steady dot in a ring. */
  live: 'M12 7a5 5 0 1 1 0 10 5 5 0 0 1 0-10zM12 3a9 9 0 1 1 0 18 9 9 0 0 1 0-18z',
  /** Over: a check. */
  done: 'M5 12.5l4.5 4.5L19 7.5',
  /** Failed: a cross in a circle. */
  failed: 'M12 3a9 9 0 1 1 0 18 9 9 0 0 1 0-18zM9 9l6 6M15 9l-6 6',
  /** An hourglass (waiting for the platform). */
  waiting: 'M7 3h10M7 21h10M8 3c0 5 8 5 8 9s-8 4-8 9M16 3c0 5-8 5-8 9s8 4 8 9',
  /** Information. */
  info: 'M12 3a9 9 0 1 1 0 18 9 9 0 0 1 0-18zM12 11v6M12 7.5v.5',
  /** Back (points to the start of the line; mirrored right to left). */
  back: 'M15 5l-7 7 7 7',
  /** More actions. */
  more: 'M5 12h.01M12 12h.01M19 12h.01',
  /** People: a shared phonebook. */
  shared:
    'M9 11a3.5 3.5 0 1 0 0-7 3.5 3.5 0 0 0 0 7zM2.5 20a6.5 6.5 0 0 1 13 0M16 4.5a3.5 3.5 0 0 1 0 6.5M18 14a6.5 6.5 0 0 1 3.5 6',
  /** One person: a personal phonebook. */
  personal: 'M12 11a4 4 0 1 0 0-8 4 4 0 0 0 0 8zM4.5 21a7.5 7.5 0 0 1 15 0',
  /** A file going up (import). */
  upload: 'M12 15V4M7 9l5-5 5 5M4 15v4a1 1 0 0 0 1 1h14a1 1 0 0 0 1-1v-4',
  /** Close. */
  close: 'M6 6l12 12M18 6L6 18',
} as const;

export type IconName = keyof typeof PATHS;

export function Icon({ name, className }: { name: IconName; className?: string }) {
  return (
    <svg
      className={className ? `icon ${className}` : 'icon'}
      data-icon={name}
      viewBox="0 0 24 24"
      width="1em"
      height="1em"
      fill="none"
      stroke="currentColor"
      strokeWidth="2"
      strokeLinecap="round"
      strokeLinejoin="round"
      aria-hidden="true"
      focusable="false"
    >
      <path d={PATHS[name]} />
    </svg>
  );
}
