/**
 * A connected Callbar process whose keyring gets locked and then its daemon restarted, run by
 * keychain-locked.test.ts inside a D-Bus session of its own (never the user's keyring). Prints
 * one line `{"report": …}`.
 *
 * Environment: SIM (the simulator's address, credentials and user, JSON), KEYRING_PASSWORD.
 */
import { execFileSync, execSync, spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SimControl } from '../../../simulator/control-client';
import { AccountService } from '../../../src-main/core/account/account-service';
import { createPlatformApi } from '../../../src-main/core/api/platform-api';
import type { AccountStatus } from '../../../src-shared/contract';
import { errorMessage } from '../../../src-main/core/errors';
import { silentLogger } from '../../../src-main/core/log/logger';
import { openVault } from '../../../src-main/core/vault/keytar-vault';
import { profileText } from '../files-under';

export interface LockedKeychainReport {
  connected: string;
  whileLocked: { request: string; status: AccountStatus; refreshes: number; tryAgain: string };
  afterRestart: {
    status: AccountStatus;
    newProcess: { code: number | null; stderr: string };
    refreshes: number;
  };
  filesWithToken: number;
}

interface SimInfo {
  base_url: string;
  portal_url: string;
  client_id: string;
  client_secret: string;
  tenant_id: string;
  extension: string;
}

const sim = JSON.parse(process.env.SIM ?? '') as SimInfo;
const root = join(import.meta.dirname, '../../..');

const control = new SimControl(sim.base_url);
const refreshes = async () =>
  (await control.requests()).filter(
    (entry) => entry.method === 'POST' && entry.path === '/v3/oauth/token/',
  ).length;

const dataDir = mkdtempSync(join(tmpdir(), 'callbar-locked-profile-'));
const vault = openVault({ dataDir });
const account = new AccountService({
  settings: {
    base_url: sim.base_url,
    portal_url: sim.portal_url,
    slug: 'callbar',
    receiver_port: 0,
    client_id: sim.client_id,
  },
  clientSecret: sim.client_secret,
  vault,
  log: silentLogger,
});
const api = createPlatformApi({ baseUrl: sim.base_url, tokens: account.tokens, log: silentLogger });

// Connected as an activation leaves it.
const tokens = await control.issueTokens({
  tenant_id: sim.tenant_id,
  user_extension: sim.extension,
});
await account.tokens.adopt({
  ...tokens,
  expires_at: Date.now() + 24 * 3600_000,
  tenant_id: sim.tenant_id,
  user_extension: sim.extension,
  client_id: sim.client_id,
  client_secret: sim.client_secret,
  base_url: sim.base_url,
});
const connected = (await account.start()).state;
await api.phonebooks.listPhonebooks();

// The keyring is locked; the platform's clock passes the token's 24 hours.
execFileSync('dbus-send', [
  '--session',
  '--dest=org.freedesktop.secrets',
  '--print-reply',
  '/org/freedesktop/secrets',
  'org.freedesktop.Secret.Service.Lock',
  'array:objpath:/org/freedesktop/secrets/collection/login',
]);
await control.advanceClock(25 * 3600);
await control.clearRequests();
const request = await api.phonebooks.listPhonebooks().then(
  () => 'succeeded',
  (error: unknown) => errorMessage(error),
);
const whileLocked = {
  request,
  status: account.status(),
  refreshes: await refreshes(),
  tryAgain: (await account.start()).state,
};

// The keyring daemon is restarted, unlocked (a prompt-less keyring cannot be unlocked in place).
execSync(
  'echo "$KEYRING_PASSWORD" | gnome-keyring-daemon --replace --unlock --components=secrets',
  { stdio: 'ignore' },
);
await new Promise((resolve) => setTimeout(resolve, 500));
const status = await account.start();
const cli = spawnSync(
  process.execPath,
  [join(root, 'bin/callbar.mjs'), 'phonebooks', 'list', '--json'],
  {
    env: {
      ...process.env,
      CALLBAR_DATA_DIR: dataDir,
      CALLBAR_BASE_URL: sim.base_url,
      CALLBAR_PORTAL_URL: sim.portal_url,
      CALLBAR_CLIENT_ID: sim.client_id,
      CALLBAR_CLIENT_SECRET: sim.client_secret,
    },
    encoding: 'utf8',
  },
);
const afterRestart = {
  status,
  newProcess: { code: cli.status, stderr: cli.stderr },
  refreshes: await refreshes(),
};
const files = profileText(dataDir);
const stored = await vault.load().catch(() => undefined);
const secrets = [tokens.access_token, tokens.refresh_token, sim.client_secret];
if (stored) secrets.push(stored.access_token, stored.refresh_token);
const report: LockedKeychainReport = {
  connected,
  whileLocked,
  afterRestart,
  filesWithToken: secrets.filter((secret) => files.includes(secret)).length,
};
console.log(JSON.stringify({ report }));
await account.close();
process.exit(0);
