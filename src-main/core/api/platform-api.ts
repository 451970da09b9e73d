import { CallbarError } from '../errors';
import type { AccessTokens } from './access-tokens';
import type { Logger } from '../log/logger';
import { CallControlApi, type CallIdentity } from './call-control-api';
import { PageSizes, pageSizeFile } from './page-walk';
import { PhonebookApi } from './phonebook-api';
import { PlatformClient, type PlatformClientOptions } from './platform-client';
import { said } from '../text/said';

/** The whole platform API for the connected account: phonebooks, contacts, call control. */
export interface PlatformApi {
  readonly phonebooks: PhonebookApi;
  readonly calls: CallControlApi;
}

export function createPlatformApi(options: {
  baseUrl: string;
  tokens: AccessTokens;
  log: Logger;
  client?: Partial<Pick<PlatformClientOptions, 'timeoutMs' | 'retry'>>;
  /** The profile's folder: the platform's page size, once learnt, is kept there for its processes. */
  dataDir?: string;
}): PlatformApi {
  const client = new PlatformClient({
    baseUrl: options.baseUrl,
    tokens: options.tokens,
    log: options.log,
    ...options.client,
  });
  return {
    phonebooks: new PhonebookApi(
      client,
      options.baseUrl,
      new PageSizes(
        options.baseUrl,
        options.dataDir === undefined ? undefined : pageSizeFile(options.dataDir, options.log),
      ),
    ),
    calls: new CallControlApi(client, () => callIdentity(options.tokens)),
  };
}

/** Who call control acts for: the session's user; throws `not_connected` without a session. */
export function callIdentity(tokens: Pick<AccessTokens, 'session'>): CallIdentity {
  const session = tokens.session;
  if (!session) {
    throw new CallbarError('not_connected', said('errors:directory.connectFirst'));
  }
  return { tenant_id: session.tenant_id, user_extension: session.user_extension };
}
