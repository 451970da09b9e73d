/**
 * A relay between Callbar and the simulator, so a test knows the moment the platform has rotated
 * a refresh token (its answer is in hand, the old refresh token already spent) and can act before
 * or after the answer reaches Callbar, or the moment a refresh left Callbar (before the platform
 * has it). Everything else passes through unchanged.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

const TOKEN_PATH = '/v3/oauth/token/';

export interface RotatedPair {
  refresh_token: string;
  /** Lets the answer go on to Callbar; until it is called Callbar waits for it. */
  deliver: () => void;
}

export interface PlatformRelay {
  /** The relay's address: Callbar's base URL. */
  url: string;
  /**
   * Called when a refresh reached the relay, before the platform has it: resolving false drops
   * it (the platform never sees it, Callbar's connection is cut); the default sends it on.
   */
  onRefreshRequest: () => boolean | Promise<boolean>;
  /** Called when the platform answered a refresh with a new pair (the default delivers it). */
  onRotated: (pair: RotatedPair) => void;
  /** Resolves once every request that reached the relay has its platform answer. */
  idle(): Promise<void>;
  close(): Promise<void>;
}

export async function startPlatformRelay(target: string): Promise<PlatformRelay> {
  let inFlight = 0;
  const idleWaiters: (() => void)[] = [];
  const settled = () => {
    inFlight -= 1;
    if (inFlight === 0) for (const resolve of idleWaiters.splice(0)) resolve();
  };
  const relay: PlatformRelay = {
    url: '',
    onRefreshRequest: () => true,
    onRotated: (pair) => pair.deliver(),
    idle: () =>
      inFlight === 0 ? Promise.resolve() : new Promise((resolve) => idleWaiters.push(resolve)),
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };

  const forward = async (request: IncomingMessage, response: ServerResponse) => {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const headers = new Headers();
    for (const [name, value] of Object.entries(request.headers)) {
      if (typeof value === 'string' && !['host', 'connection', 'content-length'].includes(name)) {
        headers.set(name, value);
      }
    }
    if (request.url === TOKEN_PATH && !(await relay.onRefreshRequest())) {
      response.destroy();
      return;
    }
    const answer = await fetch(new URL(request.url ?? '/', target), {
      method: request.method ?? 'GET',
      headers,
      body: chunks.length > 0 ? Buffer.concat(chunks) : null,
    });
    const body = Buffer.from(await answer.arrayBuffer());
    const send = () => {
      if (response.destroyed) return;
      response.writeHead(answer.status, Object.fromEntries(answer.headers));
      response.end(body);
    };
    if (request.url === TOKEN_PATH && answer.status === 200) {
      const { refresh_token } = JSON.parse(body.toString('utf8')) as { refresh_token: string };
      relay.onRotated({ refresh_token, deliver: send });
    } else send();
  };

  const server = createServer((request, response) => {
    // Settled once the platform's answer is in hand (a rotation is reported before that).
    inFlight += 1;
    forward(request, response)
      .catch(() => response.destroy())
      .finally(settled);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  relay.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return relay;
}
