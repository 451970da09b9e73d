/**
 * The relay's rate limit is one per client address for the whole relay, not per node: two nodes
 * on one real redis-server take from the same bucket, so a client that spreads its requests over
 * the nodes gets no more through than it would from one. Another client has its own bucket.
 * (The bucket refills at one request per thousand seconds here: no clock is involved.)
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
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
