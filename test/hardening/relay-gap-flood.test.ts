/**
 * A hostile or broken relay that says `event: gap` (messages queued for the desktop were dropped,
 * relay-protocol.ts) again and again, with counts absurd or malformed, on a desktop in relay mode
 * (a real Callbar core, activated through a real relay node with the simulator's platform). The
 * stream reaches the desktop through a proxy that turns hostile once the desktop is connected and
 * shows a call: the desktop ends the call it showed once, saying why, stays connected, and its
 * log stays readable: before, each gap wrote a warning, so a relay sending twenty thousand in a
 * second wrote twenty thousand lines (the log rotated away what came before it).
 */
import { mkdtempSync } from 'node:fs';
import {
  createServer,
  request as httpRequest,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { memoryStore } from '../../relay/memory-store';
import { startRelay, type RunningRelay } from '../../relay/relay-server';
import type { RunningSimulator } from '../../simulator/index';
import type { CallsSnapshot, Result } from '../../src-shared/contract';
import { startCore, type CallbarCore } from '../../src-main/core/callbar-core';
import { DEVICE_PATHS } from '../../src-main/core/relay/relay-protocol';
import { openProfile } from '../../src-main/core/profile';
import { MemoryVault } from '../../src-main/core/vault/memory-vault';
import { recordFigure } from '../support/hardening/figures';
import { freePort } from '../support/free-port';
import { relayAddresses } from '../support/relay-addresses';
import {
  capturingLogger,
  connect,
  control as simRequest,
  profileEnv,
  startSim,
} from '../support/sim-harness';
import { until } from '../support/until';

const SECRET = 'relay-gap-flood-webhook-secret-0123456789';
/** The gaps the hostile stream sends, valid and not. */
const GAPS = 20_000;

let sim: RunningSimulator;
let relay: RunningRelay;
let proxy: Server;
let core: CallbarCore;
/** The device streams piped through the proxy (ended when it turns hostile). */
const piped: ServerResponse[] = [];
let hostile = false;
let hostileStreams = 0;

/** What the hostile stream says: ready, then gaps of every kind, then keep-alives. */
function hostileStream(response: ServerResponse): void {
  hostileStreams++;
  response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  const kinds = [
    '{"lost":1}',
    '{"lost":9007199254740991}',
    '{"lost":1e300}',
    '{"lost":-5}',
    '{"lost":"many"}',
    'not json at all',
    '{"lost":3,"extra":"x"}',
  ];
  let text = 'event: ready\ndata: {}\n\n';
  for (let index = 0; index < GAPS; index++) {
    text += `event: gap\ndata: ${kinds[index % kinds.length]}\n\n`;
  }
  response.write(text);
  const keepAlive = setInterval(() => response.write(': keep-alive\n\n'), 500);
  response.on('close', () => clearInterval(keepAlive));
}

function forward(request: IncomingMessage, response: ServerResponse): void {
  const upstream = httpRequest(
    `${relay.origin}${request.url}`,
    { method: request.method, headers: request.headers },
    (answer) => {
      response.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(response);
    },
  );
  upstream.on('error', () => response.destroy());
  request.pipe(upstream);
}

beforeAll(async () => {
  relay = await startRelay({
    port: 0,
    store: memoryStore(),
    log: capturingLogger().log,
    webhookSecret: SECRET,
    keepAliveMs: 500,
  });
  proxy = createServer((request, response) => {
    const stream = request.url?.startsWith(DEVICE_PATHS.stream) === true;
    if (stream && hostile) return hostileStream(response);
    if (stream) piped.push(response);
    forward(request, response);
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  sim = await startSim({ profile: 'rich' });
  await simRequest(sim, 'PUT', 'integrations/callbar', relayAddresses(relay.origin, SECRET));
});
afterAll(async () => {
  await core?.close();
  proxy?.closeAllConnections();
  await new Promise((resolve) => proxy?.close(resolve));
  await relay?.close();
  await sim?.close();
});

async function value<T>(channel: string, request: unknown = {}): Promise<T> {
  const result = (await core.router.invoke(channel, request)) as Result<T>;
  if (!result.ok) throw new Error(`${channel}: ${result.error.message}`);
  return result.value;
}

it('a relay flooding gap events, absurd and malformed: the call shown ends once, the log stays bounded', async () => {
  const { log, lines } = capturingLogger();
  const address = proxy.address() as { port: number };
  const dir = mkdtempSync(join(tmpdir(), 'callbar-gap-flood-'));
  core = await startCore({
    runtime: 'preview',
    profile: openProfile({
      env: {
        ...profileEnv(sim, dir, await freePort()),
        CALLBAR_RELAY_URL: `http://127.0.0.1:${address.port}`,
      },
      vault: new MemoryVault(),
      log,
    }),
    openUrl: () => Promise.resolve(),
  });
  const account = core.profile.account;
  expect((await connect({ account }, sim)).status.state).toBe('connected');
  await account.listen();
  await until('the stream serving', () => (account.hearsCallEvents() ? true : undefined));
  const user = sim.users[0]!;
  const posted = await fetch(`${relay.origin}/events/${SECRET}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      tenant_id: sim.tenant_id,
      user_extension: user.extension,
      id: 'leg-answered',
      direction: 'inbound',
      state: 'answered',
      party: 'caller',
    }),
  });
  expect(posted.status).toBe(200);
  const shown = await until('the call shown as current', async () =>
    (await value<CallsSnapshot>('calls.list')).current.find((call) =>
      call.leg_ids.includes('leg-answered'),
    ),
  );
  const linesBefore = lines.length;

  // The relay turns hostile: the desktop's stream breaks, and the one it opens again floods.
  hostile = true;
  for (const response of piped.splice(0)) response.destroy();
  const ended = await until('the call ended', async () => {
    const calls = await value<CallsSnapshot>('calls.list');
    return calls.current.some((call) => call.id === shown.id)
      ? undefined
      : calls.recent.filter((call) => call.id === shown.id);
  });
  // Every gap read (the stream's chunks are read in order; the last keep-alives come after them).
  await new Promise((resolve) => setTimeout(resolve, 1_500));
  expect(hostileStreams).toBeGreaterThan(0);
  expect(ended).toHaveLength(1);
  expect(ended[0]!.reason).toContain('lost at the relay');
  expect(account.status().state).toBe('connected');

  const written = lines.slice(linesBefore);
  const gapLines = written.filter((line) => line.includes('dropped messages'));
  recordFigure(`${GAPS} gap events from a relay: log lines`, written.length);
  // The first is said at once; the rest are counted, in a summary line per interval.
  expect(gapLines.length).toBeGreaterThan(0);
  expect(written.length).toBeLessThanOrEqual(20);
});
