import electronUpdater from 'electron-updater';
import { installationId } from '../core/desktop/installation-id';
import { planUpdater, UPDATE_CHECK_INTERVAL_MS, updateGate } from '../core/desktop/update-plan';
import type { PolicyOnly } from '../core/config/policy/policy-schema';
import type { Logger } from '../core/log/logger';

/**
 * Runs electron-updater as the policies decide (src-main/core/desktop/update-plan.ts): the
 * generic feed and channel `update_url`/`update_channel` set, nothing while updates are off, and
 * every offered version put to decideUpdate (no downgrade, channel rules, staged rollout by this
 * installation's id) before it is downloaded. A downloaded update is installed when Callbar quits.
 * Returns a function that stops the periodic checks.
 */
export async function startUpdater(options: {
  policy: PolicyOnly;
  packaged: boolean;
  currentVersion: string;
  dataDir: string;
  log: Logger;
}): Promise<() => void> {
  const { log } = options;
  const plan = planUpdater({ policy: options.policy, packaged: options.packaged });
  if (!plan.run) {
    log.info('updater not started', { reason: plan.reason });
    return () => undefined;
  }
  const gate = updateGate({
    current: options.currentVersion,
    policy: options.policy,
    installationId: await installationId(options.dataDir, log),
  });
  // electron-updater is CommonJS whose autoUpdater is a getter: reach it through the default.
  const updater = electronUpdater.autoUpdater;
  updater.logger = {
    info: (message?: unknown) => log.info(`updater: ${String(message)}`),
    warn: (message?: unknown) => log.warn(`updater: ${String(message)}`),
    error: (message?: unknown) => log.warn(`updater: ${String(message)}`),
  };
  updater.setFeedURL(plan.feed);
  updater.channel = plan.feed.channel;
  // Setting the channel turns allowDowngrade on: set the plan's switches after it.
  updater.allowPrerelease = plan.allowPrerelease;
  updater.allowDowngrade = plan.allowDowngrade;
  updater.autoDownload = plan.autoDownload;
  updater.autoInstallOnAppQuit = plan.autoInstallOnAppQuit;
  updater.isUserWithinRollout = (info) => {
    const decision = gate(info);
    if (!decision.install) log.info('update not taken', { reason: decision.reason });
    return decision.install;
  };
  updater.on('update-available', (info) => {
    if (!gate(info).install) return;
    updater.downloadUpdate().catch((error: unknown) => {
      log.warn('downloading the update failed', { error });
    });
  });
  updater.on('update-downloaded', (info) => {
    log.info('update downloaded; installed when Callbar quits', { version: info.version });
  });
  updater.on('error', (error) => log.warn('the updater failed', { error }));

  const check = () =>
    void updater.checkForUpdates().catch((error: unknown) => {
      log.warn('looking for an update failed', { error });
    });
  check();
  const timer = setInterval(check, UPDATE_CHECK_INTERVAL_MS);
  return () => clearInterval(timer);
}
