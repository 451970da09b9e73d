/**
 * Which account this profile was connected to, so that a connection to a different one is said
 * out loud. Anyone who gets hold of an attempt's confirmation key can complete the portal flow as
 * themselves, and Callbar cannot tell: the platform vouches for whoever signed in. What Callbar can
 * do is notice that the new session is not the account this computer used before, and say so in
 * the window and the CLI until the user acknowledges it. The record is non-secret (who, which
 * platform, when) and replaced atomically (`last-account.json`).
 */
import { join } from 'node:path';
import { z } from 'zod';
import type { AccountSwitch } from '../../../src-shared/contract';
import { fileFormat } from '../config/file-format';
import { profileStateFile, type StateFile } from '../config/state-file';
import { samePlatform } from '../http/directory-url';
import type { Logger } from '../log/logger';
import { said, type Said } from '../text/said';
import { inEnglish } from '../text/translators';

export const ConnectedAccount = z.object({
  tenant_id: z.string(),
  user_extension: z.string(),
  base_url: z.string(),
  /** ISO 8601; when Callbar was connected to this account (or first saw its session). */
  connected_at: z.string(),
});
export type ConnectedAccount = z.infer<typeof ConnectedAccount>;

export const AccountHistory = ConnectedAccount.extend({
  /** The different account connected before this one, until the user acknowledges the switch. */
  replaced: ConnectedAccount.optional(),
});
export type AccountHistory = z.infer<typeof AccountHistory>;

/** `last-account.json`: version 1; files from before versions had the same content. */
export const AccountHistoryFile = fileFormat({
  version: 1,
  content: AccountHistory,
});

export type AccountHistoryStore = StateFile<AccountHistory>;

/** The record `last-account.json` of the profile in `dataDir`. */
export function profileAccountHistory(dataDir: string, log: Logger): AccountHistoryStore {
  return profileStateFile(
    join(dataDir, 'last-account.json'),
    AccountHistoryFile,
    log,
    'record of the last connected account',
  );
}

/**
 * Whose data something is (the directory cache, a call): the account and the platform that
 * issued its session. Data of another owner is never shown.
 */
export const AccountOwner = ConnectedAccount.pick({
  tenant_id: true,
  user_extension: true,
  base_url: true,
});
export type AccountOwner = z.infer<typeof AccountOwner>;

type Identity = AccountOwner;

export function sameAccount(a: Identity, b: Identity): boolean {
  return (
    a.tenant_id === b.tenant_id &&
    a.user_extension === b.user_extension &&
    samePlatform(a.base_url, b.base_url)
  );
}

/** Whether two records say the same: the same account, connected at the same time, after the same. */
export function sameHistory(a: AccountHistory, b: AccountHistory): boolean {
  const same = (x: ConnectedAccount | undefined, y: ConnectedAccount | undefined) =>
    x === undefined || y === undefined
      ? x === y
      : sameAccount(x, y) && x.connected_at === y.connected_at;
  return same(ownAccount(a), ownAccount(b)) && same(a.replaced, b.replaced);
}

/** The record once `connected` is connected, `before` being the record (or session) before it. */
export function afterConnection(
  before: AccountHistory | undefined,
  connected: ConnectedAccount,
): AccountHistory {
  if (!before) return connected;
  if (sameAccount(before, connected)) {
    // Reconnecting the same account leaves an unacknowledged switch standing.
    return before.replaced ? { ...connected, replaced: before.replaced } : connected;
  }
  return { ...connected, replaced: ownAccount(before) };
}

/** The account a record is about, without the switch it may record. */
export function ownAccount(history: AccountHistory): ConnectedAccount {
  const { tenant_id, user_extension, base_url, connected_at } = history;
  return { tenant_id, user_extension, base_url, connected_at };
}

/** What the status says when `history` records a switch to the account `current` is about. */
export function accountSwitch(
  history: AccountHistory | undefined,
  current: Identity,
): AccountSwitch | undefined {
  const previous = history?.replaced;
  if (!history || !previous || !sameAccount(history, current)) return undefined;
  return {
    tenant_id: previous.tenant_id,
    user_extension: previous.user_extension,
    connected_at: previous.connected_at,
    message: inEnglish(switchWords(previous, current)),
  };
}

/** What changed, named once: the extension, the tenant, or only the platform's address. */
function switchWords(previous: Identity, current: Identity): Said {
  const now = { extension: current.user_extension, tenant: current.tenant_id };
  if (
    previous.tenant_id === current.tenant_id &&
    previous.user_extension === current.user_extension
  ) {
    // The same extension and tenant on another platform: saying "201, not 201" would tell nothing.
    return said('errors:account.switchPlatform', {
      ...now,
      url: current.base_url,
      previousUrl: previous.base_url,
    });
  }
  return previous.tenant_id !== current.tenant_id ||
    !samePlatform(previous.base_url, current.base_url)
    ? said('errors:account.switchTenant', {
        ...now,
        previousExtension: previous.user_extension,
        previousTenant: previous.tenant_id,
      })
    : said('errors:account.switchExtension', {
        ...now,
        previousExtension: previous.user_extension,
      });
}
