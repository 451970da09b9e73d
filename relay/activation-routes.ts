/**
 * The desktop's side of an activation at the relay (relay-protocol.ts): registering the wait,
 * the long poll for the sealed handoff (only with the registration's proof), the confirmation,
 * the cancellation, and the browser's one-time connect link. The waits themselves, their lives
 * and caps: activation-waits.ts.
 */
import type { FastifyInstance } from 'fastify';
import { ATTEMPT_LIFETIME_MS } from '../src-main/core/account/activation-attempts';
import { HANDSHAKE_LIMITS } from '../src-main/core/account/receiver';
import { HttpRejection } from '../src-main/core/http/http-rejection';
import {
  CONNECT_NONCE,
  CONNECT_PATH,
  connectLinkName,
  openConnectLink,
} from '../src-main/core/relay/connect-link';
import { openedByTheBrowserItself } from '../src-main/core/http/browser-navigation';
import {
  ActivationConfirm,
  ActivationProof,
  ActivationRegistration,
  AttemptEnd,
  DEVICE_PATHS,
} from '../src-main/core/relay/relay-protocol';
import { secretsEqual } from '../src-main/core/secret-compare';
import { said } from '../src-main/core/text/said';
import {
  activatedName,
  confirmBox,
  linkName,
  pendingName,
  type ActivationWaits,
  type LinkRecord,
  type PendingDevice,
} from './activation-waits';
import { OpenWaits } from './open-waits';
import { body, clientOf, page, parsed, sha256, type RelayContext } from './relay-context';

/** A connect link used after its attempt is over (or never issued). */
const LINK_SPENT = {
  title: said('landing:linkUsed.title'),
  message: said('landing:linkUsed.message'),
};

export function activationRoutes(
  app: FastifyInstance,
  context: RelayContext,
  waits: ActivationWaits,
): OpenWaits {
  const { store, log } = context;
  const open = new OpenWaits(context.waits);

  app.post(DEVICE_PATHS.activation, async (request, reply) => {
    const registration = parsed(
      ActivationRegistration,
      body(request, HANDSHAKE_LIMITS),
      'The registration',
    );
    const outcome = await waits.register(registration, clientOf(request));
    if (outcome === 'full-address') {
      throw new HttpRejection(429, 'Too many activation waits from this address; slow down.');
    }
    if (outcome === 'full') {
      throw new HttpRejection(503, 'The relay holds as many activation waits as it can.');
    }
    if (outcome === 'conflict') {
      log.warn('an activation key was registered twice; the attempt ends');
      throw new HttpRejection(409, 'This attempt was registered already; the relay ended it.');
    }
    return reply.code(204).send();
  });

  app.post(DEVICE_PATHS.wait, async (request, reply) => {
    if (context.draining.aborted) {
      throw new HttpRejection(503, 'This relay node is stopping; ask again.');
    }
    context.metrics?.activationWaitsOpen.inc();
    try {
      return await open.hold(clientOf(request), async () => {
        const proof = parsed(ActivationProof, body(request, HANDSHAKE_LIMITS), 'The wait');
        const record = await waits.proven(proof.key_sha256, proof.proof);
        if (record === 'wrong') throw new HttpRejection(403, 'This is not your attempt.');
        if (!record) return reply.code(410).type('text/plain').send('unknown');
        // Ended (and now heard by its desktop): the registration goes (its key stays taken).
        const over = async (reason: string) => {
          await waits.remove(proof.key_sha256);
          return reply.code(410).type('text/plain').send(reason);
        };
        if (record.ended) return over(record.ended);
        await waits.renew(proof.key_sha256, record);
        // A draining node, or one whose store stops answering, ends the poll at once (204: the
        // desktop asks again, at another node or once the store is back); so does a desktop that
        // went away. Before, its poll went on waiting and took the handoff, written to a closed
        // connection, while the desktop's next poll (at another node) waited in vain.
        const left = new AbortController();
        reply.raw.once('close', () => left.abort());
        const box = `handoff:${proof.key_sha256}`;
        const sealed = await store.pop(
          box,
          context.pollMs,
          AbortSignal.any([context.draining, context.health.away, left.signal]),
        );
        // Taken as the desktop left: kept for its next poll.
        if (sealed !== undefined && left.signal.aborted) {
          await store.push(box, sealed, context.handoffTimeoutMs);
        }
        if (sealed === undefined || left.signal.aborted) return reply.code(204).send();
        const ended = AttemptEnd.safeParse(sealed);
        if (ended.success) return over(ended.data);
        return reply.type('application/json').send(sealed);
      });
    } finally {
      context.metrics?.activationWaitsOpen.dec();
    }
  });

  // The browser's one-time link to the portal (connect-link.ts), as the loopback receiver's.
  app.get(`${CONNECT_PATH}:nonce`, async (request, reply) => {
    // Only the browser's own navigation (Sec-Fetch-Site: none) spends it, as at the receiver: a
    // web page that learnt the link (an <img>, an <iframe>, fetch) can neither spend it nor end
    // the attempt by spending it first. Before, it could.
    if (!openedByTheBrowserItself(request.headers)) {
      return page(request, reply, 403, {
        ok: false,
        title: said('landing:failed.title'),
        message: said('landing:browserOnly'),
      });
    }
    const { nonce } = request.params as { nonce: string };
    const name = CONNECT_NONCE.test(nonce) ? linkName(connectLinkName(nonce)) : undefined;
    const text = name ? await store.readWaiting(name) : undefined;
    const link = text ? (JSON.parse(text) as LinkRecord) : undefined;
    if (!name || !link) return page(request, reply, 404, { ok: false, ...LINK_SPENT });
    if (link.sealed) {
      const portalLink = openConnectLink(nonce, link.sealed);
      // Kept as used (without the link) so a second use is known for what it is.
      const used: LinkRecord = { key_sha256: link.key_sha256 };
      await store.updateWaiting(name, JSON.stringify(used));
      return reply.code(303).header('location', portalLink).send();
    }
    // Opened twice while the attempt waits: someone else may have the portal link. The
    // platform's activation for it is refused from now on, and the desktop ends the attempt.
    const record = await waits.read(link.key_sha256);
    if (!record || record.ended) return page(request, reply, 404, { ok: false, ...LINK_SPENT });
    await waits.end(link.key_sha256, 'link-reused');
    log.warn('a connect link was opened twice; the activation attempt ends');
    return page(request, reply, 400, {
      ok: false,
      title: said('landing:stopped.title'),
      message: said('landing:relayOpenedTwice', { reason: said('landing:stopped.openedTwice') }),
    });
  });

  app.post(DEVICE_PATHS.cancel, async (request, reply) => {
    const cancel = parsed(ActivationProof, body(request, HANDSHAKE_LIMITS), 'The cancellation');
    const record = await waits.proven(cancel.key_sha256, cancel.proof);
    if (record === 'wrong') throw new HttpRejection(403, 'This is not your attempt.');
    if (record) await waits.remove(cancel.key_sha256);
    return reply.code(204).send();
  });

  app.post(DEVICE_PATHS.confirm, async (request, reply) => {
    const confirm = parsed(ActivationConfirm, body(request, HANDSHAKE_LIMITS), 'The confirmation');
    // Only the desktop that opened the handoff knows the credential of the device made for it,
    // and only that device's activation, still waiting, takes it: once (the mark is taken here).
    // The device is made here, once its desktop stored the tokens.
    const credential = sha256(confirm.credential);
    const text = await store.takeWaiting(pendingName(credential));
    const pending = text ? (JSON.parse(text) as PendingDevice) : undefined;
    if (!pending || !secretsEqual(pending.key_sha256, confirm.key_sha256)) {
      throw new HttpRejection(403, 'No activation waits for this confirmation.');
    }
    if (confirm.stored) {
      await store.addDevice(pending.record);
      await store.putWaiting(
        activatedName(confirm.key_sha256),
        pending.fingerprint,
        ATTEMPT_LIFETIME_MS,
      );
    }
    await store.push(
      confirmBox(pending.record.device_id),
      JSON.stringify({ credential_sha256: credential, stored: confirm.stored }),
      context.handoffTimeoutMs,
    );
    return reply.type('text/plain').send('OK');
  });

  return open;
}
