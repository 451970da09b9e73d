/**
 * The platform's calls to the relay: Activation, Deactivation and Webhook, each authenticated
 * by the one rule of platform-auth.ts, with bodies bounded and parsed by the receiver's own code,
 * and identifiers in the contract's shape (relay-protocol.ts) before anything is kept or routed.
 *
 * Call events go to the devices of the user they name. An event that names no user (the contract
 * guarantees only its `id`) stays within its tenant: the event's `tenant_id`, else the tenant the
 * Webhook URL names (`?tenant=`); it goes to the devices it went to before, else to the tenant's
 * devices that announced a dial within the window, each at most LEGS_PER_DIAL new legs per dial.
 * An event with no tenant at all reaches nobody.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import {
  EVENT_LIMITS,
  HANDSHAKE_LIMITS,
  MAX_EVENT_ID_CHARS,
  WebhookEvent,
} from '../src-main/core/account/receiver';
import { secretsEqual } from '../src-main/core/secret-compare';
import { HttpRejection } from '../src-main/core/http/http-rejection';
import {
  keyName,
  RELAY_LANDING_PATH,
  RelayedActivation,
  RelayedDeactivationCall,
  TenantId,
  UserExtension,
  type DeviceMessage,
} from '../src-main/core/relay/relay-protocol';
import { sealHandoff } from '../src-main/core/relay/sealed-handoff';
import { said } from '../src-main/core/text/said';
import { summarizedWarnings } from '../src-main/core/log/summarized-warnings';
import {
  activatedName,
  activationFingerprint,
  confirmBox,
  pendingName,
  type ActivationWaits,
  type PendingDevice,
} from './activation-waits';
import { checkPlatformCall, type PlatformRoute } from './platform-auth';
import { body, page, parsed, sha256, type RelayContext } from './relay-context';
import type { DeviceRecord } from './relay-store';

/** How often a repeated activation looks whether the first was confirmed. */
const REPEAT_POLL_MS = 250;

/** A leg routed once keeps its devices this long (its later events need no dial note). */
const LEG_ROUTE_MS = 6 * 60 * 60_000;

export function platformRoutes(
  app: FastifyInstance,
  context: RelayContext,
  waits: ActivationWaits,
): void {
  const { store, log, now } = context;
  /** Full queues, said once per interval (a flood to an offline device drops at each event). */
  const full = summarizedWarnings(log, 'device queues were full: more dropped messages (summary)');
  const route = (name: PlatformRoute, handler: (request: FastifyRequest) => Promise<unknown>) => {
    const handle = async (request: FastifyRequest, reply: FastifyReply) => {
      checkPlatformCall(name, request.url.split('?')[0] ?? '', request.headers, context.auth);
      await handler(request);
      return reply.type('text/plain').send('OK');
    };
    app.post(name, handle);
    app.post(`${name}/*`, handle);
  };
  /**
   * Queues `message` for each of `devices` that is still known (checked as it is appended). A
   * queue past its bound drops its oldest: counted and logged here (the device id and how many,
   * nothing of the messages), and the desktop hears of it when it reads on (device-routes.ts).
   */
  const deliver = async (devices: string[], message: DeviceMessage) => {
    const data = JSON.stringify(message);
    await Promise.all(
      devices.map((id) =>
        store.append(id, data, {
          known: true,
          dropped: (count) => {
            context.metrics?.messagesDropped.inc(count);
            full.warn('full', 'a device queue was full: its oldest messages were dropped', {
              device: id,
              dropped: count,
            });
          },
        }),
      ),
    );
  };

  route('/activate', async (request) => {
    const call = parsed(RelayedActivation, body(request, HANDSHAKE_LIMITS), 'The call');
    if (!call.access_token || !call.refresh_token) {
      throw new HttpRejection(400, 'Activation needs access_token and refresh_token.');
    }
    const name = keyName(call.confirmation_key);
    const fingerprint = activationFingerprint(call);
    if (await repeated(name, fingerprint)) return;
    const wait = await waits.read(name);
    // Single use: the first activation call for the key claims it.
    const claimed =
      wait && !wait.ended
        ? (await store.putWaiting(`claim:${name}`, '1', context.handoffTimeoutMs * 2)) === undefined
        : false;
    if (!wait || !claimed) {
      // A repeat while the first waits for its desktop (at this node, or one that died) is
      // answered as the first once the desktop confirmed.
      if (wait && !wait.ended && (await repeated(name, fingerprint, context.handoffTimeoutMs))) {
        return;
      }
      throw new HttpRejection(403, 'Unknown, expired or already used confirmation_key.');
    }
    const credential = randomBytes(32).toString('base64url');
    const record: DeviceRecord = {
      device_id: randomUUID(),
      tenant_id: call.tenant_id,
      user_extension: call.user_extension,
      credential_sha256: sha256(credential),
      created_at: new Date(now()).toISOString(),
    };
    // The device is made once its desktop confirms it stored the tokens (activation-routes.ts):
    // until then only this mark, which lives no longer than the handoff.
    const pending = pendingName(record.credential_sha256);
    let stored = false;
    try {
      const mark: PendingDevice = { record, key_sha256: name, fingerprint };
      await store.putWaiting(pending, JSON.stringify(mark), context.handoffTimeoutMs * 2);
      const sealed = await sealHandoff(wait.public_key, name, {
        body: call,
        device_id: record.device_id,
        credential,
      });
      await store.push(`handoff:${name}`, JSON.stringify(sealed), context.handoffTimeoutMs);
      const answer = await store.pop(confirmBox(record.device_id), context.handoffTimeoutMs);
      if (answer === undefined) {
        throw new HttpRejection(504, 'The desktop did not confirm in time; nothing was kept.');
      }
      const confirm = JSON.parse(answer) as { credential_sha256: string; stored: boolean };
      if (!secretsEqual(confirm.credential_sha256, record.credential_sha256) || !confirm.stored) {
        throw new HttpRejection(503, 'The desktop could not store the tokens; nothing was kept.');
      }
      stored = true;
    } finally {
      await waits.remove(name);
      await store.takeWaiting(`claim:${name}`);
      await store.takeWaiting(pending);
      // Confirmed as this call gave up (504): the device made then goes again.
      if (!stored) await store.removeDevice(record.device_id);
    }
    log.info('device activated', { device: record.device_id, tenant_id: call.tenant_id });
  });

  /**
   * Whether the platform's call is an identical repeat of an activation its desktop confirmed
   * stored (looked for during `waitMs`: the first may still wait for its desktop): answered 200
   * as the first was, nothing made again. Before, a platform that repeats its call (or retries
   * after the node holding its first call died) was refused 403 and revoked the tokens the desktop
   * had stored.
   */
  const repeated = async (name: string, fingerprint: string, waitMs = 0): Promise<boolean> => {
    const until = now() + waitMs;
    for (;;) {
      const first = await store.readWaiting(activatedName(name));
      if (first !== undefined) {
        const same = secretsEqual(first, fingerprint);
        if (same) log.info('a repeated activation answered as the first; nothing changed');
        return same;
      }
      if (now() >= until) return false;
      await new Promise((resolve) => setTimeout(resolve, REPEAT_POLL_MS));
    }
  };

  route('/deactivate', async (request) => {
    const call = parsed(RelayedDeactivationCall, body(request, HANDSHAKE_LIMITS), 'The call');
    const devices = await store.deviceIdsOf(call.tenant_id, call.user_extension);
    // Never the key itself: it would wait in the queue of a desktop that is off.
    await deliver(devices, {
      type: 'deactivate',
      body: {
        tenant_id: call.tenant_id,
        user_extension: call.user_extension,
        key_sha256: keyName(call.confirmation_key),
      },
    });
    log.info('deactivation queued', { tenant_id: call.tenant_id, devices: devices.length });
  });

  route('/events', async (request) => {
    const result = WebhookEvent.safeParse(body(request, EVENT_LIMITS));
    if (!result.success) {
      throw new HttpRejection(
        400,
        `A call event needs a string id of 1 to ${MAX_EVENT_ID_CHARS} characters.`,
      );
    }
    const event = result.data;
    context.metrics?.eventsReceived.inc();
    const tenant = eventTenant(event.tenant_id, (request.query as { tenant?: unknown }).tenant);
    const extension = identifier(UserExtension, event.user_extension, 'user_extension');
    let targets: string[] = [];
    if (tenant !== undefined && extension !== undefined) {
      targets = await store.deviceIdsOf(tenant, extension);
    } else if (tenant !== undefined) {
      targets = (await store.legRoute(tenant, event.id)) ?? (await newLeg(tenant, event.id));
    }
    await deliver(targets, { type: 'event', event });
    if (targets.length === 0) {
      log.info(
        tenant === undefined
          ? 'a call event named neither its user nor its tenant (give the Webhook URL ?tenant=)'
          : 'a call event reached no device',
      );
    }
  });

  /** The tenant's devices that just announced a dial, each within its bound of legs. */
  const newLeg = async (tenant: string, legId: string) => {
    const dialled = await store.dialledSince(tenant, now() - context.dialWindowMs);
    const granted = await Promise.all(dialled.map((id) => store.grantLeg(id)));
    const targets = dialled.filter((_, index) => granted[index]);
    if (targets.length > 0) await store.setLegRoute(tenant, legId, targets, LEG_ROUTE_MS);
    return targets;
  };

  app.get(RELAY_LANDING_PATH, async (request, reply) =>
    page(request, reply, 200, {
      ok: true,
      title: said('landing:relayAnswered.title'),
      message: said('landing:relayAnswered.message'),
    }),
  );
}

/** An identifier of the event in the contract's shape; undefined when absent; 400 when not. */
function identifier(schema: typeof TenantId, value: unknown, field: string): string | undefined {
  if (value === undefined || value === null) return undefined;
  const result = schema.safeParse(value);
  if (!result.success) throw new HttpRejection(400, `The event's ${field} is not an identifier.`);
  return result.data;
}

/** The event's tenant, or the one the Webhook URL names; 400 when they differ. */
function eventTenant(fromEvent: unknown, fromUrl: unknown): string | undefined {
  const own = identifier(TenantId, fromEvent, 'tenant_id');
  const url = typeof fromUrl === 'string' ? identifier(TenantId, fromUrl, 'tenant') : undefined;
  if (own !== undefined && url !== undefined && own !== url) {
    throw new HttpRejection(400, 'The event names another tenant than its Webhook URL.');
  }
  return own ?? url;
}
