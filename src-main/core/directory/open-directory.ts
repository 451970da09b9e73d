/**
 * The directory of a profile: its data folder, live region and refresh interval, the account it
 * belongs to. The app, the web preview and the CLI open it the same way.
 */
import type { PhonebookApi } from '../api/phonebook-api';
import type { Clock } from '../clock';
import { createPlatformApi } from '../api/platform-api';
import type { Profile } from '../account/account-profile';
import { Directory } from './directory';

/**
 * `phonebooks`: the API to sync with; by default one on the profile's session. `clock`: the
 * platform's time as Callbar waits on it (default: real time).
 */
export function openDirectory(
  profile: Profile,
  phonebooks: PhonebookApi = createPlatformApi({
    baseUrl: profile.settings.base_url,
    tokens: profile.account.tokens,
    log: profile.log,
    dataDir: profile.dataDir,
  }).phonebooks,
  clock?: Clock,
): Directory {
  const owner = () => profile.account.owner();
  return new Directory({
    dataDir: profile.dataDir,
    region: () => profile.region.current(),
    log: profile.log,
    phonebooks: () => (owner() ? phonebooks : undefined),
    owner,
    intervalMs: profile.settings.sync_interval_minutes * 60_000,
    ...(clock ? { clock } : {}),
  });
}
