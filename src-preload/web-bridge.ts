/**
 * The web preview's stand-in for the preload: the same `window.callbar`, carried over HTTP to the
 * preview server (same origin, authenticated by the session cookie the server set) with events
 * over server-sent events. Served only by the preview, never part of a packaged app.
 */
import { buildApi } from './api';
import { CallbarEvent } from './contract';

const listeners = new Set<(event: CallbarEvent) => void>();
let source: EventSource | undefined;

function ensureEventSource(): void {
  if (source) return;
  source = new EventSource('/__callbar/events');
  source.onmessage = (message: MessageEvent<string>) => {
    const parsed = CallbarEvent.safeParse(JSON.parse(message.data));
    if (!parsed.success) return;
    for (const listener of listeners) listener(parsed.data);
  };
}

window.callbar = buildApi({
  invoke: async (channel, request) => {
    const response = await fetch(`/__callbar/invoke/${encodeURIComponent(channel)}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(request),
      credentials: 'same-origin',
    });
    if (!response.ok) throw new Error(`preview server answered ${response.status}`);
    return (await response.json()) as unknown;
  },
  subscribe: (listener) => {
    listeners.add(listener);
    ensureEventSource();
    return () => {
      listeners.delete(listener);
    };
  },
});
