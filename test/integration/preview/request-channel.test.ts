/**
 * Issue 45: the web preview carries the window's calls over one persistent WebSocket
 * (src-main/preview/request-channel.ts) instead of one HTTP request per keystroke, with the
 * preview's own checks: the session token (as a subprotocol), the Host and the Origin, bounds on
 * a message's size, on requests under way and on open sockets; replacing the session token ends
 * every open channel. The HTTP route keeps answering.
 */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import type { CallbarCore } from '../../../src-main/core/callbar-core';
import {
  CHANNEL_LIMITS,
  CHANNEL_PROTOCOL,
  SESSION_PROTOCOL_PREFIX,
} from '../../../src-main/preview/request-channel';
import { startPreviewServer, type PreviewServer } from '../../../src-main/preview/server';
import { capturingLogger } from '../../support/sim-harness';
import { startTestCore } from '../../support/test-core';

let core: CallbarCore;
let server: PreviewServer;
let session: string;

beforeAll(async () => {
  core = await startTestCore();
  const dir = mkdtempSync(join(tmpdir(), 'callbar-channel-'));
  mkdirSync(join(dir, 'renderer'));
  writeFileSync(join(dir, 'renderer/index.html'), '<html><head></head><body></body></html>');
  writeFileSync(join(dir, 'bridge.js'), '');
  server = await startPreviewServer({
    core,
    rendererDir: join(dir, 'renderer'),
    bridgeFile: join(dir, 'bridge.js'),
    log: capturingLogger().log,
  });
  session = new URLSearchParams(new URL(server.url).hash.slice(1)).get('token')!;
});
afterAll(async () => {
  await server.close();
  await core.close();
});

interface Opened {
  socket: WebSocket;
  /** The next answer's JSON, or how the socket closed. */
  next: () => Promise<unknown>;
  closed: Promise<{ code: number; reason: string }>;
}

/** Opens the channel as the page does (or with one part of the handshake changed). */
function open(
  options: { token?: string | null; origin?: string; host?: string; path?: string } = {},
): Promise<Opened> {
  const host = new URL(server.origin).host;
  const protocols = [CHANNEL_PROTOCOL];
  if (options.token !== null) protocols.push(SESSION_PROTOCOL_PREFIX + (options.token ?? session));
  const socket = new WebSocket(`ws://${host}${options.path ?? '/__callbar/channel'}`, protocols, {
    origin: options.origin ?? server.origin,
    headers: { host: options.host ?? host },
  });
  const answers: unknown[] = [];
  const readers: ((value: unknown) => void)[] = [];
  socket.on('message', (data) => {
    const answer: unknown = JSON.parse((data as Buffer).toString('utf8'));
    const reader = readers.shift();
    if (reader) reader(answer);
    else answers.push(answer);
  });
  const closed = new Promise<{ code: number; reason: string }>((done) =>
    socket.on('close', (code, reason) => done({ code, reason: String(reason) })),
  );
  return new Promise((resolve, reject) => {
    socket.on('open', () =>
      resolve({
        socket,
        closed,
        next: () =>
          answers.length > 0
            ? Promise.resolve(answers.shift())
            : new Promise((answered) => readers.push(answered)),
      }),
    );
    socket.on('unexpected-response', (_request, response: { statusCode?: number }) =>
      reject(new Error(`refused ${response.statusCode}`)),
    );
    socket.on('error', reject);
  });
}

describe("the preview's request channel", () => {
  it('answers calls over one socket, each by its id, as the router does', async () => {
    const { socket, next } = await open();
    expect(socket.protocol).toBe(CHANNEL_PROTOCOL);
    socket.send(JSON.stringify({ id: 1, channel: 'app.info', body: {} }));
    expect(await next()).toMatchObject({
      id: 1,
      result: { ok: true, value: { runtime: 'preview' } },
    });
    socket.send(JSON.stringify({ id: 2, channel: 'app.info', body: { extra: true } }));
    socket.send(JSON.stringify({ id: 3, channel: 'app.nope', body: {} }));
    const answers = [await next(), await next()] as {
      id: number;
      result: { error: { code: string } };
    }[];
    const codeOf = (id: number) => answers.find((answer) => answer.id === id)?.result.error.code;
    expect(codeOf(2)).toBe('invalid_request');
    expect(codeOf(3)).toBe('unknown_channel');
    socket.close();
  });

  it('refuses a handshake without the token, with a wrong one, from another origin or host', async () => {
    await expect(open({ token: null })).rejects.toThrow('refused 401');
    await expect(open({ token: 'wrong' })).rejects.toThrow('refused 401');
    await expect(open({ origin: 'http://evil.test' })).rejects.toThrow('refused 403');
    await expect(open({ origin: 'null' })).rejects.toThrow('refused 403');
    await expect(open({ host: `evil.test:${new URL(server.origin).port}` })).rejects.toThrow(
      'refused 421',
    );
    await expect(open({ path: '/__callbar/other' })).rejects.toThrow('refused 404');
  });

  it('closes on a message over 1 MiB, on one that is not a request, and past 16 under way', async () => {
    const big = await open();
    big.socket.send(
      JSON.stringify({
        id: 1,
        channel: 'app.info',
        body: { pad: 'x'.repeat(CHANNEL_LIMITS.maxMessageBytes) },
      }),
    );
    expect((await big.closed).code).toBe(1009);

    for (const text of ['not json', '[1,2]', '{"id":"1","channel":"app.info"}']) {
      const bad = await open();
      bad.socket.send(text);
      const { code, reason } = await bad.closed;
      expect(code).toBe(1008);
      expect(reason).toContain('JSON');
    }

    const flood = await open();
    for (let id = 0; id <= CHANNEL_LIMITS.maxInFlight * 4; id += 1) {
      flood.socket.send(JSON.stringify({ id, channel: 'settings.get', body: {} }));
    }
    const flooded = await flood.closed;
    expect(flooded.code).toBe(1008);
    expect(flooded.reason).toContain('at once');
  });

  it('holds at most 8 sockets at once', async () => {
    const opened = await Promise.all(
      Array.from({ length: CHANNEL_LIMITS.maxSockets }, () => open()),
    );
    await expect(open()).rejects.toThrow('refused 429');
    for (const { socket } of opened) socket.close();
    await Promise.all(opened.map(({ closed }) => closed));
  });

  it('ends every open channel when the session token is replaced (start address opened twice)', async () => {
    const { closed } = await open();
    const headers = {
      'sec-fetch-site': 'none',
      'sec-fetch-mode': 'navigate',
      'sec-fetch-dest': 'document',
    };
    await fetch(server.browserUrl, { headers, redirect: 'manual' });
    await fetch(server.browserUrl, { headers, redirect: 'manual' });
    expect((await closed).code).toBe(1006);
    await expect(open()).rejects.toThrow('refused 401');
  });
});
