/**
 * The device protocol between a desktop in relay mode and the relay (relay/): the paths, the
 * messages in both directions as zod schemas, and how a confirmation key is named at the relay
 * (its SHA-256, so the relay never holds a key before the platform sends it). Shared by the relay
 * server and Callbar's relay link, so neither can drift from the other.
 *
 * - `POST /device/activation` {key_sha256, public_key, proof_sha256, connect_link}: registers the
 *   wait for the platform's activation of that key (204). The first registration of a key holds:
 *   the same one again is answered 204, any other 409 and it ends the attempt (the waiting
 *   desktop hears `registered-twice`).
 * - `POST /device/activation/wait` {key_sha256, proof}: the long poll, only for whoever holds the
 *   registration's proof (the SHA-256 of `proof` is `proof_sha256`); answers 200 with the sealed
 *   handoff, 204 (ask again), or 410 with why the attempt is over (AttemptEnd).
 * - `GET /connect/<nonce>`: the browser's one-time link to the portal (connect-link.ts).
 * - `POST /device/activation/confirm` {key_sha256, credential, stored}: the desktop stored the
 *   tokens (or could not); only then does the relay answer the platform.
 * - `POST /device/activation/cancel` {key_sha256, proof}: the desktop no longer waits.
 * - `GET /device/stream` (Authorization: Bearer <credential>, Last-Event-ID): server-sent events,
 *   each `id:` a stream offset; an `event: ready` line says the backlog was sent; `event: gap`
 *   (RelayGap) that messages after the offset were dropped.
 * - `POST /device/dial` (Bearer): "I am placing a dial now", for call events that name nobody.
 * - `DELETE /device` (Bearer): the device forgets itself (after a deactivation).
 */
import { z } from 'zod';
import { secretFingerprint } from '../secret-compare';
import { HandshakeBody, WebhookEvent } from '../api/platform-deliveries';

export const DEVICE_PATHS = {
  activation: '/device/activation',
  wait: '/device/activation/wait',
  confirm: '/device/activation/confirm',
  cancel: '/device/activation/cancel',
  stream: '/device/stream',
  dial: '/device/dial',
  device: '/device',
} as const;

/** The landing page the portal sends the browser to in relay mode (redirect_url). */
export const RELAY_LANDING_PATH = '/done';

/** Why the relay ended an activation attempt (the body of the poll's 410). */
export const AttemptEnd = z.enum([
  /** The one-time connect link was opened twice: someone else may have the portal link. */
  'link-reused',
  /** Someone else registered a wait for the same confirmation key (they have the portal link). */
  'registered-twice',
  /** The relay holds no such attempt any more (it expired or was cancelled). */
  'unknown',
]);
export type AttemptEnd = z.infer<typeof AttemptEnd>;

/** What the relay puts in an activation's mailbox when its connect link was opened twice. */
export const LINK_REUSED: AttemptEnd = 'link-reused';

/** How long one activation poll is held open at the relay before it answers 204. */
export const ACTIVATION_POLL_MS = 20_000;

const sha256Hex = z.string().regex(/^[0-9a-f]{64}$/);
/** 256 random bits, base64url (43 characters): credentials, proofs, nonces. */
const secret256 = z.string().regex(/^[A-Za-z0-9_-]{43}$/);

/** A device credential: 256 random bits, base64url (43 characters). */
export const DeviceCredential = secret256;

/** The longest sealed connect link a registration may carry (a portal link of ~1.5 KB). */
export const MAX_SEALED_LINK_CHARS = 2048;

/**
 * The platform's identifiers as the relay accepts them (contract 4.2: strings; a tenant
 * identifier and an extension, the user's internal number): letters, digits and a few marks,
 * never a space, a control or a bidi character, so they are safe to keep, route by and print.
 */
export const TenantId = z.string().regex(/^[A-Za-z0-9][A-Za-z0-9._:@+-]{0,127}$/);
export const UserExtension = z.string().regex(/^[A-Za-z0-9*#+][A-Za-z0-9*#+._-]{0,31}$/);

/** The name of a confirmation key at the relay. */
export function keyName(confirmationKey: string): string {
  return secretFingerprint(confirmationKey);
}

/**
 * The registration of a wait, made before the portal link is shown (so the platform's call cannot
 * come first, and nobody else can register the key before the desktop).
 */
export const ActivationRegistration = z.strictObject({
  key_sha256: sha256Hex,
  /** The desktop's X25519 public key for this attempt (HPKE), base64url (32 bytes). */
  public_key: secret256,
  /** SHA-256 of the attempt's proof, which only the registering desktop knows. */
  proof_sha256: sha256Hex,
  /** The one-time connect link (connect-link.ts), its name and seal. */
  connect_link: z.strictObject({
    name: sha256Hex,
    sealed: z
      .string()
      .max(MAX_SEALED_LINK_CHARS)
      .regex(/^[A-Za-z0-9_-]+$/),
  }),
});
export type ActivationRegistration = z.infer<typeof ActivationRegistration>;

/** A poll for the handoff, or the end of the wait: only with the registration's proof. */
export const ActivationProof = z.strictObject({ key_sha256: sha256Hex, proof: secret256 });
export type ActivationProof = z.infer<typeof ActivationProof>;

/** HPKE's encapsulated key and the ciphertext, both base64url. */
const base64url = z
  .string()
  .max(4096)
  .regex(/^[A-Za-z0-9_-]+$/);
export const SealedHandoff = z.strictObject({ enc: base64url, ciphertext: base64url.max(65536) });
export type SealedHandoff = z.infer<typeof SealedHandoff>;

/**
 * The platform's activation call as the relay passes it on (its identifiers in the shape above,
 * its other fields as they came).
 */
export const RelayedActivation = HandshakeBody.extend({
  tenant_id: TenantId,
  user_extension: UserExtension,
});
export type RelayedActivation = z.infer<typeof RelayedActivation>;

/**
 * The platform's deactivation call as the relay reads it: who, and which activation. The tokens
 * are empty, null or absent (the contract says empty; some platforms send null or nothing) and
 * never used.
 */
export const RelayedDeactivationCall = RelayedActivation.extend({
  access_token: z.string().nullish(),
  refresh_token: z.string().nullish(),
});

/** What the sealed handoff holds: the platform's call as it came, and the device's credential. */
export const HandoffContent = z.strictObject({
  body: RelayedActivation,
  device_id: z.string().min(1).max(64),
  credential: DeviceCredential,
});
export type HandoffContent = z.infer<typeof HandoffContent>;

export const ActivationConfirm = z.strictObject({
  key_sha256: sha256Hex,
  credential: DeviceCredential,
  /** True once the tokens are in the keychain; false: the relay answers the platform 503. */
  stored: z.boolean(),
});
export type ActivationConfirm = z.infer<typeof ActivationConfirm>;

/**
 * A deactivation queued for a device: the user, and the SHA-256 of the confirmation key it names
 * (never the key: it waits in the queue while the desktop is off). The desktop applies it only when
 * that is its own session's key, as the loopback receiver does.
 */
export const RelayedDeactivation = z.strictObject({
  tenant_id: TenantId,
  user_extension: UserExtension,
  key_sha256: sha256Hex,
});
export type RelayedDeactivation = z.infer<typeof RelayedDeactivation>;

/** One message of a device's stream. */
export const DeviceMessage = z.discriminatedUnion('type', [
  z.strictObject({ type: z.literal('event'), event: WebhookEvent }),
  z.strictObject({ type: z.literal('deactivate'), body: RelayedDeactivation }),
]);
export type DeviceMessage = z.infer<typeof DeviceMessage>;

/**
 * `event: gap` on a device stream, before the next message: `lost` messages queued for the device
 * after its offset were dropped (its queue keeps the newest QUEUE_MAX_LENGTH, relay-store.ts), so
 * what the desktop shows may be out of date.
 */
export const GAP_EVENT = 'gap';
export const RelayGap = z.strictObject({ lost: z.number().int().positive() });
export type RelayGap = z.infer<typeof RelayGap>;

/**
 * A stream offset, as Last-Event-ID carries it: `<ms>-<ordinal>` (when it was queued, its number
 * in the device's queue), in the form of a Redis stream id.
 */
export const StreamOffset = z.string().regex(/^\d{1,20}-\d{1,20}$/);
