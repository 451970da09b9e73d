/**
 * A sender of single forged call events, for a test that must order them against the platform's
 * own (many at once: the simulator's hostile behaviour, `SimControl.hostileEvents`). It has
 * everything the platform's deliveries carry: the Webhook URL and extra headers registered at the
 * simulator (what a platform relaying anything, or a process that learnt them, has), and POSTs
 * there with node:http, as the platform posts (fetch would add a browser's Sec-Fetch headers).
 */
import { Agent, request as httpRequest } from 'node:http';
import { SimControl } from '../../simulator/control-client';

export interface EventForger {
  /** POSTs one event; resolves with the receiver's status. */
  post(body: unknown): Promise<number>;
  close(): void;
}

export async function eventForger(sim: { base_url: string }): Promise<EventForger> {
  const registration = await new SimControl(sim.base_url).integration('callbar');
  if (!registration.webhook_url) throw new Error('No Webhook URL is registered at the simulator.');
  const url = registration.webhook_url;
  const headers = { 'content-type': 'application/json', ...registration.extra_headers };
  const agent = new Agent({ keepAlive: true });
  const post = (body: unknown) =>
    new Promise<number>((resolve, reject) => {
      const request = httpRequest(url, { method: 'POST', headers, agent });
      request.on('response', (response) => {
        response.resume();
        resolve(response.statusCode ?? 0);
      });
      request.on('error', reject);
      request.end(JSON.stringify(body));
    });
  return { post, close: () => agent.destroy() };
}
