/**
 * Real Callbar cores for the relay bench: one per simulator user (at most its 4), each activated
 * through the simulator's portal and the relay, then rung by the simulator, whose call events
 * reach the relay's Webhook URL as the platform posts them. A call's events share the leg's id,
 * so each is counted by leg id and its `sequence`: what the simulator delivered (200) and never
 * reached the core is lost, a second arrival of the same one is a duplicate. Arrivals are counted
 * as the core's relay link hands them over (account.onCallEvent), before the call tracker's
 * delivery keys would set a repeat aside: a duplicate here is one the relay path delivered twice.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { SimControl } from '../../simulator/control-client';
import { completePortalFlow } from '../../simulator/portal-driver';
import { startCore, type CallbarCore } from '../../src-main/core/callbar-core';
import { silentLogger } from '../../src-main/core/log/logger';
import { openProfile } from '../../src-main/core/profile';
import { MemoryVault } from '../../src-main/core/vault/memory-vault';
import { freePort } from '../../test/support/free-port';

export interface CoresCount {
  /** Distinct events the cores received. */
  events: number;
  lost: number;
  duplicated: number;
  /** The simulator's ringing → the core's first event of the call (ms). */
  latencies: number[];
  /** Calls not placed: the simulator's control API reset the connection. */
  skipped: number;
}

export interface BenchCores {
  count: number;
  /** Rings every core `calls` times, one call at a time each (its first event, then its end). */
  ring(calls: number): Promise<void>;
  /** What the simulator delivered (200) for the cores' users against what they received. */
  tally(): Promise<CoresCount>;
  close(): Promise<void>;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const eventKey = (event: { id: string; sequence?: unknown }) =>
  `${event.id}#${String(event.sequence)}`;

export async function startBenchCores(options: {
  control: SimControl;
  sim: { base_url: string; portal_url: string; client_id: string; client_secret: string };
  /** The relay's origins each core is configured with (in turn: half prefer the other). */
  origins: [string, string];
  count: number;
}): Promise<BenchCores> {
  const { control, sim } = options;
  const users = (await control.world()).users.slice(0, options.count);
  const cores: CallbarCore[] = [];
  const receipts = new Map<string, number>();
  const latencies: number[] = [];
  const ringing = new Map<string, number>();
  const whose = new Set<string>();
  /** Calls the simulator's control API did not place (a reset connection). */
  let skipped = 0;
  try {
    for (const [index, user] of users.entries()) {
      const [a, b] = options.origins;
      const core = await startCore({
        runtime: 'preview',
        profile: openProfile({
          env: {
            CALLBAR_DATA_DIR: mkdtempSync(join(tmpdir(), 'callbar-relay-bench-')),
            CALLBAR_BASE_URL: sim.base_url,
            CALLBAR_PORTAL_URL: sim.portal_url,
            CALLBAR_CLIENT_ID: sim.client_id,
            CALLBAR_CLIENT_SECRET: sim.client_secret,
            CALLBAR_RECEIVER_PORT: String(await freePort()),
            CALLBAR_RELAY_URL: (index % 2 === 0 ? [a, b] : [b, a]).join(','),
          },
          vault: new MemoryVault(),
          log: silentLogger,
        }),
        openUrl: () => Promise.resolve(),
      });
      cores.push(core);
      const account = core.profile.account;
      const started = await account.startActivation();
      await completePortalFlow(started.portalLink, {
        username: user.username,
        password: user.password,
        action: 'subscribe',
      });
      await started.completion;
      await account.listen();
      whose.add(`${user.tenant_id}/${user.extension}`);
      account.onCallEvent((event) => {
        const key = eventKey(event);
        receipts.set(key, (receipts.get(key) ?? 0) + 1);
        const at = ringing.get(event.id);
        if (at !== undefined) {
          latencies.push(Date.now() - at);
          ringing.delete(event.id);
        }
      });
    }
  } catch (error) {
    for (const core of cores) await core.close();
    throw error;
  }
  return {
    count: users.length,
    ring: async (calls) => {
      await Promise.all(
        users.map(async (user) => {
          for (let call = 0; call < calls; call += 1) {
            const at = Date.now();
            // The simulator's control API shares this loaded process: a connection it reset
            // skips the call (the tally counts what the simulator delivered, whatever rang).
            const placed = await control
              .incomingCall({
                tenant_id: user.tenant_id,
                user_extension: user.extension,
                from: '+4930999000',
              })
              .catch(() => undefined);
            const own = placed?.legs.find((leg) => leg.leg === 'callee');
            if (!own) {
              skipped += 1;
              continue;
            }
            ringing.set(own.id, at);
            // One call at a time per core: its first event is in before the next (10 s at
            // most), so the figure is the path's, not a queue of the simulator's deliveries.
            const deadline = Date.now() + 10_000;
            while (ringing.has(own.id) && Date.now() < deadline) await sleep(2);
            for (let attempt = 0; attempt < 3; attempt += 1) {
              if (
                await control.endLeg(own.id).then(
                  () => true,
                  () => false,
                )
              )
                break;
              await sleep(200);
            }
          }
        }),
      );
    },
    tally: async () => {
      const log = await control.webhooksSettled(60_000);
      const delivered = new Set(
        log.deliveries
          .filter(
            (delivery) =>
              delivery.status === 200 &&
              whose.has(
                `${String(delivery.sent.tenant_id)}/${String(delivery.sent.user_extension)}`,
              ),
          )
          .map((delivery) => eventKey(delivery.sent as { id: string; sequence?: unknown })),
      );
      // Up to a minute for the last of them to arrive.
      const deadline = Date.now() + 60_000;
      while ([...delivered].some((key) => !receipts.has(key)) && Date.now() < deadline) {
        await sleep(20);
      }
      return {
        events: receipts.size,
        lost: [...delivered].filter((key) => !receipts.has(key)).length,
        duplicated: [...receipts.values()].reduce((sum, times) => sum + times - 1, 0),
        latencies: [...latencies],
        skipped,
      };
    },
    close: async () => {
      for (const core of cores) await core.close();
    },
  };
}
