/**
 * Receiver fuzzing: 10,000 generated requests to each of the loopback receiver's endpoints, over
 * real HTTP, against the real AccountService handlers. Each request is built from independent
 * choices (method, Host, browser headers, shared secret, content type, body); the generator knows
 * which choices are the valid ones, so it knows whether the request as a whole is valid without
 * asking the code under test. Invalid requests get a 4xx (never a 5xx, never a crash) and change
 * nothing: the vault, the account state and the pending attempt are compared after each batch,
 * and only valid call events (each with its own id) reach the listeners. Then 200 concurrent
 * connections (slow bodies, slow headers, garbage) while valid requests must still be answered.
 */
import { Agent, request as httpRequest } from 'node:http';
import { connect, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SeededRandom } from '../../simulator/random';
import type { AccountStatus } from '../../src-shared/contract';
import { AccountService, refusalHint } from '../../src-main/core/account/account-service';
import {
  MAX_BODY_BYTES,
  startReceiver,
  type RunningReceiver,
} from '../../src-main/core/account/receiver';
import { silentLogger } from '../../src-main/core/log/logger';
import { MemoryVault } from '../../src-main/core/vault/memory-vault';
import { recordFigure } from '../support/hardening/figures';
import {
  deeplyNested,
  fuzzRandom,
  percentEncoded,
  POLLUTING_KEYS,
  randomText,
} from '../support/hardening/hostile-values';
import { heapMiB } from '../support/hardening/heap';

const REQUESTS_PER_ENDPOINT = Number(process.env.CALLBAR_FUZZ_REQUESTS ?? 10_000);
/** Forged activation calls without the attempt's key (a fifth of a batch). */
const FORGED_ACTIVATIONS = Math.ceil(REQUESTS_PER_ENDPOINT / 5);
const REFUSED = "The platform's activation reached Callbar but was refused:";
const CONCURRENCY = 24;
const SECRET_HEADER = 'x-callbar-secret';
const SECRET = 'shared-secret-value-9f2c';

interface Generated {
  method: string;
  path: string;
  headers: Record<string, string>;
  /** Leave the Host header out altogether. */
  noHost: boolean;
  body: string;
  /** Declare more bytes than are sent (the receiver must time the body out). */
  shortBody: boolean;
  valid: boolean;
  /** The call event id a valid /events request carries. */
  eventId?: string;
}

interface Answer {
  status: number;
  /** The start of the answer's text, to say why a request was refused. */
  text?: string;
}

function send(port: number, agent: Agent, generated: Generated): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string | number> = { ...generated.headers };
    const bytes = Buffer.from(generated.body, 'utf8');
    if (generated.body !== '' || generated.method === 'POST') {
      headers['content-length'] = bytes.length + (generated.shortBody ? 10 : 0);
    }
    const req = httpRequest({
      host: '127.0.0.1',
      port,
      // A body shorter than its Content-Length would swallow the start of the next request on a
      // shared connection (the lie corrupts only the liar's own connection): its own connection.
      agent: generated.shortBody ? false : agent,
      method: generated.method,
      path: generated.path,
      headers,
      setHost: !generated.noHost && headers.host === undefined,
    });
    req.setTimeout(15_000, () => {
      resolve({ status: 0 });
      req.destroy();
    });
    req.on('response', (res) => {
      let text = '';
      res.on('data', (chunk: Buffer) => {
        if (text.length < 100) text += chunk.toString();
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
      res.on('error', () => resolve({ status: -1 }));
    });
    req.on('error', (error: NodeJS.ErrnoException) => {
      // An oversized or timed-out body is answered and the connection closed before the client
      // finished writing: a refusal, seen from this side as a reset.
      if (['ECONNRESET', 'EPIPE', 'ECONNREFUSED'].includes(error.code ?? '')) {
        resolve({ status: -1 });
      } else reject(error);
    });
    req.end(bytes);
  });
}

/** The request generator for one endpoint; `validKey` is used only in requests made invalid. */
function generator(
  random: SeededRandom,
  port: number,
  path: '/activate' | '/deactivate' | '/events' | '/done' | '/connect',
  pendingKey: () => string,
  wrongKey: () => string,
) {
  let serial = 0;
  const ownHosts = [`127.0.0.1:${port}`, `localhost:${port}`];
  const foreignHosts = [
    `attacker.example:${port}`,
    `127.0.0.1.attacker.example:${port}`,
    `127.0.0.1:${port + 1}`,
    `127.0.0.1`,
    `localhost`,
    `[::1]:${port}`,
    `0.0.0.0:${port}`,
    `LOCALHOST:${port}x`,
  ];
  const isGet = path === '/done' || path === '/connect';

  return (): Generated => {
    serial++;
    let valid = true;
    const spoil = <T>(good: () => T, bad: () => T, badChance: number): T => {
      if (random.chance(badChance)) {
        valid = false;
        return bad();
      }
      return good();
    };
    const method = spoil(
      () => (isGet ? 'GET' : 'POST'),
      () =>
        random.pick(
          [
            'GET',
            'PUT',
            'DELETE',
            'PATCH',
            'OPTIONS',
            'HEAD',
            'POST',
            'PROPFIND',
            'CONNECT',
          ].filter((each) => each !== (isGet ? 'GET' : 'POST')),
        ),
      0.1,
    );
    let noHost = false;
    const host = spoil(
      () => random.pick(ownHosts),
      () => {
        if (random.chance(0.2)) noHost = true;
        return random.pick(foreignHosts);
      },
      0.1,
    );
    const headers: Record<string, string> = { host };
    if (noHost) delete headers.host;
    if (!isGet) {
      spoil(
        () => undefined,
        () => {
          const [name, value] = random.pick([
            ['origin', 'https://attacker.example'],
            ['origin', 'null'],
            ['origin', `http://127.0.0.1:${port}`],
            ['sec-fetch-site', 'cross-site'],
            ['sec-fetch-site', 'same-origin'],
            ['sec-fetch-dest', 'document'],
            ['sec-fetch-user', '?1'],
          ] as const);
          headers[name] = value;
        },
        0.1,
      );
      const secret = spoil(
        () => SECRET,
        () => random.pick(['', SECRET.slice(0, -1), `${SECRET}x`, SECRET.toUpperCase(), 'Ω']),
        0.1,
      );
      if (secret !== '') headers[SECRET_HEADER] = Buffer.from(secret).toString('latin1');
      else valid = false;
      const type = spoil(
        () =>
          random.pick([
            'application/json',
            'application/json; charset=utf-8',
            'APPLICATION/JSON',
            'application/x-www-form-urlencoded',
          ]),
        () =>
          random.pick([
            'text/plain',
            'multipart/form-data; boundary=x',
            'application/xml',
            'application/jsonx',
            'json',
            '',
          ]),
        0.1,
      );
      if (type !== '') headers['content-type'] = type;
    }
    for (let i = random.int(0, 2); i > 0; i--) {
      headers[`x-fuzz-${i}`] = random.pick(['1', 'a'.repeat(random.int(1, 4000)), '\t ']);
    }
    let requestPath = path as string;
    const pathRoll = random.next();
    if (path === '/done') {
      requestPath = `/done?attempt=${percentEncoded(randomText(random, random.int(0, 40)))}`;
    } else if (path === '/connect') {
      // Never the attempt's own nonce: these are all guesses, so none may start the portal.
      requestPath = `/connect/${percentEncoded(randomText(random, random.int(0, 60)))}`;
    } else if (pathRoll < 0.05) {
      valid = false;
      requestPath = random.pick([`${path}/`, `${path}/..`, `${path.toUpperCase()}`, `//${path}`]);
    } else if (pathRoll < 0.1) {
      requestPath = `${path}?${randomText(random, 5).replace(/[^\w]/g, '')}=1`;
    }
    const form = (headers['content-type'] ?? '').toLowerCase().includes('form');
    const fields = (): Record<string, unknown> =>
      path === '/events'
        ? {
            id: `event-${serial}`,
            state: random.pick(['ringing', 'answered', randomText(random, 5)]),
          }
        : {
            tenant_id: random.chance(0.5) ? 'acme-7f3a' : randomText(random, random.int(1, 20)),
            user_extension: '201',
            // The pending attempt's key only in a request spoilt otherwise: a valid handshake
            // would connect or disconnect.
            confirmation_key: valid ? random.pick([wrongKey(), '']) : pendingKey(),
            access_token: 'AT-fuzz',
            refresh_token: 'RT-fuzz',
          };
    const encode = (value: Record<string, unknown>) =>
      form
        ? new URLSearchParams(
            Object.entries(value).map(([key, each]) => [key, String(each)]),
          ).toString()
        : JSON.stringify(value);
    let shortBody = false;
    let body = '';
    if (!isGet) {
      body = spoil(
        () => encode(fields()),
        () => {
          const good = fields();
          switch (random.int(0, 11)) {
            case 0:
              // Truncated (a cut form body could still be whole fields: cut inside the first).
              return encode(good).slice(0, form ? random.int(0, 2) : random.int(0, 20));
            case 1:
              return encode({ ...good, pad: 'x'.repeat(MAX_BODY_BYTES) });
            case 2:
              return deeplyNested(random.int(100, 5000));
            case 3: {
              // A field that must be a non-empty string (a deactivation's tokens may be empty).
              const key = random.pick(
                Object.keys(good).filter((name) => !name.endsWith('_token') && name !== 'state'),
              );
              const wrong = form ? '' : random.pick([null, 7, [], {}, true, '']);
              return encode({ ...good, [key]: wrong });
            }
            case 4: {
              const key = random.pick(
                Object.keys(good).filter((name) => !name.endsWith('_token') && name !== 'state'),
              );
              const rest = { ...good };
              delete rest[key];
              return encode(rest);
            }
            case 5:
              // Form/JSON confusion: the other encoding than the content type says.
              return form ? JSON.stringify(good) : new URLSearchParams({ json: 'x' }).toString();
            case 6:
              // A repeated form field; for JSON, an unclosed array around the object.
              return form
                ? `${encode(good)}&${Object.keys(good)[0]}=${percentEncoded(randomText(random, 4))}`
                : `[${encode(good)}`;
            case 7:
              return JSON.stringify([good]);
            case 8:
              return randomText(random, random.int(0, 300));
            case 9: {
              const key = random.pick(POLLUTING_KEYS);
              return form
                ? `${key}[polluted]=1&${key}=x`
                : `{"${key}":{"polluted":1},"id":{"__proto__":{"polluted":1}}}`;
            }
            case 10:
              shortBody = true;
              return encode(good);
            default:
              return '';
          }
        },
        0.3,
      );
    }
    // The handshake endpoints are never valid here: a valid one would connect or disconnect.
    if (path === '/activate' || path === '/deactivate') valid = false;
    return {
      method,
      path: requestPath,
      headers,
      noHost,
      body,
      shortBody,
      valid: valid && (path === '/events' || isGet),
      ...(valid && path === '/events' ? { eventId: `event-${serial}` } : {}),
    };
  };
}

/**
 * Keys a guesser would try next to the attempt's own: cut, lengthened, its last character changed
 * (never to itself: a key ending in "A" made a guess of the real key, one run in 64), made up.
 */
function nearKeys(key: string): string[] {
  const last = key.endsWith('A') ? 'B' : 'A';
  return [key.slice(1), `${key}A`, `${key.slice(0, -1)}${last}`, 'guessed-key'];
}

describe('the loopback receiver under 10,000 generated requests per endpoint', () => {
  const vault = new MemoryVault();
  const account = new AccountService({
    settings: {
      base_url: 'http://127.0.0.1:9',
      portal_url: 'http://127.0.0.1:9/portal',
      slug: 'callbar',
      receiver_port: 0,
      client_id: 'client-1',
    },
    clientSecret: 'client-secret-1',
    vault,
    log: silentLogger,
  });
  let receiver: RunningReceiver;
  let key: string;
  const delivered: string[] = [];
  const agent = new Agent({ keepAlive: true, maxSockets: CONCURRENCY });

  beforeAll(async () => {
    await account.start();
    account.onCallEvent((event) => delivered.push(event.id));
    receiver = await startReceiver({
      port: 0,
      handlers: account.receiverHandlers,
      auth: () => ({
        headers: { [SECRET_HEADER]: SECRET },
        secret: undefined,
        acceptUnauthenticated: false,
      }),
      bodyTimeoutMs: 300,
      log: silentLogger,
    });
    const started = await account.startActivation();
    started.completion.catch(() => undefined);
    key = new URL(started.portalLink).searchParams.get('confirmation_key')!;
  });
  afterAll(async () => {
    agent.destroy();
    await receiver.close();
    await account.close();
  });

  const state = async () => ({
    vault: await vault.load(),
    status: account.status(),
  });
  /** `status` with the refusal line the account shows now, if it is one. */
  const withRefusalLine = (status: AccountStatus): AccountStatus => {
    const { message } = account.status();
    if (!message?.startsWith(REFUSED) || !message.endsWith(refusalHint())) return status;
    return { ...status, message };
  };

  it("/activate without the attempt's key (forged, fuzzed, slow): the status message never changes", async () => {
    const random = fuzzRandom(7);
    const guessed = () => random.pick([...nearKeys(key), '']);
    // Every request carries a wrong key; otherwise each is spoilt as in the batches below.
    const next = generator(random, receiver.port, '/activate', guessed, guessed);
    const before = await state();
    expect(before.status).toEqual({ state: 'activating' });
    const statuses = new Map<number, number>();
    let index = 0;
    const worker = async () => {
      while (index < FORGED_ACTIVATIONS) {
        index++;
        const { status } = await send(receiver.port, agent, next());
        statuses.set(status, (statuses.get(status) ?? 0) + 1);
      }
    };
    await Promise.all(Array.from({ length: CONCURRENCY }, worker));
    expect(await state()).toEqual(before);
    const summary = [...statuses.entries()]
      .sort(([a], [b]) => a - b)
      .map(([status, count]) => `${status === -1 ? 'reset' : status}×${count}`)
      .join(' ');
    recordFigure(
      `receiver /activate: ${FORGED_ACTIVATIONS} forged calls without the attempt's key`,
      `status message unchanged (no refusal line shown); ${summary}`,
    );
  });

  for (const [salt, path] of (
    ['/activate', '/deactivate', '/events', '/done', '/connect'] as const
  ).entries()) {
    it(`${path}: refused unless valid, no 5xx, no state change, memory stable`, async () => {
      const random = fuzzRandom(salt);
      const next = generator(
        random,
        receiver.port,
        path,
        () => key,
        () => random.pick(nearKeys(key)),
      );
      const before = await state();
      const eventsBefore = delivered.length;
      const expectedEvents: string[] = [];
      const statuses = new Map<number, number>();
      const unexpected: string[] = [];
      const heapBefore = heapMiB();
      const started = performance.now();
      let index = 0;
      let validCount = 0;
      const worker = async () => {
        while (index < REQUESTS_PER_ENDPOINT) {
          const mine = index++;
          const generated = next();
          const { status, text } = await send(receiver.port, agent, generated);
          statuses.set(status, (statuses.get(status) ?? 0) + 1);
          if (generated.eventId) expectedEvents.push(generated.eventId);
          if (generated.valid) validCount++;
          const ok = status >= 200 && status < 400;
          const fine = generated.valid
            ? ok || (path === '/done' || path === '/connect' ? status === 400 : false)
            : !ok && status < 500;
          if (!fine && unexpected.length < 5) {
            unexpected.push(
              `#${mine} ${status} ${text}: ${generated.method} ${generated.path.slice(0, 60)} ${JSON.stringify(generated.headers).slice(0, 200)} ${generated.body.slice(0, 120)}`,
            );
          }
        }
      };
      await Promise.all(Array.from({ length: CONCURRENCY }, worker));
      const seconds = (performance.now() - started) / 1000;
      const heapGrowth = heapMiB() - heapBefore;

      expect(unexpected, `seed ${String(process.env.CALLBAR_FUZZ_SEED ?? 19)}`).toEqual([]);
      expect([...statuses.keys()].filter((status) => status >= 500)).toEqual([]);
      // A spoilt activation call that carries the attempt's key and arrived whole is the
      // platform's, as far as the receiver can tell: its refusal may be said (one line).
      expect(await state()).toEqual(
        path === '/activate' ? { ...before, status: withRefusalLine(before.status) } : before,
      );
      expect(delivered.slice(eventsBefore).sort()).toEqual(expectedEvents.sort());
      expect(heapGrowth).toBeLessThan(32);

      const summary = [...statuses.entries()]
        .sort(([a], [b]) => a - b)
        .map(([status, count]) => `${status === -1 ? 'reset' : status}×${count}`)
        .join(' ');
      recordFigure(
        `receiver ${path}: ${REQUESTS_PER_ENDPOINT} fuzzed requests`,
        `${Math.round(REQUESTS_PER_ENDPOINT / seconds)} req/s, heap ${heapGrowth >= 0 ? '+' : ''}${heapGrowth.toFixed(1)} MiB, ${validCount} valid, ${summary}`,
      );
    });
  }

  it('keeps answering valid requests while 200 connections dribble, stall or send garbage', async () => {
    const sockets: Socket[] = [];
    const random = fuzzRandom(99);
    const open = () =>
      new Promise<Socket>((resolve, reject) => {
        const socket = connect(receiver.port, '127.0.0.1', () => resolve(socket));
        socket.on('error', () => undefined);
        socket.once('error', reject);
      });
    for (let i = 0; i < 200; i++) {
      const socket = await open();
      sockets.push(socket);
      const kind = i % 4;
      if (kind === 0) {
        // Slow headers: never finishes them.
        socket.write(`POST /events HTTP/1.1\r\nHost: 127.0.0.1:${receiver.port}\r\n`);
      } else if (kind === 1) {
        // A slow body: promises 10 KiB, sends a few bytes.
        socket.write(
          `POST /events HTTP/1.1\r\nHost: 127.0.0.1:${receiver.port}\r\ncontent-type: application/json\r\n${SECRET_HEADER}: ${SECRET}\r\ncontent-length: 10000\r\n\r\n{"id":`,
        );
      } else if (kind === 2) {
        socket.write(randomText(random, 200));
      }
      // kind 3: connects and says nothing.
    }
    const dribble = setInterval(() => {
      for (const socket of sockets) if (!socket.destroyed) socket.write(' ');
    }, 100);
    try {
      const valid = async (n: number) => {
        const answer = await send(receiver.port, new Agent({ keepAlive: false }), {
          method: 'POST',
          path: '/events',
          headers: {
            host: `127.0.0.1:${receiver.port}`,
            'content-type': 'application/json',
            [SECRET_HEADER]: SECRET,
          },
          noHost: false,
          body: JSON.stringify({ id: `during-storm-${n}` }),
          shortBody: false,
          valid: true,
        });
        return answer.status;
      };
      const started = performance.now();
      const answers = await Promise.all(Array.from({ length: 20 }, (_, n) => valid(n)));
      const ms = performance.now() - started;
      expect(answers).toEqual(Array.from({ length: 20 }, () => 200));
      expect(delivered.filter((id) => id.startsWith('during-storm-')).length).toBe(20);
      recordFigure(
        'receiver with 200 slow/stalled/garbage connections',
        `20 of 20 valid events answered 200 (${Math.round(ms)} ms for all)`,
      );
    } finally {
      clearInterval(dribble);
      for (const socket of sockets) socket.destroy();
    }
  });

  it('still completes a real activation afterwards (the positive control)', async () => {
    const answer = await send(receiver.port, agent, {
      method: 'POST',
      path: '/activate',
      headers: {
        host: `127.0.0.1:${receiver.port}`,
        'content-type': 'application/json',
        [SECRET_HEADER]: SECRET,
      },
      noHost: false,
      body: JSON.stringify({
        tenant_id: 'acme-7f3a',
        user_extension: '201',
        confirmation_key: key,
        access_token: 'AT-real',
        refresh_token: 'RT-real',
      }),
      shortBody: false,
      valid: true,
    });
    expect(answer.status).toBe(200);
    expect((await vault.load())?.access_token).toBe('AT-real');
    expect(account.status().state).toBe('connected');
  });
});
