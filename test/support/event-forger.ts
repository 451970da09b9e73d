/**
 * A sender of forged call events that has everything the platform's deliveries carry: it reads
 * the Webhook URL and extra headers registered at the simulator (what a platform relaying
 * anything, or a process that learnt them, has) and POSTs what it likes there with node:http,
 * as the platform posts (fetch would add a browser's Sec-Fetch headers).
 */
import { Agent, request as httpRequest } from 'node:http';
import { SimControl } from '../../simulator/control-client';

export interface EventForger {
  /** POSTs one event; resolves with the receiver's status. */
  post(body: unknown): Promise<number>;
  /** POSTs every event, `concurrency` at a time; resolves with how many were answered 2xx. */
  postAll(bodies: Iterable<unknown>, concurrency?: number): Promise<number>;
  close(): void;
}

export async function eventForger(sim: { base_url: string }): Promise<EventForger> {
  const registration = await new SimControl(sim.base_url).integration('callbar');
  if (!registration.webhook_url) throw new Error('No Webhook URL is registered at the simulator.');
  const url = registration.webhook_url;
  const headers = { 'content-type': 'application/json', ...registration.extra_headers };
  const agent = new Agent({ keepAlive: true, maxSockets: 16 });
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
  return {
    post,
    async postAll(bodies, concurrency = 8) {
      const queue = [...bodies];
      let accepted = 0;
      const worker = async () => {
        for (let body = queue.shift(); body !== undefined; body = queue.shift()) {
          const status = await post(body);
          if (status >= 200 && status < 300) accepted++;
        }
      };
      await Promise.all(Array.from({ length: concurrency }, worker));
      return accepted;
    },
    close: () => agent.destroy(),
  };
}
