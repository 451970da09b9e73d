/**
 * Access and refresh tokens, as django-oauth-toolkit keeps them: an access token lives 24 hours
 * of simulated time; a refresh token has no time limit but is single-use — using it issues a new
 * pair and invalidates it at once (and, like DOT, revokes the access token it was issued with,
 * unless configured otherwise). Tokens belong to the integration whose activation issued them
 * (and keep it through rotation): deactivating one integration for a user revokes only that
 * integration's tokens; tokens issued without one (the control API's) no deactivation touches.
 */
import { randomBytes } from 'node:crypto';
import type { SimClock } from './clock';

export const ACCESS_TOKEN_LIFETIME_SECONDS = 86_400;
export const TOKEN_SCOPE = 'read write';

export interface TokenOwner {
  tenantId: string;
  extension: string;
}

/** Who a token pair was issued to: the user, and the integration slug (null: none). */
export interface TokenGrant extends TokenOwner {
  integration: string | null;
}

export interface TokenPair {
  access_token: string;
  expires_in: number;
  token_type: 'Bearer';
  scope: string;
  refresh_token: string;
}

interface AccessRecord {
  grant: TokenGrant;
  expiresAt: number;
  revoked: boolean;
}

interface RefreshRecord {
  grant: TokenGrant;
  accessToken: string;
  spent: boolean;
}

export type Authentication =
  | { ok: true; owner: TokenOwner }
  | { ok: false; reason: 'unknown' | 'expired' | 'revoked' };

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/** A 30-character token like oauthlib's generate_token. */
function newToken(): string {
  const bytes = randomBytes(30);
  let text = '';
  for (const byte of bytes) text += ALPHABET[byte % ALPHABET.length];
  return text;
}

function sameGrant(a: TokenGrant, b: TokenGrant): boolean {
  return (
    a.tenantId === b.tenantId && a.extension === b.extension && a.integration === b.integration
  );
}

/** Every token the store knows, as plain data (state-file.ts keeps it across runs). */
export interface TokenSnapshot {
  access: [string, AccessRecord][];
  refresh: [string, RefreshRecord][];
}

export class TokenStore {
  private readonly access = new Map<string, AccessRecord>();
  private readonly refresh = new Map<string, RefreshRecord>();

  constructor(
    private readonly clock: SimClock,
    private readonly options: { revokeAccessTokenOnRefresh: boolean },
  ) {}

  issue(grant: TokenGrant): TokenPair {
    const accessToken = newToken();
    const refreshToken = newToken();
    this.access.set(accessToken, {
      grant: { ...grant },
      expiresAt: this.clock.now() + ACCESS_TOKEN_LIFETIME_SECONDS * 1000,
      revoked: false,
    });
    this.refresh.set(refreshToken, { grant: { ...grant }, accessToken, spent: false });
    return {
      access_token: accessToken,
      expires_in: ACCESS_TOKEN_LIFETIME_SECONDS,
      token_type: 'Bearer',
      scope: TOKEN_SCOPE,
      refresh_token: refreshToken,
    };
  }

  /** Rotates the pair; undefined means invalid_grant (unknown, spent or revoked). */
  rotate(refreshToken: string): TokenPair | undefined {
    const record = this.refresh.get(refreshToken);
    if (!record || record.spent) return undefined;
    record.spent = true;
    if (this.options.revokeAccessTokenOnRefresh) {
      const access = this.access.get(record.accessToken);
      if (access) access.revoked = true;
    }
    return this.issue(record.grant);
  }

  authenticate(accessToken: string): Authentication {
    const record = this.access.get(accessToken);
    if (!record) return { ok: false, reason: 'unknown' };
    if (record.revoked) return { ok: false, reason: 'revoked' };
    if (this.clock.now() >= record.expiresAt) return { ok: false, reason: 'expired' };
    return {
      ok: true,
      owner: { tenantId: record.grant.tenantId, extension: record.grant.extension },
    };
  }

  snapshot(): TokenSnapshot {
    return { access: [...this.access], refresh: [...this.refresh] };
  }

  /** Takes back the tokens of a snapshot (a restarted simulator that keeps its state). */
  restore(snapshot: TokenSnapshot): void {
    for (const [token, record] of snapshot.access) this.access.set(token, record);
    for (const [token, record] of snapshot.refresh) this.refresh.set(token, record);
  }

  /** Revokes one pair (by its refresh token), e.g. after a failed activation call. */
  revokePair(refreshToken: string): void {
    const record = this.refresh.get(refreshToken);
    if (!record) return;
    record.spent = true;
    const access = this.access.get(record.accessToken);
    if (access) access.revoked = true;
  }

  /** Revokes every token the user holds through this integration (and no other's). */
  revokeGrant(grant: TokenGrant): void {
    for (const record of this.access.values())
      if (sameGrant(record.grant, grant)) record.revoked = true;
    for (const record of this.refresh.values())
      if (sameGrant(record.grant, grant)) record.spent = true;
  }
}
