/**
 * The pieces of a node's drain (relay-server.ts) that keep it short however many streams and calls
 * it holds: streams are ended in batches with the event loop free in between (readiness probes,
 * the platform's calls and the timers go on being served), and the platform's calls are followed
 * one by one, so that once new ones are refused the drain waits for a set that only shrinks, never
 * for a quiet moment that a node under load does not have.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { StreamEnders } from './device-routes';

/** Streams ended in one turn of the event loop. */
const STREAMS_PER_TURN = 100;

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * Ends every stream in `streams` (each with the reconnect hint unless `reconnect` is false: the
 * desktop then counts a failure and pauses before it connects again), a batch per turn of the
 * loop.
 */
export async function endStreams(streams: StreamEnders, reconnect = true): Promise<number> {
  let ended = 0;
  while (streams.size > 0) {
    // An ended stream leaves the set itself.
    for (const end of [...streams].slice(0, STREAMS_PER_TURN)) {
      end(reconnect);
      ended += 1;
    }
    if (streams.size > 0) await nextTurn();
  }
  return ended;
}

export interface CallsUnderWay {
  /** The calls (anything but a GET) being served now. */
  readonly size: number;
  /** From now on a new call is answered 503 with `Connection: close` (the caller asks again). */
  refuse(): void;
  /** Settles when no call is under way, or after `ms` at most; whether they all finished. */
  finished(ms: number): Promise<boolean>;
}

/**
 * Follows the calls `app` serves (a stream or a poll is not one: the drain ends those itself) and,
 * once `refuse` was called, answers every new one 503 before any of its work is done: a call is
 * answered only once its event is stored, so the caller that got no 200 repeats it elsewhere.
 */
export function callsUnderWay(app: FastifyInstance): CallsUnderWay {
  const calls = new Set<FastifyRequest>();
  let refusing = false;
  let onEmpty: (() => void) | undefined;
  const leave = (request: FastifyRequest) => {
    calls.delete(request);
    if (calls.size === 0) onEmpty?.();
  };
  app.addHook('onRequest', (request, reply, done) => {
    if (request.method === 'GET') return done();
    if (refusing) {
      void reply
        .code(503)
        .header('connection', 'close')
        .type('text/plain; charset=utf-8')
        .send('This relay node is stopping; send it to another node.');
      return;
    }
    calls.add(request);
    done();
  });
  app.addHook('onResponse', (request, _reply, done) => {
    leave(request);
    done();
  });
  app.addHook('onRequestAbort', (request, done) => {
    leave(request);
    done();
  });
  return {
    get size() {
      return calls.size;
    },
    refuse: () => {
      refusing = true;
    },
    finished: (ms) =>
      new Promise((resolve) => {
        if (calls.size === 0) return resolve(true);
        const timer = setTimeout(() => {
          onEmpty = undefined;
          resolve(false);
        }, ms);
        onEmpty = () => {
          clearTimeout(timer);
          onEmpty = undefined;
          resolve(true);
        };
      }),
  };
}
