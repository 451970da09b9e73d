/**
 * What the platform POSTs to an integrator (contract 4.2): the activation and deactivation
 * calls and call events, with the bounds each is read within. The loopback receiver
 * (account/receiver.ts) and the relay's device protocol (relay/relay-protocol.ts) both read them.
 */
import { z } from 'zod';
import type { JsonLimits } from '../http/bounded-json';

/**
 * The bounds of a call event: nesting, each string (the `id` has its own, below), and keys per
 * object. What passes is safe to clone and store; a real event is a flat object of a few fields.
 */
export const EVENT_LIMITS: JsonLimits = { maxDepth: 32, maxStringChars: 1024, maxEntries: 64 };

/** The bounds of an activation or deactivation body (flat; tokens may be long JWTs). */
export const HANDSHAKE_LIMITS: JsonLimits = {
  maxDepth: 32,
  maxStringChars: 8 * 1024,
  maxEntries: 32,
};

/** The longest call leg id accepted. */
export const MAX_EVENT_ID_CHARS = 256;

/** The body of the platform's activation and deactivation calls (contract 4.2). */
export const HandshakeBody = z.object({
  tenant_id: z.string().min(1),
  user_extension: z.string().min(1),
  confirmation_key: z.string().min(1),
  access_token: z.string(),
  refresh_token: z.string(),
});
export type HandshakeBody = z.infer<typeof HandshakeBody>;

/**
 * The deactivation call: contract 4.2 sends it with the activation's body and "empty" tokens.
 * Only the user and the confirmation key identify it and its tokens are never used, so they may
 * be "", null or absent (platforms differ), and whatever they hold is dropped here.
 */
export const DeactivationBody = HandshakeBody.pick({
  tenant_id: true,
  user_extension: true,
  confirmation_key: true,
});
export type DeactivationBody = z.infer<typeof DeactivationBody>;

/** A call event: only `id` (the call leg id) is contractual; the rest is kept as it came. */
export const WebhookEvent = z.looseObject({ id: z.string().min(1).max(MAX_EVENT_ID_CHARS) });
export type WebhookEvent = z.infer<typeof WebhookEvent>;
