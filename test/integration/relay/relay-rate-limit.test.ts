/**
 * The relay's rate limit is one per client address for the whole relay, not per node: two nodes
 * on one real redis-server take from the same bucket, so a client that spreads its requests over
 * the nodes gets no more through than it would from one. Another client has its own bucket.
 * A client's refused GETs are limited at the same rate, on each node, before they reach Redis.
 * (The bucket refills at one request per thousand seconds here: no clock is involved.)
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { CONNECT_PATH } from '../../../src-main/core/relay/connect-link';
import { DEVICE_PATHS } from '../../../src-main/core/relay/relay-protocol';
import type { RunningRelay } from '../../../relay/relay-server';
import { startRelayNodes, type RelayNodes } from '../../support/relay-nodes';

const SECRET = 'relay-rate-webhook-secret-0123456789abcd';
const BURST = 10;
let relay: RelayNodes;
let nodes: RunningRelay[];

beforeAll(async () => {
  relay = await startRelayNodes(2, {
    webhookSecret: SECRET,
    rate: { burst: BURST, perSecond: 0.001 },
    // Behind the reverse proxy (this test, on 127.0.0.1): the client address is the proxy's
    // X-Forwarded-For.
    trustProxy: ['127.0.0.1'],
  });
  ({ nodes } = relay);
});
afterAll(async () => {
  await relay?.close();
});

/** A call event POSTed to `node` as the client at `address`; the status. */
async function post(node: RunningRelay, address: string, id: string): Promise<number> {
  const response = await fetch(`${node.origin}/events/${SECRET}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-forwarded-for': address },
    body: JSON.stringify({ id, tenant_id: 'acme', user_extension: '701' }),
  });
  await response.body?.cancel();
  return response.status;
}

it('two nodes take from one bucket per client: spreading over the nodes gains nothing', async () => {
  const [a, b] = nodes as [RunningRelay, RunningRelay];
  const statuses: number[] = [];
  for (let index = 0; index < 8; index += 1) {
    statuses.push(await post(a, '203.0.113.7', `leg-a${index}`));
    statuses.push(await post(b, '203.0.113.7', `leg-b${index}`));
  }
  expect(statuses.filter((status) => status === 200)).toHaveLength(BURST);
  expect(statuses.filter((status) => status === 429)).toHaveLength(16 - BURST);
  // The first BURST went through, then every further request on either node was refused.
  expect(statuses.slice(0, BURST).every((status) => status === 200)).toBe(true);
  expect(statuses.slice(BURST).every((status) => status === 429)).toBe(true);

  // Another client is not slowed down by the first.
  expect(await post(b, '198.51.100.20', 'leg-other')).toBe(200);
});

/** A GET of `path` at `node` as the client at `address`, with `headers`; the status. */
async function get(
  node: RunningRelay,
  address: string,
  path: string,
  headers: Record<string, string> = {},
): Promise<number> {
  const response = await fetch(`${node.origin}${path}`, {
    headers: { 'x-forwarded-for': address, ...headers },
  });
  await response.body?.cancel();
  return response.status;
}

/** How many commands of `name` the test's redis-server has run. */
async function redisCalls(name: string): Promise<number> {
  const { stdout } = await promisify(execFile)('redis-cli', [
    '-u',
    relay.redis.url,
    'info',
    'commandstats',
  ]);
  return Number(new RegExp(`cmdstat_${name}:calls=(\\d+)`).exec(stdout)?.[1] ?? 0);
}

it("a client's refused GETs stop reaching Redis past the rate; answered GETs and other clients go on", async () => {
  const [a] = nodes as [RunningRelay];
  const made = { authorization: 'Bearer made-up-credential-0123456789' };
  const statuses: number[] = [];
  for (let index = 0; index < BURST; index += 1) {
    // Streams with a made-up credential and connect links with a made-up nonce, one bucket.
    statuses.push(
      index % 2 === 0
        ? await get(a, '192.0.2.44', DEVICE_PATHS.stream, made)
        : await get(a, '192.0.2.44', `${CONNECT_PATH}${'A'.repeat(43)}`),
    );
  }
  expect(statuses.every((status) => status === 401 || status === 404)).toBe(true);

  // Past the burst: refused before the store is asked (Redis runs no GET for them).
  const readsBefore = await redisCalls('get');
  for (let index = 0; index < 20; index += 1) {
    expect(await get(a, '192.0.2.44', DEVICE_PATHS.stream, made)).toBe(429);
  }
  expect(await redisCalls('get')).toBe(readsBefore);

  // The load balancer's probes still pass; another client is still told who it is not.
  expect(await get(a, '192.0.2.44', '/healthz')).toBe(200);
  expect(await get(a, '198.51.100.45', DEVICE_PATHS.stream, made)).toBe(401);
});
