/**
 * The web preview's stand-in for the preload: the same `window.callbar`, its calls carried over
 * one WebSocket to the preview server (same origin; src-main/preview/request-channel.ts), as
 * Electron's IPC carries them over one channel, and events streamed from it. Served only by the
 * preview, never part of a packaged app.
 *
 * The session token arrives in the address's fragment (`#token=…`, never sent to a server), moves
 * into this tab's sessionStorage and out of the address bar, and goes with the WebSocket's
 * handshake as a subprotocol (`callbar-session.<token>`) and with every HTTP request (the event
 * stream; a call when the socket cannot open) as the `X-Callbar-Session` header: bound to this
 * page's origin (port included), unlike a cookie.
 */
import { buildApi } from './api';
import { CallbarEvent } from '../src-shared/contract';

const SESSION_HEADER = 'X-Callbar-Session';
const CHANNEL_PATH = '/__callbar/channel';
const CHANNEL_PROTOCOL = 'callbar.v1';
const SESSION_PROTOCOL_PREFIX = 'callbar-session.';
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

/** A call over HTTP: one POST (when the channel cannot open). */
async function invokeOverHttp(channel: string, body: unknown): Promise<unknown> {
  const response = await request(`/__callbar/invoke/${encodeURIComponent(channel)}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return (await response.json()) as unknown;
}

interface Waiting {
  resolve(result: unknown): void;
  reject(error: Error): void;
}

let socket: Promise<WebSocket> | undefined;
let lastId = 0;
const waiting = new Map<number, Waiting>();
/** The server's bound on requests under way on one socket (CHANNEL_LIMITS.maxInFlight). */
const MAX_IN_FLIGHT = 16;
/** Calls waiting for one of those places (the server closes a socket that asks for more). */
const waitingForPlace: (() => void)[] = [];

/** The open channel, opened on first use and again after it closed. */
function openChannel(token: string): Promise<WebSocket> {
  socket ??= new Promise<WebSocket>((opened, failed) => {
    const url = `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}${CHANNEL_PATH}`;
    const ws = new WebSocket(url, [CHANNEL_PROTOCOL, SESSION_PROTOCOL_PREFIX + token]);
    ws.onopen = () => opened(ws);
    ws.onmessage = (event: MessageEvent<string>) => {
      const answer = JSON.parse(event.data) as { id: number; result: unknown };
      const call = waiting.get(answer.id);
      waiting.delete(answer.id);
      waitingForPlace.shift()?.();
      call?.resolve(answer.result);
    };
    ws.onclose = (event) => {
      socket = undefined;
      const error = new Error(event.reason || 'the preview channel closed');
      for (const call of waiting.values()) call.reject(error);
      waiting.clear();
      for (const place of waitingForPlace.splice(0)) place();
      failed(error);
    };
  });
  return socket;
}

/** A call over the channel; over HTTP when the channel cannot open. */
async function invoke(channel: string, body: unknown): Promise<unknown> {
  if (session === null) throw new Error(NO_SESSION);
  let ws: WebSocket;
  try {
    ws = await openChannel(session);
  } catch {
    return invokeOverHttp(channel, body);
  }
  while (waiting.size >= MAX_IN_FLIGHT && ws.readyState === WebSocket.OPEN) {
    await new Promise<void>((place) => waitingForPlace.push(place));
  }
  // Closed between opening and now: its waiting calls were failed; this one goes over HTTP.
  if (ws.readyState !== WebSocket.OPEN) return invokeOverHttp(channel, body);
  const id = ++lastId;
  return new Promise((resolve, reject) => {
    waiting.set(id, { resolve, reject });
    ws.send(JSON.stringify({ id, channel, body }));
  });
}

window.callbar = buildApi({
  invoke,
  subscribe: (listener) => {
    listeners.add(listener);
    ensureEventStream();
    return () => {
      listeners.delete(listener);
    };
  },
});
