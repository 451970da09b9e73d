import type { StoredAccount } from '../../src-main/core/vault/stored-account';

/** Secret values that must never show up in an error message, a log or a file. */
export const SECRETS = {
  access_token: 'access-token-9d2f7c41e8b0',
  refresh_token: 'refresh-token-5a1c0e9f3d77',
  client_secret: 'client-secret-c3b8a6e1f402',
};

/** A valid account; `overrides` change some of its properties. */
export function sampleAccount(overrides: Partial<StoredAccount> = {}): StoredAccount {
  return {
    ...SECRETS,
    expires_at: Date.UTC(2030, 0, 1),
    tenant_id: 'tenant-42',
    user_extension: '201',
    client_id: 'callbar-desktop',
    base_url: 'http://127.0.0.1:8089',
    ...overrides,
  };
}

/** True when `text` contains any of the secret values. */
export function containsSecret(text: string): boolean {
  return Object.values(SECRETS).some((secret) => text.includes(secret));
}
