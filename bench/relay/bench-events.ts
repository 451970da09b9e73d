/**
 * The relay bench's call events: the platform's side (POSTs to the Webhook URL, as a flood or
 * paced at a rate, each repeated at the other node until one answers 200, as a platform that
 * retries does: the same event, the same id) and the ledger that counts them by id. Every event
 * has an id of its own and names one light device's user; the ledger keeps how often each id
 * reached a device, so an event is counted once however often it came, a second arrival of the
 * same id is a duplicate, an accepted id that never came is lost, and an event that reached a
 * device it did not name is misrouted.
 */
import { Agent, request } from 'node:http';

export interface PhaseCount {
  /** Events of the phase the relay accepted (200), each once. */
  accepted: number;
  /** Accepted, never delivered. */
  lost: number;
  /** Deliveries beyond the first of the same id. */
  duplicated: number;
  /** Deliveries to a device the event did not name. */
  misrouted: number;
  /** POSTs that were answered other than 200 or failed, and were repeated. */
  retried: number;
  /** Events the platform gave up on (no node took them within a minute; delivered or not). */
  given_up: number;
}

interface Sent {
  phase: string;
  device: number;
  /** When the platform first POSTed it (ms). */
  at: number;
  accepted: boolean;
}

export class EventLedger {
  readonly #sent = new Map<string, Sent>();
  readonly #receipts = new Map<string, number>();
  readonly #latencies = new Map<string, number[]>();
  readonly #retried = new Map<string, number>();
  #misrouted = new Map<string, number>();
  /** Ids that reached a device and were never sent (a forged or mangled event). */
  unknown = 0;
  /** When the last first delivery of an id happened (ms). */
  lastDelivery = 0;

  sending(id: string, phase: string, device: number, at: number): void {
    this.#sent.set(id, { phase, device, at, accepted: false });
  }

  accepted(id: string): void {
    this.#sent.get(id)!.accepted = true;
  }

  retried(phase: string): void {
    this.#retried.set(phase, (this.#retried.get(phase) ?? 0) + 1);
  }

  /** Device `device` got the event with `id`. */
  delivered(device: number, id: string): void {
    const sent = this.#sent.get(id);
    if (!sent) {
      this.unknown += 1;
      return;
    }
    if (sent.device !== device) {
      this.#misrouted.set(sent.phase, (this.#misrouted.get(sent.phase) ?? 0) + 1);
    }
    const times = (this.#receipts.get(id) ?? 0) + 1;
    this.#receipts.set(id, times);
    if (times === 1) {
      const now = Date.now();
      this.lastDelivery = now;
      let latencies = this.#latencies.get(sent.phase);
      if (!latencies) this.#latencies.set(sent.phase, (latencies = []));
      latencies.push(now - sent.at);
    }
  }

  /** The first deliveries of the phase's events, platform's first POST → device (ms). */
  latencies(phase: string): number[] {
    return this.#latencies.get(phase) ?? [];
  }

  /** Every accepted event of `phases` delivered at least once. */
  complete(...phases: string[]): boolean {
    for (const [id, sent] of this.#sent) {
      if (phases.includes(sent.phase) && sent.accepted && !this.#receipts.has(id)) return false;
    }
    return true;
  }

  count(phase: string): PhaseCount {
    const count: PhaseCount = {
      accepted: 0,
      lost: 0,
      duplicated: 0,
      misrouted: this.#misrouted.get(phase) ?? 0,
      retried: this.#retried.get(phase) ?? 0,
      given_up: 0,
    };
    for (const [id, sent] of this.#sent) {
      if (sent.phase !== phase) continue;
      const times = this.#receipts.get(id) ?? 0;
      count.duplicated += Math.max(0, times - 1);
      if (!sent.accepted) count.given_up += 1;
      else if (times === 0) count.lost += 1;
      if (sent.accepted) count.accepted += 1;
    }
    return count;
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * The platform's connections, kept open between its calls (a platform that posts a thousand
 * events a second does not open a connection for each): node:http with a keep-alive agent, the
 * cheapest client for the bench's own process, which holds the 10,000 devices too.
 */
const agent = new Agent({ keepAlive: true, maxSockets: 1024, maxFreeSockets: 1024 });

/** POSTs `body` to `url`: the status, or 0 when the request failed or took `timeoutMs`. */
function postJson(url: string, body: string, timeoutMs: number): Promise<number> {
  return new Promise((resolve) => {
    const req = request(url, {
      method: 'POST',
      agent,
      headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
      timeout: timeoutMs,
    });
    req.on('timeout', () => req.destroy(new Error('timed out')));
    req.on('error', () => resolve(0));
    req.on('response', (response) => {
      response.resume();
      response.on('end', () => resolve(response.statusCode ?? 0));
      response.on('error', () => resolve(0));
    });
    req.end(body);
  });
}

/** How long the platform keeps repeating one event. */
const GIVE_UP_MS = 60_000;

export interface BenchPlatform {
  /** POSTs `count` events, `concurrency` at a time, as fast as the relay takes them. */
  flood(phase: string, count: number, concurrency?: number): Promise<void>;
  /**
   * POSTs `perSecond` events a second for `seconds` (at most `inFlight` unanswered); calls
   * `during` once, `atSecond` seconds in. The rate it reached (events a second).
   */
  paced(
    phase: string,
    perSecond: number,
    seconds: number,
    during?: { atSecond: number; run: () => Promise<unknown> },
  ): Promise<number>;
}

export function benchPlatform(options: {
  /** The nodes' origins; events go to each in turn, a repeat to the next. */
  origins: () => string[];
  secret: string;
  tenant: string;
  devices: number;
  extension: (device: number) => string;
  ledger: EventLedger;
}): BenchPlatform {
  const { ledger } = options;
  let sequence = 0;
  const post = async (phase: string) => {
    const number = sequence++;
    const id = `${phase}-${number}`;
    const device = number % options.devices;
    const at = Date.now();
    ledger.sending(id, phase, device, at);
    const body = JSON.stringify({
      id,
      tenant_id: options.tenant,
      user_extension: options.extension(device),
      sent_at: String(at),
    });
    for (let attempt = 0; Date.now() - at < GIVE_UP_MS; attempt += 1) {
      const origins = options.origins();
      const origin = origins[(number + attempt) % origins.length]!;
      const status = await postJson(`${origin}/events/${options.secret}`, body, 15_000);
      if (status === 200) {
        ledger.accepted(id);
        return;
      }
      // 408 (a node too busy to read the request in time) and 429 are worth another try.
      if (status >= 400 && status < 500 && status !== 408 && status !== 429) {
        throw new Error(`the relay refused the bench's event (${status})`);
      }
      ledger.retried(phase);
      await sleep(Math.min(1000, 50 * 2 ** attempt));
    }
  };
  return {
    flood: async (phase, count, concurrency = 32) => {
      let left = count;
      const worker = async () => {
        while (left > 0) {
          left -= 1;
          await post(phase);
        }
      };
      await Promise.all(Array.from({ length: concurrency }, worker));
    },
    paced: async (phase, perSecond, seconds, during) => {
      const total = Math.round(perSecond * seconds);
      const inFlight = new Set<Promise<void>>();
      /** Called when a POST is answered (a slot frees up). */
      let freed: (() => void) | undefined;
      const started = Date.now();
      let issued = 0;
      let lastIssued = started;
      let duringRun: Promise<unknown> | undefined;
      while (issued < total) {
        const elapsed = Date.now() - started;
        if (during && !duringRun && elapsed >= during.atSecond * 1000) duringRun = during.run();
        const due = Math.min(total, Math.floor((elapsed * perSecond) / 1000) + 1);
        while (issued < due && inFlight.size < MAX_IN_FLIGHT) {
          const posting = post(phase).finally(() => {
            inFlight.delete(posting);
            freed?.();
          });
          inFlight.add(posting);
          issued += 1;
          lastIssued = Date.now();
        }
        // A slot frees up, or the next event is due. (Not Promise.race over the POSTs in
        // flight: at 512 of them, each turn added 512 reactions, and the bench's own CPU went
        // to that while the relay fell behind.)
        if (inFlight.size >= MAX_IN_FLIGHT) {
          await new Promise<void>((resolve) => (freed = resolve));
          freed = undefined;
        } else {
          await sleep(Math.max(1, started + (issued * 1000) / perSecond - Date.now()));
        }
      }
      await Promise.all(inFlight);
      await (duringRun ?? during?.run());
      return Math.round(total / Math.max(0.001, (lastIssued - started) / 1000));
    },
  };
}

/** The platform's POSTs waiting for an answer at once, at most (a paced run that falls behind). */
const MAX_IN_FLIGHT = 512;
