/**
 * Reading the relay's stream of server-sent events: the events of a body as the WHATWG parser
 * splits them (bounded lines), a watchdog for a connection that went silent, and the pause
 * between reconnections that leaves no listener behind (relay-link.ts uses all three).
 */

export function pause(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const onAbort = () => {
      clearTimeout(timer);
      resolve();
    };
    // A pause that ran its course takes its listener off the stream's signal (one per pause
    // would pile up over a week of reconnections).
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

/** How long a stream may stay silent (no message, no keep-alive) before it counts as broken. */
export const RELAY_IDLE_TIMEOUT_MS = 60_000;

/**
 * Calls `onSilent` when `heard` was not called for `ms`: a connection that died without a word
 * (a laptop that slept, a network that changed, a proxy that dropped it) sends nothing, and its
 * read would otherwise wait forever. The relay sends a keep-alive every 15 s by default.
 */
export class SilenceWatchdog {
  readonly #ms: number;
  readonly #onSilent: () => void;
  #timer: NodeJS.Timeout | undefined;

  constructor(ms: number, onSilent: () => void) {
    this.#ms = ms;
    this.#onSilent = onSilent;
    this.heard();
  }

  /** Something arrived: the silence starts over. */
  readonly heard = (): void => {
    clearTimeout(this.#timer);
    this.#timer = setTimeout(this.#onSilent, this.#ms);
    this.#timer.unref();
  };

  stop(): void {
    clearTimeout(this.#timer);
    this.#timer = undefined;
  }
}

/** The longest line a relay may send (a message is a few KiB at most). */
const MAX_LINE_CHARS = 64 * 1024;

/** The events of a server-sent-event body (id, event, data), as the WHATWG parser splits them. */
export async function* serverSentEvents(
  body: ReadableStream<Uint8Array>,
  signal: AbortSignal,
  heard: () => void,
): AsyncGenerator<{ id: string | undefined; event: string; data: string }> {
  const decoder = new TextDecoder();
  let buffer = '';
  let id: string | undefined;
  let event = 'message';
  let data: string[] = [];
  const reader = body.getReader();
  // Cancelling the body is what frees the connection (aborting the request alone may not).
  const cancel = () => void reader.cancel().catch(() => undefined);
  if (signal.aborted) cancel();
  signal.addEventListener('abort', cancel, { once: true });
  for (;;) {
    const { done, value: chunk } = await reader.read();
    if (done) break;
    heard();
    buffer += decoder.decode(chunk, { stream: true });
    if (buffer.length > MAX_LINE_CHARS && !buffer.includes('\n')) {
      throw new Error('the relay sent an over-long line');
    }
    let newline: number;
    while ((newline = buffer.indexOf('\n')) >= 0) {
      const line = buffer.slice(0, newline).replace(/\r$/, '');
      buffer = buffer.slice(newline + 1);
      if (line === '') {
        if (data.length > 0 || event !== 'message') yield { id, event, data: data.join('\n') };
        event = 'message';
        data = [];
        continue;
      }
      if (line.startsWith(':')) continue;
      const colon = line.indexOf(':');
      const field = colon < 0 ? line : line.slice(0, colon);
      const value = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
      if (field === 'id') id = value;
      else if (field === 'event') event = value;
      else if (field === 'data') data.push(value);
    }
  }
}
