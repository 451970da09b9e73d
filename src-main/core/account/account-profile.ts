import type { ProfileConfig } from '../config/profile-config';
import type { Logger } from '../log/logger';
import type { AccountService } from './account-service';

/**
 * An opened profile (core/profile.ts opens one): its configuration, its log and the account
 * service on its keychain entry. The calls and the directory start from one.
 */
export interface Profile extends ProfileConfig {
  readonly log: Logger;
  readonly account: AccountService;
  close(): Promise<void>;
}
