/**
 * Connections another local user or process holds open at Callbar's own listeners without
 * sending anything: the loopback receiver (node:http on 127.0.0.1), the web preview's server (and
 * its WebSocket handshake) and the link door (a Unix socket). Each is bounded by
 * src-main/core/http/connection-limits.ts, the module the relay's nodes use: a first request
 * within its time (1 s here; 10 s for the servers, 5 s for the door by default), and a share of
 * connections past which the oldest that has not brought a request makes room.
 *
 * On the code before this round: 50 of 50 silent connections to the receiver and 50 of 50 to the
 * preview were still open after 40 s (each a file descriptor of the app, any number of them), 20
 * of 20 refused WebSocket handshakes whose client never read were still held after 15 s, and 4
 * silent connections that never read held the link door shut for good (a knock 40 s later:
 * EPIPE).
 */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CallbarCore } from '../../src-main/core/callbar-core';
import { startReceiver, type RunningReceiver } from '../../src-main/core/account/receiver';
import { openLinkDoor, type LinkDoor } from '../../src-main/core/desktop/link-door';
import { knockLinkDoor } from '../../src-main/core/desktop/link-door-knock';
import type { DoorAnswer } from '../../src-main/core/desktop/link-door-format';
import { silentLogger } from '../../src-main/core/log/logger';
import { startPreviewServer, type PreviewServer } from '../../src-main/preview/server';
import { recordFigure } from '../support/hardening/figures';
import { until } from '../support/until';

const SHARE = 8;
const FIRST_REQUEST_MS = 1000;
const sockets: Socket[] = [];

afterAll(() => {
  for (const socket of sockets) socket.destroy();
});

/** A connection that sends `text` (nothing by default) and never reads; whether it was closed. */
function attacker(options: { port: number } | { path: string }, text?: string) {
  const socket = connect('port' in options ? { port: options.port, host: '127.0.0.1' } : options);
  sockets.push(socket);
  // Never read (no 'data' listener): what comes stays in the socket's buffer, as with a client
  // that does not care; an end with nothing before it is still seen.
  const state = { closed: false };
  socket.on('error', () => undefined);
  socket.on('close', () => (state.closed = true));
  return new Promise<typeof state>((resolve) => {
    socket.once('connect', () => {
      if (text !== undefined) socket.write(text);
      resolve(state);
    });
    socket.once('close', () => resolve(state));
  });
}

const closed = (states: { closed: boolean }[]) => states.filter((each) => each.closed).length;

/**
 * A keep-alive connection that asks `GET /done` again every 300 ms (well within the server's
 * 5 s keep-alive) and reads each answer: never silent, and idle between its requests.
 */
function chatty(port: number) {
  const socket = connect({ port, host: '127.0.0.1' });
  sockets.push(socket);
  const state = { closed: false, answers: 0 };
  socket.setEncoding('utf8');
  socket.on('data', (chunk: string) => (state.answers += chunk.split('HTTP/1.1 ').length - 1));
  socket.on('error', () => undefined);
  const ask = () => socket.write(`GET /done HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n\r\n`);
  const timer = setInterval(() => (socket.destroyed ? clearInterval(timer) : ask()), 300);
  socket.on('close', () => {
    state.closed = true;
    clearInterval(timer);
  });
  return new Promise<typeof state>((resolve) =>
    socket.once('connect', () => {
      ask();
      resolve(state);
    }),
  );
}

/** 20 silent connections: past the share closed at once, the rest after their time. */
async function silentFlood(port: number, served: () => Promise<number>, who: string) {
  const idle = await Promise.all(Array.from({ length: 20 }, () => attacker({ port })));
  await until('the connections past the share to be closed', () =>
    closed(idle) >= 20 - SHARE ? true : undefined,
  );
  // The share is full of silent connections: a real caller still gets in (the oldest makes room).
  expect(await served()).toBe(200);
  await until('every silent connection to be closed', () =>
    closed(idle) === 20 ? true : undefined,
  );
  recordFigure(
    `${who}: 20 connections from this computer that send nothing`,
    `${20 - SHARE} closed as they opened (share ${SHARE} in the test, 128/64 by default), the rest after the first-request deadline (1 s in the test, 10 s by default); a real request served meanwhile (before: 50 of 50 held after 40 s)`,
  );
}

describe('the loopback receiver', () => {
  let receiver: RunningReceiver;
  const events: string[] = [];

  beforeAll(async () => {
    receiver = await startReceiver({
      port: 0,
      auth: () => ({ headers: {}, secret: undefined, acceptUnauthenticated: true }),
      handlers: {
        activate: () => Promise.resolve(),
        deactivate: () => Promise.resolve(),
        event: (event) => void events.push(event.id),
        landing: () => ({ ok: true, title: 'ok', message: 'ok' }),
        connect: () => ({ ok: false, title: 'no', message: 'no' }),
      },
      connections: { firstRequestMs: FIRST_REQUEST_MS, perClient: SHARE },
      log: silentLogger,
    });
  });
  afterAll(() => receiver.close());

  it('closes connections that send nothing, and serves the platform meanwhile', async () => {
    const event = async () =>
      (
        await fetch(`${receiver.origin}/events`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ id: 'during-the-flood' }),
        })
      ).status;
    await silentFlood(receiver.port, event, 'receiver');
    expect(events).toEqual(['during-the-flood']);
  });

  it('serves the platform while the share is full of connections that ask something every 300 ms', async () => {
    const held = await Promise.all(Array.from({ length: SHARE }, () => chatty(receiver.port)));
    await until('every chatty connection to be answered twice', () =>
      held.every((each) => each.answers >= 2) ? true : undefined,
    );
    // Before: each had brought a request, so none was "waiting" and every new connection was
    // closed as it opened: the platform's event got no answer for as long as they chatted.
    const statuses: number[] = [];
    for (let round = 0; round < 3; round++) {
      const status = await fetch(`${receiver.origin}/events`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ id: `beside-the-chatter-${round}` }),
        signal: AbortSignal.timeout(3000),
      }).then(
        (response) => response.status,
        () => 0,
      );
      statuses.push(status);
    }
    expect(statuses).toEqual([200, 200, 200]);
    recordFigure(
      'receiver: its whole share held by keep-alive connections asking GET /done every 300 ms',
      `3 of 3 events from new connections answered 200, ${closed(held)} idle ones closed to make room (before: 0 of 3 within 3 s each, every new connection closed as it opened)`,
    );
  });
});

describe("the web preview's server", () => {
  let server: PreviewServer;
  let port: number;

  beforeAll(async () => {
    const dir = mkdtempSync(join(tmpdir(), 'callbar-preview-connections-'));
    mkdirSync(join(dir, 'renderer'));
    writeFileSync(join(dir, 'renderer/index.html'), '<html><head></head><body></body></html>');
    writeFileSync(join(dir, 'bridge.js'), '');
    server = await startPreviewServer({
      // The page is served while the core starts: no core is needed to hold connections.
      core: new Promise<CallbarCore>(() => undefined),
      rendererDir: join(dir, 'renderer'),
      bridgeFile: join(dir, 'bridge.js'),
      connections: { firstRequestMs: FIRST_REQUEST_MS, perClient: SHARE },
      log: silentLogger,
    });
    port = Number(new URL(server.origin).port);
  });
  afterAll(() => server.close());

  it('closes connections that send nothing, and serves the page meanwhile', async () => {
    await silentFlood(port, async () => (await fetch(`${server.origin}/`)).status, 'preview');
  });

  it('closes a refused WebSocket handshake once its answer is written, not only ends it', async () => {
    const handshake =
      'GET /__callbar/channel HTTP/1.1\r\nHost: attacker.example\r\nConnection: Upgrade\r\n' +
      'Upgrade: websocket\r\nSec-WebSocket-Version: 13\r\n' +
      'Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n';
    // The client keeps its side open after the answer and goes on sending: a connection the
    // server still holds takes the bytes; one it closed refuses them (and the client sees it).
    const refused = await Promise.all(
      Array.from({ length: SHARE }, () => {
        const socket = connect({ port, host: '127.0.0.1', allowHalfOpen: true });
        sockets.push(socket);
        const state = { closed: false, answer: '' };
        socket.setEncoding('utf8');
        socket.on('data', (chunk: string) => (state.answer += chunk));
        socket.on('error', () => undefined);
        socket.on('close', () => (state.closed = true));
        socket.on('end', () => {
          const nag = setInterval(() => {
            if (socket.destroyed) clearInterval(nag);
            else socket.write('\r\n');
          }, 50);
        });
        return new Promise<typeof state>((resolve) =>
          socket.once('connect', () => {
            socket.write(handshake);
            resolve(state);
          }),
        );
      }),
    );
    await until('every refused handshake to be closed', () =>
      closed(refused) === SHARE ? true : undefined,
    );
    expect(refused.every((each) => each.answer.startsWith('HTTP/1.1 421'))).toBe(true);
    recordFigure(
      'preview: refused WebSocket handshakes whose client keeps its side open',
      `${SHARE} of ${SHARE} closed once the refusal was written (before: only ended, each held for as long as the client kept its side open)`,
    );
  });
});

describe('the link door', () => {
  let door: LinkDoor;
  let dataDir: string;

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'callbar-door-connections-'));
    door = await openLinkDoor({
      dataDir,
      log: silentLogger,
      readDeadlineMs: FIRST_REQUEST_MS,
      deliver: () => Promise.resolve<DoorAnswer>({ ok: true, status: 'asking', display: '1' }),
    });
  });
  afterAll(() => door.close());

  it('4 silent connections that never read neither keep the door shut nor stay open', async () => {
    const silent = await Promise.all(
      Array.from({ length: 4 }, () => attacker({ path: door.address })),
    );
    // The door's 4 are taken by connections that sent nothing: a knock still gets in.
    expect(await knockLinkDoor(dataDir, 'tel:+1', { timeoutMs: 5000 })).toMatchObject({
      ok: true,
    });
    await until('every silent connection to be closed', () =>
      closed(silent) === 4 ? true : undefined,
    );
    recordFigure(
      'link door: 4 connections that send nothing and never read',
      'a knock beside them answered; all 4 closed after the read deadline (1 s in the test, 5 s by default) (before: the door shut for good, a knock 40 s later EPIPE)',
    );
  });
});
