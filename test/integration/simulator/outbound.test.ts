/**
 * The simulator's calls to the integrator (simulator/outbound.ts) while it closes: a delivery
 * that starts after the simulator began closing ends as "shutting down", never as an unhandled
 * 'error' event (a request destroyed before its socket emits "socket hang up"), which ended the
 * whole process (seen in the relay bench, as a relay node failed and the bench stopped).
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { postToIntegrator } from '../../../simulator/outbound';

const server = createServer((_request, response) => response.end('ok'));
let url = '';

beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/events`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

it('a delivery started after closing began ends as shutting down, with no stray error', async () => {
  const stray: unknown[] = [];
  const onStray = (error: unknown) => stray.push(error);
  process.on('uncaughtException', onStray);
  try {
    const closing = new AbortController();
    closing.abort();
    const result = await postToIntegrator({
      url,
      body: '{}',
      contentType: 'application/json',
      headers: {},
      timeoutMs: 5000,
      signal: closing.signal,
    });
    expect(result).toEqual({ ok: false, error: 'the simulator is shutting down' });
    // The request's own error event comes on a later tick.
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(stray).toEqual([]);
  } finally {
    process.off('uncaughtException', onStray);
  }
  // The same call, not aborted, is answered.
  const answered = await postToIntegrator({
    url,
    body: '{}',
    contentType: 'application/json',
    headers: {},
    timeoutMs: 5000,
    signal: new AbortController().signal,
  });
  expect(answered).toEqual({ ok: true, status: 200, text: 'ok' });
});
