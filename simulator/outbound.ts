/**
 * Calls from the platform to the integrator (Activation, Deactivation and Webhook URLs), made the
 * way a server-side HTTP client makes them: node:http/https, a fresh connection per call, no
 * redirects followed, a timeout, nothing a browser would add (no Origin, no Sec-Fetch-*). Node's
 * fetch is not used on purpose: it sends `sec-fetch-mode: cors`, which a careful receiver refuses
 * as browser-originated.
 */
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { signatureHeaders, type DeliverySigning } from './signed-deliveries';

export type OutboundResult =
  | { ok: true; status: number; text: string }
  | { ok: false; error: string };

export interface OutboundPost {
  url: string;
  body: string;
  contentType: string;
  headers: Record<string, string>;
  timeoutMs: number;
  signal: AbortSignal;
  /** The registration's body signature, if it signs. */
  signing?: DeliverySigning | null;
}

const MAX_RESPONSE_BYTES = 64 * 1024;
export const USER_AGENT = 'platform-simulator/1.0 (+callbar)';

export function postToIntegrator(post: OutboundPost): Promise<OutboundResult> {
  return new Promise((resolve) => {
    let url: URL;
    try {
      url = new URL(post.url);
    } catch {
      resolve({ ok: false, error: `invalid URL ${post.url}` });
      return;
    }
    const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
    const body = Buffer.from(post.body);
    let settled = false;
    const finish = (result: OutboundResult) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      post.signal.removeEventListener('abort', onAbort);
      resolve(result);
    };
    const request = send(url, {
      method: 'POST',
      agent: false,
      headers: {
        accept: '*/*',
        'user-agent': USER_AGENT,
        ...post.headers,
        ...signatureHeaders(post.signing, body),
        'content-type': post.contentType,
        'content-length': String(body.length),
      },
    });
    const timer = setTimeout(() => {
      request.destroy();
      finish({ ok: false, error: `no answer within ${post.timeoutMs} ms` });
    }, post.timeoutMs);
    timer.unref();
    const onAbort = () => {
      request.destroy();
      finish({ ok: false, error: 'the simulator is shutting down' });
    };
    // Before any destroy: a request destroyed before its socket emits 'error' (socket hang up).
    request.on('error', (error) => finish({ ok: false, error: error.message }));
    if (post.signal.aborted) {
      onAbort();
      return;
    }
    post.signal.addEventListener('abort', onAbort);
    request.on('response', (response) => {
      const chunks: Buffer[] = [];
      let size = 0;
      response.on('data', (chunk: Buffer) => {
        if (size < MAX_RESPONSE_BYTES) chunks.push(chunk);
        size += chunk.length;
      });
      response.on('end', () =>
        finish({
          ok: true,
          status: response.statusCode ?? 0,
          text: Buffer.concat(chunks).toString('utf8').slice(0, MAX_RESPONSE_BYTES),
        }),
      );
      response.on('error', (error) => finish({ ok: false, error: error.message }));
    });
    request.end(body);
  });
}
