/**
 * A light device for the relay bench: one device's stream (`GET /device/stream`, Bearer
 * credential, Last-Event-ID) read as raw server-sent-event lines over node:http, standing in for
 * a desktop on another machine. It does what Callbar's RelayLink does on the wire, and only that:
 * it hands each message's id to the caller, resumes from the last offset it got (never behind
 * it), moves to the next address at once on the relay's `event: reconnect` hint, and after a
 * refusal, a broken or an ended stream moves to the next address after a jittered pause that
 * grows with each failure in a row (RetryDelay, as RelayLink); `event: ready` says its backlog was
 * served, and a 401 ends it for good. Ten thousand of them share this process with the platform's
 * POSTs: RelayLink's fetch, web streams, zod checks and cursor file per message cost this process
 * more CPU per event than both relay nodes together, so the bench measured itself.
 */
import { request, type ClientRequest } from 'node:http';
import { RetryDelay } from '../../src-main/core/http/retry-delay';
import { DEVICE_PATHS } from '../../src-main/core/relay/relay-protocol';

export interface LightStream {
  /** Once a stream served its backlog (`event: ready`), or the device was refused for good. */
  readonly ready: Promise<void>;
  close(): void;
}

/** The longest line a relay may send (RelayLink's bound). */
const MAX_LINE_CHARS = 64 * 1024;

/** The later of two stream offsets (`ms-seq`). */
const later = (a: string, b: string) => {
  const [aMs = 0, aSeq = 0] = a.split('-').map(Number);
  const [bMs = 0, bSeq = 0] = b.split('-').map(Number);
  return aMs > bMs || (aMs === bMs && aSeq >= bSeq) ? a : b;
};

/** A message's JSON; undefined when it is not JSON (RelayLink skips it too). */
function parsed(data: string): { type?: unknown; event?: { id?: unknown } } | undefined {
  try {
    return JSON.parse(data) as { type?: unknown; event?: { id?: unknown } };
  } catch {
    return undefined;
  }
}

export function lightStream(options: {
  /** The relay's addresses, tried in turn. */
  urls: string[];
  credential: string;
  /** Longest pause between reconnections (ms). */
  maxBackoffMs: number;
  /** A call event's id arrived (every arrival, repeats too). */
  onEvent: (id: string) => void;
}): LightStream {
  let current = 0;
  let offset = '0-0';
  let closed = false;
  let active: ClientRequest | undefined;
  let timer: NodeJS.Timeout | undefined;
  let markReady: () => void = () => undefined;
  const ready = new Promise<void>((resolve) => (markReady = resolve));
  const delay = new RetryDelay({ maxMs: options.maxBackoffMs });

  /** This stream is over: `moveOn` at once (the reconnect hint), else after a pause. */
  const again = (moveOn: boolean) => {
    active = undefined;
    if (closed) return;
    current = (current + 1) % options.urls.length;
    if (moveOn) open();
    else timer = setTimeout(open, delay.next());
  };

  const open = () => {
    timer = undefined;
    if (closed) return;
    const url = new URL(DEVICE_PATHS.stream, options.urls[current]);
    let over = false;
    const finish = (moveOn: boolean) => {
      if (over) return;
      over = true;
      again(moveOn);
    };
    const req = request(url, {
      agent: false,
      headers: { authorization: `Bearer ${options.credential}`, 'last-event-id': offset },
    });
    active = req;
    req.on('error', () => finish(false));
    req.on('response', (response) => {
      if (response.statusCode === 401) {
        over = true;
        closed = true;
        markReady();
        response.destroy();
        return;
      }
      if (response.statusCode !== 200) {
        response.resume();
        response.on('end', () => finish(false));
        return;
      }
      response.setEncoding('utf8');
      let buffer = '';
      let id: string | undefined;
      let event = 'message';
      let data = '';
      response.on('data', (chunk: string) => {
        buffer += chunk;
        let start = 0;
        let newline: number;
        while ((newline = buffer.indexOf('\n', start)) >= 0) {
          let end = newline;
          if (end > start && buffer.charCodeAt(end - 1) === 13) end -= 1;
          const line = buffer.slice(start, end);
          start = newline + 1;
          if (line === '') {
            if (event === 'reconnect') {
              response.destroy();
              finish(true);
              return;
            }
            if (event === 'ready') {
              delay.reset();
              markReady();
            } else if (data !== '') {
              const message = parsed(data);
              if (message?.type === 'event' && typeof message.event?.id === 'string') {
                options.onEvent(message.event.id);
              }
              if (id !== undefined) offset = later(offset, id);
            }
            event = 'message';
            data = '';
            continue;
          }
          if (line.charCodeAt(0) === 58) continue; // ':' a comment (keep-alive)
          const colon = line.indexOf(':');
          const field = colon < 0 ? line : line.slice(0, colon);
          let value = colon < 0 ? '' : line.slice(colon + 1);
          if (value.charCodeAt(0) === 32) value = value.slice(1);
          if (field === 'id') id = value;
          else if (field === 'event') event = value;
          else if (field === 'data') data = data === '' ? value : `${data}\n${value}`;
        }
        buffer = buffer.slice(start);
        if (buffer.length > MAX_LINE_CHARS) response.destroy(new Error('over-long line'));
      });
      response.on('error', () => finish(false));
      response.on('close', () => finish(false));
    });
    req.end();
  };

  open();
  return {
    ready,
    close: () => {
      closed = true;
      clearTimeout(timer);
      active?.destroy();
    },
  };
}
