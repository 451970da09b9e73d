/**
 * The routes of an activated device (Authorization: Bearer <credential>): its stream of
 * server-sent events (call events and deactivations, replayed from Last-Event-ID), its dial
 * announcements, and its removal.
 *
 * A device holds at most `streamsPerDevice` streams on a node (RELAY_STREAMS_PER_DEVICE, 4): each
 * process of a profile (the app, a CLI command) has one, with the same credential. Before, one
 * credential opened any number (each a socket, a wake-up watch, a timer and a Redis read every 15
 * s), bounded only per client address, so not at all from many addresses. The newest wins: a new
 * stream closes the device's oldest on the node, so a desktop that reconnects after a network
 * change is never locked out by its own stale stream (a closed one that is still wanted connects
 * again). Per node only: nodes share no stream registry, so a device may hold that many at each
 * node the proxy sends it to (docs/relay.md).
 */
import type { ServerResponse } from 'node:http';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { HttpRejection } from '../src-main/core/http/http-rejection';
import {
  DEVICE_PATHS,
  GAP_EVENT,
  StreamOffset,
  type RelayGap,
} from '../src-main/core/relay/relay-protocol';
import { clientOf, SECURITY_HEADERS, sha256, type RelayContext } from './relay-context';
import { lostBetween, type DeviceRecord } from './relay-store';

/**
 * Ends every open stream of the node; with `reconnect`, after an `event: reconnect` line that
 * tells the desktop to connect again at once (the proxy sends it to another node).
 */
export type StreamEnders = Set<(reconnect?: boolean) => void>;

/** What a stream says before a draining node ends it. */
export const RECONNECT_HINT = 'event: reconnect\ndata: {}\n\n';

/** Resolves once `raw` takes writes again (or is closed). */
function drained(raw: ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    if (raw.destroyed) return resolve();
    const done = () => {
      raw.off('drain', done);
      raw.off('close', done);
      resolve();
    };
    raw.on('drain', done);
    raw.on('close', done);
  });
}

export function deviceRoutes(app: FastifyInstance, context: RelayContext): StreamEnders {
  const { store, log, now, metrics } = context;
  const streams: StreamEnders = new Set();
  /** Each device's streams on this node, oldest first. */
  const byDevice = new Map<string, (() => void)[]>();

  /** The device a request's bearer credential belongs to. */
  const device = async (request: FastifyRequest): Promise<DeviceRecord> => {
    const header = request.headers.authorization ?? '';
    const credential = header.startsWith('Bearer ') ? header.slice(7) : '';
    const record = credential ? await store.deviceByCredential(sha256(credential)) : undefined;
    if (!record) {
      throw new HttpRejection(
        401,
        'This device is not known to the relay (revoked or deactivated).',
      );
    }
    // Its log lines name it from here on.
    request.log = request.log.child({ device: record.device_id });
    return record;
  };

  app.post(DEVICE_PATHS.dial, async (request, reply) => {
    const record = await device(request);
    await store.noteDial(record.device_id, record.tenant_id, now(), context.dialWindowMs);
    return reply.type('text/plain').send('OK');
  });

  app.delete(DEVICE_PATHS.device, async (request, reply) => {
    const record = await device(request);
    await store.removeDevice(record.device_id);
    log.info('device removed itself', { device: record.device_id });
    return reply.type('text/plain').send('OK');
  });

  app.get(DEVICE_PATHS.stream, async (request, reply) => {
    if (context.draining.aborted) {
      throw new HttpRejection(503, 'This relay node is stopping; connect again.');
    }
    const record = await device(request);
    // Known: no longer a GET that may yet be refused (it stays open for hours).
    context.reads.ended(clientOf(request), request, 200);
    const given = request.headers['last-event-id'];
    let cursor = typeof given === 'string' && given !== '' ? given : '0-0';
    if (!StreamOffset.safeParse(cursor).success) {
      throw new HttpRejection(400, 'Last-Event-ID is not a stream offset.');
    }
    reply.hijack();
    const raw = reply.raw;
    raw.writeHead(200, {
      ...SECURITY_HEADERS,
      'content-type': 'text/event-stream; charset=utf-8',
      connection: 'keep-alive',
    });
    let closed = false;
    let reading: Promise<void> | undefined;
    let again = false;
    let backlog: number | undefined;
    const drain = async (): Promise<void> => {
      let sent = 0;
      do {
        again = false;
        for (;;) {
          const batch = await store.readAfter(record.device_id, cursor, 100);
          // Messages after the desktop's offset that its full queue dropped: said before the
          // next one, so that it does not take what it shows for complete.
          const lost = batch[0] ? lostBetween(cursor, batch[0].id) : 0;
          if (lost > 0 && !closed) {
            raw.write(
              `event: ${GAP_EVENT}\ndata: ${JSON.stringify({ lost } satisfies RelayGap)}\n\n`,
            );
            metrics?.streamGaps.inc();
            request.log.warn(
              { lost, after: cursor },
              'messages after the device offset were dropped',
            );
          }
          for (const message of batch) {
            if (closed) return;
            const flowing = raw.write(`id: ${message.id}\ndata: ${message.data}\n\n`);
            cursor = message.id;
            sent += 1;
            metrics?.eventsDelivered.inc();
            // The offset's first part is when the message was queued.
            const queuedAt = Number(message.id.split('-')[0]);
            metrics?.deliverySeconds.observe(Math.max(0, Date.now() - queuedAt) / 1000);
            // A desktop that does not read (stalled, or holding its stream open on purpose) makes
            // the node hold one message past the socket's buffers, not every message sent to it:
            // the rest waits in its queue (bounded), and what the queue drops meanwhile is said as
            // a gap once it reads again. Before, the node buffered them all in its memory.
            if (!flowing) await drained(raw);
          }
          if (batch.length < 100) break;
        }
      } while (again && !closed);
      if (backlog === undefined) {
        backlog = sent;
        metrics?.streamBacklog.observe(sent);
      }
    };
    const wake = () => {
      if (reading) {
        again = true;
        return;
      }
      reading = drain()
        .catch((error: unknown) => {
          // The store did not answer (or failed): the stream ends, and the desktop connects
          // again from its offset (here once the store answers, or at another node).
          log.warn('a device stream could not be read; it ends', { error });
          end();
        })
        .finally(() => (reading = undefined));
    };
    const unwatch = store.watch(record.device_id, wake);
    const keepAlive = setInterval(() => {
      raw.write(': keep-alive\n\n');
      // A wake-up lost in a Redis failover is made up for here.
      wake();
      // A revoked or removed device's stream ends here.
      store.isKnown(record.credential_sha256).then(
        (still) => (still ? undefined : end()),
        () => undefined,
      );
    }, context.keepAliveMs);
    const end = (reconnect = false) => {
      if (closed) return;
      closed = true;
      unwatch();
      clearInterval(keepAlive);
      streams.delete(end);
      const mine = byDevice.get(record.device_id) ?? [];
      const at = mine.indexOf(replaced);
      if (at >= 0) mine.splice(at, 1);
      if (mine.length === 0) byDevice.delete(record.device_id);
      metrics?.devicesConnected.dec();
      // A drain ends thousands at once: their lines are debug (the drain says how many, at info).
      request.log[reconnect ? 'debug' : 'info']({ reconnect }, 'device stream ended');
      if (reconnect) raw.write(RECONNECT_HINT);
      raw.end();
    };
    const replaced = () => {
      request.log.info('device stream replaced by a newer one');
      end();
    };
    streams.add(end);
    metrics?.devicesConnected.inc();
    request.log.info({ after: cursor }, 'device stream opened');
    // The newest wins: past the device's share on this node, its oldest stream is closed.
    const mine = byDevice.get(record.device_id) ?? [];
    byDevice.set(record.device_id, mine);
    mine.push(replaced);
    while (mine.length > context.streamsPerDevice) mine[0]!();
    request.raw.on('close', () => end());
    wake();
    await reading;
    if (!closed) raw.write('event: ready\ndata: {}\n\n');
  });

  return streams;
}
