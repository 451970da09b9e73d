/**
 * The web preview's stand-in for the preload: the same `window.callbar`, carried over HTTP to the
 * preview server (same origin) with events streamed from it. Served only by the preview, never
 * part of a packaged app.
 *
 * The session token arrives in the address's fragment (`#token=…`, never sent to a server), moves
 * into this tab's sessionStorage and out of the address bar, and goes with every request as the
 * `X-Callbar-Session` header: bound to this page's origin (port included), unlike a cookie.
 */
import { buildApi } from './api';
import { CallbarEvent } from '../src-shared/contract';

const SESSION_HEADER = 'X-Callbar-Session';
const STORAGE_KEY = 'callbar.preview.session';
const NO_SESSION =
  'Open the address printed by `npm run demo`: it carries the session token this page needs.';

function takeSessionToken(): string | null {
  const fragment = window.location.hash.slice(1);
  const fromAddress = new URLSearchParams(fragment).get('token');
  if (fromAddress) {
    sessionStorage.setItem(STORAGE_KEY, fromAddress);
    // The rest of the fragment is the renderer's (`#setup&token=…` opens the setup window's view).
    const rest = fragment
      .split('&')
      .filter((part) => !part.startsWith('token='))
      .join('&');
    const { pathname, search } = window.location;
    history.replaceState(null, '', pathname + search + (rest ? `#${rest}` : ''));
  }
  return sessionStorage.getItem(STORAGE_KEY);
}

const session = takeSessionToken();
if (session === null) {
  document.addEventListener('DOMContentLoaded', () => {
    const notice = document.createElement('p');
    notice.setAttribute('role', 'alert');
    notice.textContent = NO_SESSION;
    document.body.replaceChildren(notice);
  });
}

async function request(path: string, init: RequestInit = {}): Promise<Response> {
  if (session === null) throw new Error(NO_SESSION);
  const response = await fetch(path, {
    ...init,
    headers: { ...init.headers, [SESSION_HEADER]: session },
    credentials: 'omit',
  });
  if (!response.ok) throw new Error(`preview server answered ${response.status}`);
  return response;
}

const listeners = new Set<(event: CallbarEvent) => void>();
let streaming = false;

function deliver(data: string): void {
  const parsed = CallbarEvent.safeParse(JSON.parse(data));
  if (!parsed.success) return;
  for (const listener of listeners) listener(parsed.data);
}

/** Reads the server-sent event stream (fetch, because EventSource cannot send a header). */
async function streamEvents(): Promise<void> {
  const response = await request('/__callbar/events');
  const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = '';
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return;
    buffer += value;
    let end: number;
    while ((end = buffer.indexOf('\n\n')) >= 0) {
      const message = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      const data = message
        .split('\n')
        .filter((line) => line.startsWith('data: '))
        .map((line) => line.slice('data: '.length))
        .join('\n');
      if (data) deliver(data);
    }
  }
}

/** Keeps the stream open for the page's lifetime, reconnecting after a pause when it drops. */
function ensureEventStream(): void {
  if (streaming || session === null) return;
  streaming = true;
  const run = (): void => {
    streamEvents()
      .catch(() => undefined)
      .finally(() => setTimeout(run, 1000));
  };
  run();
}

window.callbar = buildApi({
  invoke: async (channel, body) => {
    const response = await request(`/__callbar/invoke/${encodeURIComponent(channel)}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    return (await response.json()) as unknown;
  },
  subscribe: (listener) => {
    listeners.add(listener);
    ensureEventStream();
    return () => {
      listeners.delete(listener);
    };
  },
});
