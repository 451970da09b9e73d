/**
 * The account: the session with the platform as the rest of the app sees it (never a token), a switch of account, the receiver's registration.
 * Part of the IPC contract (src-shared/contract/index.ts says what it is).
 */
import { z } from 'zod';

/** The user's session with the platform, as the rest of the app sees it (never a token). */
export const AccountState = z.enum([
  'not-connected',
  'activating',
  'connected',
  'needs-activation',
  'offline',
  'vault-unavailable',
]);
export type AccountState = z.infer<typeof AccountState>;

/** The account connected on this computer before the current one, when it was a different one. */
export const AccountSwitch = z.object({
  tenant_id: z.string(),
  user_extension: z.string(),
  /** When that account was connected (ISO 8601). */
  connected_at: z.string(),
  /** The sentence to show ("Callbar is now connected to extension 202 (…), not to 201 as before…"). */
  message: z.string(),
});
export type AccountSwitch = z.infer<typeof AccountSwitch>;

/**
 * Something Callbar needs is away although the session is fine: judged from the requests Callbar
 * makes anyway (and the relay stream's own connections), never from polling of its own; one
 * failure is not enough, the next answer ends it.
 */
export const Outage = z.object({
  /** Since when (ISO 8601): the first failure of the run. */
  since: z.string(),
  /** What it means and what Callbar does about it, with what the latest attempt met. */
  message: z.string(),
});
export type Outage = z.infer<typeof Outage>;

export const AccountStatus = z.object({
  state: AccountState,
  tenant_id: z.string().optional(),
  user_extension: z.string().optional(),
  /** When the current access token expires (ISO 8601); Callbar refreshes it by itself. */
  access_token_expires_at: z.string().optional(),
  /**
   * A headline of its own when the state's usual one does not fit (a computer the relay
   * disconnected, rather than "Your session ended").
   */
  title: z.string().optional(),
  /** A sentence for the user when the state needs explaining (offline, keychain locked…). */
  message: z.string().optional(),
  /**
   * While activating: the loopback address that leads to the portal, for the window to show with
   * Copy when no browser opened. Only a link without the confirmation key is ever given here.
   */
  connect_link: z.string().optional(),
  /** The session is for a different account than the one before; until acknowledged. */
  account_switch: AccountSwitch.optional(),
  /**
   * Said while call events are not authenticated: accepted without (the setting
   * accept_unauthenticated_events is on), or refused because Callbar cannot read its webhook
   * secret from the keychain.
   */
  events_warning: z.string().optional(),
  /** Relay mode: the relay's host that activation and call events come through. */
  relay: z.string().optional(),
  /**
   * Connected, but the platform has not answered Callbar's last requests (refused, broken, timed
   * out, unavailable): dialling and syncing fail until it answers again.
   */
  platform_unreachable: Outage.optional(),
  /**
   * Relay mode, connected: the stream that brings call events is down and reconnecting; the
   * events wait at the relay and arrive once it connects again.
   */
  events_delayed: Outage.optional(),
});
export type AccountStatus = z.infer<typeof AccountStatus>;

/**
 * What to register with the platform's integration: the exact URLs and the extra headers (see
 * core/account/webhook-auth.ts). The Webhook URL holds the profile's secret, so the window asks
 * for this only when the person opens it in Settings.
 */
export const ReceiverRegistration = z.object({
  activation_url: z.string(),
  deactivation_url: z.string(),
  webhook_url: z.string(),
  /** Headers the platform sends with every call (configured with CALLBAR_RECEIVER_HEADERS). */
  headers: z.record(z.string(), z.string()),
  /** How call events are authenticated: by the headers, by the secret in the URL, or not. */
  authentication: z.enum(['headers', 'secret-url', 'none']),
  /** The setting accept_unauthenticated_events is on. */
  accepts_unauthenticated: z.boolean(),
  /** Why the Webhook URL has no secret part (the keychain could not give it). */
  problem: z.string().optional(),
});
export type ReceiverRegistration = z.infer<typeof ReceiverRegistration>;
