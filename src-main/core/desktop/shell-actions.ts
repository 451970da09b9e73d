/**
 * What the shell does for a tel: link, "Dial clipboard" and the global shortcut, decided through
 * the core's router (the same channels the window uses), so the shell never touches the calls
 * module itself. The shell only shows what these return, worded by `t` (the `shell` catalog;
 * English unless the shell gives another language).
 */
import type { DialTarget, FocusSearchEvent, ResponseOf } from '../../../src-shared/contract';
import type { Router } from '../ipc/router';
import { isolatedName, isolatedNumber } from '../text/isolated-text';
import type { Translate } from '../text/said';
import { englishFor, sayAgain } from '../text/translators';
import { MAX_LINK_LENGTH } from './launch-link';
import type { DoorAnswer } from './link-door-format';

type RouterLike = Pick<Router, 'invoke'>;

export interface ShellNotice {
  title: string;
  body: string;
}

export interface LinkPlan {
  /** Bring the window up (the renderer shows the confirmation for a pending dial). */
  showWindow: boolean;
  notice?: ShellNotice;
  /** What the program that handed the link over is told (through the link door). */
  answer: DoorAnswer;
}

/**
 * Hands a link from the OS or another program (the link door) to `calls.openUrl` and says what
 * the person should see.
 */
export async function openDialLink(
  router: RouterLike,
  url: string,
  t: Translate = englishFor('shell'),
): Promise<LinkPlan> {
  const result = await router.invoke('calls.openUrl', { url });
  if (!result.ok) {
    const { code, message } = result.error;
    return {
      showWindow: false,
      notice: { title: t('actions.linkFailedTitle'), body: message },
      answer: { ok: false, error: { code, message: message.slice(0, 1000) } },
    };
  }
  const outcome = result.value as ResponseOf<'calls.openUrl'>;
  const asking = outcome.status === 'needs-confirmation';
  const display = (asking ? outcome.pending.target : outcome.target).display;
  return {
    showWindow: asking,
    answer: { ok: true, status: asking ? 'asking' : 'dialing', display: display.slice(0, 200) },
  };
}

/** The clipboard's first non-empty line, if it is short enough to be a number worth parsing. */
export function clipboardCandidate(text: string): string | undefined {
  const line = text
    .split(/\r?\n/)
    .map((part) => part.trim())
    .find((part) => part.length > 0);
  return line !== undefined && line.length <= MAX_LINK_LENGTH ? line : undefined;
}

export type ClipboardPlan =
  | { kind: 'confirm'; target: DialTarget; message: string; detail: string }
  | { kind: 'error'; notice: ShellNotice };

/**
 * Parses the clipboard with the calls module; a number is confirmed before it is dialed, with
 * what it is and the exact digits dialled, as the window's confirmation shows them.
 */
export async function planClipboardDial(
  router: RouterLike,
  text: string,
  t: Translate = englishFor('shell'),
): Promise<ClipboardPlan> {
  const title = t('actions.nothingToDialTitle');
  const input = clipboardCandidate(text);
  if (input === undefined) {
    return { kind: 'error', notice: { title, body: t('actions.nothingToDialBody') } };
  }
  const result = await router.invoke('calls.parse', { input });
  if (!result.ok) return { kind: 'error', notice: { title, body: result.error.message } };
  const target = result.value as ResponseOf<'calls.parse'>;
  const who = target.contact
    ? t('actions.confirmWho', { name: isolatedName(target.contact.display_name) })
    : '';
  return {
    kind: 'confirm',
    target,
    message: t('actions.confirmMessage', { number: isolatedNumber(target.display) }),
    detail: [
      t('actions.confirmDials', {
        who,
        description: sayAgain(t, target.description),
        digits: isolatedNumber(target.e164 ?? target.destination),
      }),
      ...(target.note ? [sayAgain(t, target.note)] : []),
      t('actions.confirmCopied'),
    ].join('\n'),
  };
}

/** Dials a confirmed target from the tray; a failure becomes a notice. */
export async function dialFromTray(
  router: RouterLike,
  destination: string,
  t: Translate = englishFor('shell'),
): Promise<ShellNotice | undefined> {
  const result = await router.invoke('calls.dial', { target: destination, source: 'tray' });
  return result.ok
    ? undefined
    : { title: t('actions.dialFailedTitle'), body: result.error.message };
}

/**
 * What the search box is prefilled with when the global shortcut opens the window: the number on
 * the clipboard when it parses as one, else nothing.
 */
export async function searchPrefill(router: RouterLike, clipboard: string): Promise<string> {
  const input = clipboardCandidate(clipboard);
  if (input === undefined) return '';
  const result = await router.invoke('calls.parse', { input });
  return result.ok ? (result.value as ResponseOf<'calls.parse'>).display : '';
}

/**
 * The global dial shortcut's event for the window it brings up: focus the search box, prefilled
 * with the clipboard's number when it parses (the desktop shell sends it to the main window; the
 * web preview, which has no global shortcut, takes presses on its standard input).
 */
export async function focusSearchEvent(
  router: RouterLike,
  clipboard: string,
): Promise<FocusSearchEvent> {
  return { type: 'app.focusSearch', query: await searchPrefill(router, clipboard) };
}
