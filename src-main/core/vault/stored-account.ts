/**
 * What the vault keeps for a connected account: the token pair, who it belongs to, the integrator
 * credentials needed to refresh it, and the platform it was issued by. Stored as JSON in one
 * keychain entry; validated on the way in and on the way out.
 */
import { z } from 'zod';
import { CallbarError } from '../errors';
import { describeIssues } from '../validation-issues';
import { said } from '../text/said';

export const StoredAccount = z.object({
  access_token: z.string().min(1),
  refresh_token: z.string().min(1),
  /** When the access token expires, epoch milliseconds. */
  expires_at: z.number().nonnegative(),
  tenant_id: z.string(),
  user_extension: z.string(),
  client_id: z.string(),
  client_secret: z.string(),
  /** The platform (API root) the tokens belong to. */
  base_url: z.url({ protocol: /^https?$/ }),
  /**
   * SHA-256 (hex) of the confirmation_key of the activation that created the session, so a
   * deactivation can be matched to it without keeping the key itself.
   */
  confirmation_key_sha256: z
    .string()
    .regex(/^[0-9a-f]{64}$/)
    .optional(),
  /**
   * Relay mode: the device identity the relay issued at activation (its credential authenticates
   * the device's stream; the relay keeps only its hash). Goes with the session it came with.
   * `relay_urls`: the relay addresses it was issued at, the only ones its credential is sent to
   * (absent in a session stored before they were kept: the addresses in use then count).
   */
  relay_device: z
    .object({
      device_id: z.string().min(1).max(64),
      credential: z.string().min(1).max(256),
      relay_urls: z.array(z.string().min(1).max(2048)).min(1).max(16).optional(),
    })
    .optional(),
});

/** A connected account as the vault stores it. */
export type StoredAccount = z.infer<typeof StoredAccount>;

/**
 * The JSON text to store for `account`, after validation (unknown properties are dropped).
 * @throws CallbarError `account_invalid` naming the bad properties (never their values).
 */
export function serializeAccount(account: unknown): string {
  const parsed = StoredAccount.safeParse(account);
  if (!parsed.success) {
    const { message, field } = describeIssues(parsed.error, 'the account');
    throw new CallbarError(
      'account_invalid',
      said('errors:storedAccount.refused', { problem: message }),
      { field },
    );
  }
  return JSON.stringify(parsed.data);
}

/**
 * The account stored as `text`.
 * @throws CallbarError `vault_corrupt` when it is not a valid account (the content is not quoted).
 */
export function parseStoredAccount(text: string): StoredAccount {
  const fix = said('errors:storedAccount.fix');
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    throw new CallbarError('vault_corrupt', said('errors:storedAccount.notJson', { fix }));
  }
  const parsed = StoredAccount.safeParse(raw);
  if (!parsed.success) {
    throw new CallbarError(
      'vault_corrupt',
      said('errors:storedAccount.malformed', {
        problem: describeIssues(parsed.error, 'the account').message,
        fix,
      }),
    );
  }
  return parsed.data;
}
