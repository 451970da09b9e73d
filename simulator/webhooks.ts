/**
 * Delivery of call events to the Webhook URLs of the users' active integrations. Events for one
 * URL are sent one after another, in order; each is a JSON POST carrying the registration's extra
 * headers, with the whole event, only its `id`, or its `id` and `sequence` (the configured
 * payload, decided when it happens). A failed delivery is recorded and not retried (the contract
 * does not show retries). Delivered 'out-of-order' (options.ts), the events one change makes
 * together (the engine emits them in one go) are sent last first, then each again.
 */
import type { CallEvent } from './calls';
import type { SimClock } from './clock';
import type { IntegrationRegistry } from './integrations';
import type { CallEventDelivery, CallEventPayload } from './options';
import { postToIntegrator } from './outbound';

export interface WebhookDelivery {
  seq: number;
  time: string;
  slug: string;
  url: string;
  /** What happened (the simulator's whole view of it, whatever was sent). */
  event: CallEvent;
  /** The JSON body that was POSTed: the whole event, or `{id}` with the 'id-only' payload. */
  sent: Record<string, unknown>;
  /** The receiver's status; null if it could not be reached. */
  status: number | null;
  error?: string;
}

export class WebhookDispatcher {
  private readonly queues = new Map<string, Promise<void>>();
  private deliveries: WebhookDelivery[] = [];
  private nextSeq = 1;
  private pending = 0;

  constructor(
    private readonly deps: {
      clock: SimClock;
      integrations: IntegrationRegistry;
      timeoutMs: number;
      signal: AbortSignal;
      log: (line: string) => void;
      payload: () => CallEventPayload;
      delivery?: () => CallEventDelivery;
    },
  ) {}

  /** Events emitted together, held until the engine is done emitting ('out-of-order'). */
  private batch: CallEvent[] | undefined;

  dispatch(event: CallEvent): void {
    if (this.deps.delivery?.() !== 'out-of-order') {
      this.send(event);
      return;
    }
    if (this.batch) {
      this.batch.push(event);
      return;
    }
    const batch = [event];
    this.batch = batch;
    this.pending++;
    queueMicrotask(() => {
      this.batch = undefined;
      this.pending--;
      const lastFirst = batch.reverse();
      for (const each of [...lastFirst, ...lastFirst]) this.send(each);
    });
  }

  private send(event: CallEvent): void {
    const payload = this.deps.payload();
    const sent: Record<string, unknown> =
      payload === 'id-only'
        ? { id: event.id }
        : payload === 'id-sequence'
          ? { id: event.id, sequence: event.sequence }
          : { ...event };
    for (const target of this.deps.integrations.webhookTargets(
      event.tenant_id,
      event.user_extension,
    )) {
      const seq = this.nextSeq++;
      this.pending++;
      const previous = this.queues.get(target.url) ?? Promise.resolve();
      const next = previous.then(async () => {
        const result = await postToIntegrator({
          url: target.url,
          body: JSON.stringify(sent),
          contentType: 'application/json',
          headers: target.headers,
          signing: target.signing,
          timeoutMs: this.deps.timeoutMs,
          signal: this.deps.signal,
        });
        this.pending--;
        const delivery: WebhookDelivery = {
          seq,
          time: this.deps.clock.nowIso(),
          slug: target.slug,
          url: target.url,
          event,
          sent,
          status: result.ok ? result.status : null,
          ...(result.ok ? {} : { error: result.error }),
        };
        this.deliveries.push(delivery);
        if (this.deliveries.length > 10_000) this.deliveries.shift();
        if (!result.ok || result.status < 200 || result.status > 299) {
          this.deps.log(
            `webhook ${event.event} for leg ${event.id} to ${target.slug}: ${result.ok ? `HTTP ${result.status}` : result.error}`,
          );
        }
      });
      this.queues.set(target.url, next);
      void next.finally(() => {
        if (this.queues.get(target.url) === next) this.queues.delete(target.url);
      });
    }
  }

  list(): WebhookDelivery[] {
    return [...this.deliveries].sort((a, b) => a.seq - b.seq);
  }

  /** Deliveries queued or in flight. */
  inFlight(): number {
    return this.pending;
  }

  clear(): void {
    this.deliveries = [];
  }
}
