/**
 * The device protocol between a desktop in relay mode and the relay (relay/): the paths, the
 * messages in both directions as zod schemas, and how a confirmation key is named at the relay
 * (its SHA-256, so the relay never holds a key before the platform sends it). Shared by the relay
 * server and Callbar's relay link, so neither can drift from the other.
 *
 * - `POST /device/activation` {key_sha256, public_key, wait}: registers the wait (wait: false
 *   answers 204 at once; it may carry the sealed one-time connect link), then waits (long poll)
 *   for the platform's activation of that key; answers 200 with the sealed handoff, 204 (ask
 *   again), or 410 once the connect link was opened twice (the attempt is over).
 * - `GET /connect/<nonce>`: the browser's one-time link to the portal (connect-link.ts).
 * - `POST /device/activation/confirm` {key_sha256, credential, stored}: the desktop stored the
 *   tokens (or could not); only then does the relay answer the platform.
 * - `GET /device/stream` (Authorization: Bearer <credential>, Last-Event-ID): server-sent events,
 *   each `id:` a stream offset; an `event: ready` line says the backlog was sent.
 * - `POST /device/dial` (Bearer): "I am placing a dial now", for call events that name nobody.
 * - `DELETE /device` (Bearer): the device forgets itself (after a deactivation).
 */
import { z } from 'zod';
import { secretFingerprint } from '../account/secret-compare';
import { DeactivationBody, HandshakeBody, WebhookEvent } from '../account/receiver';

export const DEVICE_PATHS = {
  activation: '/device/activation',
  confirm: '/device/activation/confirm',
  cancel: '/device/activation/cancel',
  stream: '/device/stream',
  dial: '/device/dial',
  device: '/device',
} as const;

/** The landing page the portal sends the browser to in relay mode (redirect_url). */
export const RELAY_LANDING_PATH = '/done';

/** What the relay puts in an activation's mailbox when its connect link was opened twice. */
export const LINK_REUSED = 'link-reused';

/** How long one activation poll is held open at the relay before it answers 204. */
export const ACTIVATION_POLL_MS = 20_000;

const sha256Hex = z.string().regex(/^[0-9a-f]{64}$/);
const base64url = z
  .string()
  .max(4096)
  .regex(/^[A-Za-z0-9_-]+$/);

/** A device credential: 256 random bits, base64url (43 characters). */
export const DeviceCredential = z.string().regex(/^[A-Za-z0-9_-]{43}$/);

/** The name of a confirmation key at the relay. */
export function keyName(confirmationKey: string): string {
  return secretFingerprint(confirmationKey);
}

export const ActivationWait = z.strictObject({
  key_sha256: sha256Hex,
  /** The desktop's ephemeral X25519 public key (HPKE), base64url. */
  public_key: base64url,
  /** False: register and answer 204 at once (before the portal link is used); true: long poll. */
  wait: z.boolean().default(true),
  /** With the registration: the one-time connect link (connect-link.ts), its name and seal. */
  connect_link: z.strictObject({ name: sha256Hex, sealed: base64url }).optional(),
});
export type ActivationWait = z.infer<typeof ActivationWait>;

/**
 * The desktop no longer waits for an activation (cancelled, timed out, closing): the relay drops
 * the wait and the connect link at once, so the platform's activation for the key is refused
 * now rather than answered 504 once the wait ran out.
 */
export const ActivationCancel = z.strictObject({
  key_sha256: sha256Hex,
  /** The connect link's name given with the registration. */
  connect_link_name: sha256Hex,
});
export type ActivationCancel = z.infer<typeof ActivationCancel>;

/** HPKE's encapsulated key and the ciphertext, both base64url. */
export const SealedHandoff = z.strictObject({ enc: base64url, ciphertext: base64url.max(65536) });
export type SealedHandoff = z.infer<typeof SealedHandoff>;

/** What the sealed handoff holds: the platform's call as it came, and the device's credential. */
export const HandoffContent = z.strictObject({
  body: HandshakeBody,
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

/** One message of a device's stream. */
export const DeviceMessage = z.discriminatedUnion('type', [
  z.strictObject({ type: z.literal('event'), event: WebhookEvent }),
  /** The platform's deactivation call: its user and key (its tokens, empty, are dropped). */
  z.strictObject({ type: z.literal('deactivate'), body: DeactivationBody }),
]);
export type DeviceMessage = z.infer<typeof DeviceMessage>;

/** A stream offset (Redis stream id form `ms-seq`), as Last-Event-ID carries it. */
export const StreamOffset = z.string().regex(/^\d{1,20}-\d{1,20}$/);
