/**
 * The relay's Prometheus metrics (prom-client), served as text at `GET /metrics` on a listener of
 * their own (RELAY_METRICS_PORT), never on the public port. One registry per relay process:
 *
 * - callbar_relay_devices_connected (gauge): device streams open on this node
 * - callbar_relay_events_received_total (counter): call events the platform delivered here
 * - callbar_relay_events_delivered_total (counter): messages written to device streams here
 * - callbar_relay_http_requests_total{status} (counter): answers by HTTP status
 * - callbar_relay_delivery_seconds (histogram): from the message's queueing to its write to the
 *   device's stream (the queue offset carries the queueing time)
 * - callbar_relay_stream_backlog (histogram): messages replayed when a stream opens (the queue's
 *   depth for that device)
 * - callbar_relay_messages_dropped_total (counter): messages a full device queue dropped
 *   (QUEUE_MAX_LENGTH) before the device read them, queued by this node
 * - callbar_relay_stream_gaps_total (counter): streams told that messages after their offset
 *   were dropped (`event: gap`)
 * - callbar_relay_activation_waits_open (gauge): activation polls held open here
 * - callbar_relay_redis_errors_total (counter): errors of the store's Redis connections
 * - the process's own (prom-client's default metrics, `callbar_relay_` prefix)
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';

export function relayMetrics() {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, prefix: 'callbar_relay_' });
  const metrics = {
    registry,
    devicesConnected: new Gauge({
      name: 'callbar_relay_devices_connected',
      help: 'Device streams open on this node.',
      registers: [registry],
    }),
    eventsReceived: new Counter({
      name: 'callbar_relay_events_received_total',
      help: 'Call events the platform delivered to this node.',
      registers: [registry],
    }),
    eventsDelivered: new Counter({
      name: 'callbar_relay_events_delivered_total',
      help: 'Messages written to device streams by this node.',
      registers: [registry],
    }),
    httpRequests: new Counter({
      name: 'callbar_relay_http_requests_total',
      help: 'HTTP requests answered, by status.',
      labelNames: ['status'] as const,
      registers: [registry],
    }),
    deliverySeconds: new Histogram({
      name: 'callbar_relay_delivery_seconds',
      help: 'From a message queued to its write to the device stream.',
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.2, 0.5, 1, 2.5, 5, 30],
      registers: [registry],
    }),
    streamBacklog: new Histogram({
      name: 'callbar_relay_stream_backlog',
      help: 'Messages waiting in a device queue when its stream opened.',
      buckets: [0, 1, 10, 100, 1000],
      registers: [registry],
    }),
    messagesDropped: new Counter({
      name: 'callbar_relay_messages_dropped_total',
      help: 'Messages a full device queue dropped before the device read them.',
      registers: [registry],
    }),
    streamGaps: new Counter({
      name: 'callbar_relay_stream_gaps_total',
      help: 'Streams told that messages after their offset were dropped.',
      registers: [registry],
    }),
    activationWaitsOpen: new Gauge({
      name: 'callbar_relay_activation_waits_open',
      help: 'Activation polls held open on this node.',
      registers: [registry],
    }),
    storeUp: new Gauge({
      name: 'callbar_relay_store_up',
      help: 'Whether Redis answers this node (1), or counts as away (0): streams ended, requests refused.',
      registers: [registry],
    }),
    redisErrors: new Counter({
      name: 'callbar_relay_redis_errors_total',
      help: 'Errors of the Redis connections.',
      registers: [registry],
    }),
  };
  return metrics;
}

export type RelayMetrics = ReturnType<typeof relayMetrics>;

/** Serves `metrics` at GET /metrics on `port` (its own listener); 404 for anything else. */
export async function serveMetrics(
  metrics: RelayMetrics,
  port: number,
  host: string,
): Promise<{ origin: string; close(): Promise<void> }> {
  const server = createServer((request, response) => {
    if (request.method !== 'GET' || request.url !== '/metrics') {
      response.writeHead(404, { 'content-type': 'text/plain' }).end('Not found.');
      return;
    }
    metrics.registry.metrics().then(
      (text) => response.writeHead(200, { 'content-type': metrics.registry.contentType }).end(text),
      () => response.writeHead(500).end(),
    );
  });
  await new Promise<void>((resolve) => server.listen(port, host, resolve));
  const { port: bound } = server.address() as AddressInfo;
  return {
    origin: `http://${host === '0.0.0.0' ? '127.0.0.1' : host}:${bound}`,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
