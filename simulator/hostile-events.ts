/**
 * Hostile call events on demand (issue 24 items 2 and 5), POSTed the way the platform posts its
 * own (to the user's active Webhook URLs, with the registration's extra headers): `forged-legs`
 * sends `{id}` events of leg ids no call has, `flood` sends big events spread over made-up calls.
 * Started by the control API, they run in the background, `concurrency` at a time; the tally
 * (the receiver's answers by status) is read back until it says done.
 */
import { setMaxListeners } from 'node:events';
import { z } from 'zod';
import type { IntegrationRegistry } from './integrations';
import { postToIntegrator } from './outbound';

export const HostileEventsInput = z.strictObject({
  tenant_id: z.string().min(1),
  user_extension: z.string().min(1),
  kind: z.enum(['forged-legs', 'flood']),
  count: z.number().int().min(1).max(100_000),
  /** flood: padding per event, in bytes (the receiver takes events up to its size limit). */
  pad_bytes: z.number().int().min(0).max(1_000_000).default(15_000),
  /** flood: how many made-up calls the events are spread over. */
  calls: z.number().int().min(1).max(10_000).default(120),
  concurrency: z.number().int().min(1).max(64).default(16),
});
export type HostileEventsInput = z.input<typeof HostileEventsInput>;

export interface HostileTally {
  kind: 'forged-legs' | 'flood';
  count: number;
  sent: number;
  /** The receiver's answers by status; `error` when it could not be reached. */
  statuses: Record<string, number>;
  done: boolean;
}

/** The events one attack sends, in order, made one at a time (a flood is not held in memory). */
export function* hostileEvents(input: z.output<typeof HostileEventsInput>): Generator<unknown> {
  // The padding in fields of at most 1,000 characters, as a receiver bounds each string.
  const pad = Object.fromEntries(
    Array.from({ length: Math.ceil(input.pad_bytes / 1000) }, (_, i) => [
      `pad${i}`,
      'x'.repeat(Math.min(1000, input.pad_bytes - i * 1000)),
    ]),
  );
  for (let i = 0; i < input.count; i++) {
    yield input.kind === 'forged-legs'
      ? { id: `leg_forged_${i}` }
      : {
          id: `leg_flood_${i % input.calls}`,
          call_id: `call_flood_${i % input.calls}`,
          direction: 'inbound',
          state: 'ringing',
          sequence: i,
          ...pad,
        };
  }
}

export class HostileEvents {
  private current: HostileTally | null = null;

  constructor(
    private readonly deps: {
      integrations: IntegrationRegistry;
      timeoutMs: number;
      signal: AbortSignal;
    },
  ) {}

  /** Starts an attack on the user's Webhook URLs; undefined when the user has none active. */
  start(input: z.output<typeof HostileEventsInput>): HostileTally | undefined {
    const targets = this.deps.integrations.webhookTargets(input.tenant_id, input.user_extension);
    if (targets.length === 0) return undefined;
    const tally: HostileTally = {
      kind: input.kind,
      count: input.count,
      sent: 0,
      statuses: {},
      done: false,
    };
    this.current = tally;
    const events = hostileEvents(input);
    const worker = async () => {
      for (let next = events.next(); !next.done; next = events.next()) {
        const body = JSON.stringify(next.value);
        for (const target of targets) {
          const result = await postToIntegrator({
            url: target.url,
            body,
            contentType: 'application/json',
            headers: target.headers,
            timeoutMs: this.deps.timeoutMs,
            signal: this.deps.signal,
          });
          const status = result.ok ? String(result.status) : 'error';
          tally.sent++;
          tally.statuses[status] = (tally.statuses[status] ?? 0) + 1;
        }
      }
    };
    // Each worker's request listens for the simulator's shutdown (and stops listening when it
    // ends): up to `concurrency` at once, past Node's warning at 10.
    setMaxListeners(input.concurrency + 10, this.deps.signal);
    void Promise.all(Array.from({ length: input.concurrency }, worker)).then(() => {
      tally.done = true;
    });
    return { ...tally };
  }

  /** The latest attack's tally (null before any). */
  tally(): HostileTally | null {
    return this.current && { ...this.current, statuses: { ...this.current.statuses } };
  }
}
