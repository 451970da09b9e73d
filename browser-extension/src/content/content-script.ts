/**
 * Callbar's content script, in every frame of every page: asks the background for the user's
 * region and words (Callbar's, through the native host), marks the numbers it finds (page-scanner.ts)
 * and sends a dial when the person clicks one, or presses Enter or Space on it, or clicks one of
 * the page's own tel:/callto: links. Only a real person's action counts (`isTrusted`): a page
 * script's synthetic click or key press does nothing. The page learns nothing back: Callbar's
 * answer goes to a notification, never into the page.
 */
import { api, MAX_LINK, type ContentRequest, type PageStatus } from '../extension-api';
import { markedLinks } from './number-marks';
import { PageScanner } from './page-scanner';
import { MARK_ATTRIBUTE } from './text-walk';

const DIAL_LINK = /^(tel|callto):/i;

/** The link a click on `target` dials: a marked number's, or the page's own tel:/callto: link. */
function linkAt(target: EventTarget | null): string | undefined {
  if (!(target instanceof Element)) return undefined;
  const mark = target.closest(`[${MARK_ATTRIBUTE}]`);
  // A mark the page made itself is not in markedLinks: it dials nothing.
  if (mark) return markedLinks.get(mark);
  const href = target.closest('a[href]')?.getAttribute('href')?.trim();
  return href && DIAL_LINK.test(href) && href.length <= MAX_LINK ? href : undefined;
}

function dial(event: Event, link: string): void {
  event.preventDefault();
  event.stopImmediatePropagation();
  const request: ContentRequest = { type: 'dial', link };
  void api.runtime.sendMessage(request).catch(() => undefined);
}

function onClick(event: MouseEvent): void {
  if (!event.isTrusted || event.button !== 0) return;
  const link = linkAt(event.target);
  if (link) dial(event, link);
}

function onKeyDown(event: KeyboardEvent): void {
  if (!event.isTrusted || (event.key !== 'Enter' && event.key !== ' ')) return;
  // Keys only for the marks: a link's Enter arrives as a (trusted) click.
  const target = event.target;
  const link = target instanceof Element ? markedLinks.get(target) : undefined;
  if (link) dial(event, link);
}

/** Callbar's own window (the web preview in a tab): its numbers are Callbar's already. */
const isCallbarWindow = () =>
  document.querySelector('meta[name="application-name"][content="Callbar"]') !== null;

async function start(): Promise<void> {
  if (isCallbarWindow()) return;
  const request: ContentRequest = { type: 'status' };
  const status = (await api.runtime.sendMessage(request).catch(() => undefined)) as
    | PageStatus
    | undefined;
  // Callbar is not there for this browser: the page stays as it is, its links the OS's.
  if (!status?.ok) return;
  document.addEventListener('click', onClick, true);
  document.addEventListener('keydown', onKeyDown, true);
  const scanner = new PageScanner({ region: status.region, label: status.label });
  const root = document.body ?? document.documentElement;
  scanner.add(root);
  scanner.observe(root);
}

void start();
