/**
 * The native messaging host's loop (`callbar native-host`, started by the browser for Callbar's
 * extension): reads framed requests from the browser, answers `status` and `dial` one at a time
 * in order, and nothing else. Bounded: a request over 4 KiB ends the host (the browser starts a
 * new one on the next connection); 30 requests at once, then 5 a second; dials 5 at once, then
 * one every 2 s; the rest are answered "busy" at once, never queued.
 */
import type { Readable, Writable } from 'node:stream';
import { TokenBucket, type Rate } from '../calls/token-bucket';
import type { Logger } from '../log/logger';
import type { Translate } from '../text/said';
import { HostRequest, type HostAnswer } from './host-protocol';
import { encodeMessage, MessageFramer } from './native-messaging';

const REQUEST_RATE: Rate = { burst: 30, perSecond: 5 };
const DIAL_RATE: Rate = { burst: 5, perSecond: 0.5 };

type StatusAnswer = Extract<HostAnswer, { type: 'status'; ok: true }>;
type DialAnswer = Extract<HostAnswer, { type: 'dial'; ok: true }>;
type Refusal = Extract<HostAnswer, { ok: false }>;

export interface HostServices {
  status(): Omit<StatusAnswer, 'id' | 'type' | 'ok'>;
  /** Opens the link as a link from another program (the running Callbar's, else this process's). */
  dial(link: string): Promise<Omit<DialAnswer, 'id' | 'type'> | Omit<Refusal, 'id' | 'type'>>;
}

export interface NativeHostOptions {
  input: Readable;
  output: Writable;
  services: HostServices;
  /** The host's own refusals (busy, unknown request), in the user's language (`cli` keys). */
  t: Translate;
  log: Logger;
  now?: () => number;
}

/** Serves until the browser closes the connection (or sends what ends it); how it ended. */
export function serveNativeHost(options: NativeHostOptions): Promise<'closed' | 'too-large'> {
  const { input, output, services, t, log } = options;
  const now = options.now ?? Date.now;
  const requests = new TokenBucket(REQUEST_RATE, now);
  const dials = new TokenBucket(DIAL_RATE, now);
  const framer = new MessageFramer();
  const send = (answer: HostAnswer): void => void output.write(encodeMessage(answer));
  const refuse = (id: number | null, type: Refusal['type'], code: string, key: string) =>
    send({ id, type, ok: false, code, message: t(key) });

  const answer = async (value: unknown) => {
    const parsed = HostRequest.safeParse(value);
    if (!parsed.success) {
      const id = (value as { id?: unknown } | null)?.id;
      return refuse(
        typeof id === 'number' ? id : null,
        'error',
        'unknown_request',
        'browser.unknownRequest',
      );
    }
    const request = parsed.data;
    if (!requests.take() || (request.type === 'dial' && !dials.take())) {
      return refuse(request.id, request.type, 'busy', 'browser.busy');
    }
    if (request.type === 'status') {
      return send({ id: request.id, type: 'status', ok: true, ...services.status() });
    }
    const result = await services.dial(request.link);
    // Each dial past the rate bound, and what became of it (never the link).
    log.info('the native host answered a dial', { answer: result.ok ? 'ok' : result.code });
    send({ id: request.id, type: 'dial', ...result });
  };

  return new Promise((resolve) => {
    // One request at a time, in the order they came: a dial's answer before the next request.
    let queue: Promise<void> = Promise.resolve();
    let ended = false;
    const end = (how: 'closed' | 'too-large') => {
      if (ended) return;
      ended = true;
      input.off('data', onData);
      void queue.then(() => resolve(how));
    };
    const onData = (chunk: Buffer) => {
      for (const framed of framer.push(chunk)) {
        if (framed.kind === 'too-large') {
          log.warn('the browser sent a request over the native host limit; stopping', {
            bytes: framed.bytes,
          });
          queue = queue.then(() => refuse(null, 'error', 'too_large', 'browser.tooLarge'));
          return end('too-large');
        }
        queue = queue
          .then(() =>
            framed.kind === 'message'
              ? answer(framed.value)
              : refuse(null, 'error', 'unknown_request', 'browser.unknownRequest'),
          )
          .catch((error: unknown) => {
            log.error('the native host failed to answer', { error });
          });
      }
    };
    input.on('data', onData);
    input.once('end', () => end('closed'));
    input.once('close', () => end('closed'));
  });
}
