import type { StoredAccount } from '../vault/stored-account';

export type TokenHealth =
  | { kind: 'ok' }
  | { kind: 'offline'; message: string }
  | { kind: 'revoked'; message: string; identity: { tenant_id: string; user_extension: string } }
  | { kind: 'vault-unavailable'; message: string };

/** What the rest of core may know about the session: everything but the secrets. */
export type SessionInfo = Pick<
  StoredAccount,
  'tenant_id' | 'user_extension' | 'expires_at' | 'base_url' | 'confirmation_key_sha256'
>;
