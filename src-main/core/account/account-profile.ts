import type { ProfileConfig } from '../config/profile-config';
import type { RegionSource } from '../config/region-source';
import type { Logger } from '../log/logger';
import type { AccountService } from './account-service';

/**
 * An opened profile (core/profile.ts opens one): its configuration, its log and the account
 * service on its keychain entry. The calls and the directory start from one.
 */
export interface Profile extends ProfileConfig {
  /**
   * The user's region, live (the one source every number path asks: a change saved here or by
   * another process of the profile applies at once). `settings.region` is only what was set at
   * start.
   */
  readonly region: RegionSource;
  readonly log: Logger;
  readonly account: AccountService;
  close(): Promise<void>;
}
