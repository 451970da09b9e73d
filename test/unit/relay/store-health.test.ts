/**
 * The node's check that its store answers (relay/store-health.ts): a ping whose answer came while
 * the node's own thread was held past the timeout counts as answered, and so does one that needs
 * turns of the loop after the hold, so a slow node does not end every device's stream (nor refuse
 * every request) for a store that was there. The store's ping here is a real round trip
 * over a loopback TCP connection to another process, which answers at once.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { connect } from 'node:net';
import { createInterface } from 'node:readline';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { RelayStore } from '../../../relay/relay-store';
import { answersWithin } from '../../../relay/store-health';

/** An echo server in a process of its own: it answers while this one is held. */
const ECHO = `require('node:net').createServer((s) => s.on('data', (b) => s.write(b)))
  .listen(0, '127.0.0.1', function () { console.log(this.address().port); });`;
let server: ChildProcess;
let client: ReturnType<typeof connect>;
beforeAll(async () => {
  server = spawn(process.execPath, ['-e', ECHO], { stdio: ['ignore', 'pipe', 'inherit'] });
  const [port] = (await once(createInterface({ input: server.stdout! }), 'line')) as [string];
  client = connect(Number(port), '127.0.0.1');
  await once(client, 'connect');
});
afterAll(() => {
  client?.destroy();
  server?.kill();
});

const store = {
  ping: () =>
    new Promise<void>((answered) => {
      client.once('data', () => answered());
      client.write('ping');
    }),
} as unknown as RelayStore;

it('counts an answer that arrived while the node was held past the timeout', async () => {
  const answered = answersWithin(store, 50);
  // The node's thread held (a long collection, a loaded machine): the answer arrives meanwhile.
  const until = performance.now() + 300;
  while (performance.now() < until);
  expect(await answered).toBe(true);
});

it('does not count the node’s own hold as the store’s silence: an answer that needs turns after it is waited for', async () => {
  // As at a node's start: the check begins, then the node's thread is held past the timeout
  // (compiling its routes on a loaded machine), and the answer takes three round trips (the
  // connection, its ready check, the ping), each read in a turn of the loop after the hold.
  const threeTrips = {
    ping: async () => {
      for (let trip = 0; trip < 3; trip += 1) await store.ping();
    },
  } as unknown as RelayStore;
  const answered = answersWithin(threeTrips, 200);
  const until = performance.now() + 1000;
  while (performance.now() < until);
  expect(await answered).toBe(true);
});

it('counts a store that does not answer as away', async () => {
  const silent = { ping: () => new Promise<void>(() => undefined) } as unknown as RelayStore;
  expect(await answersWithin(silent, 50)).toBe(false);
});
