/**
 * How the desktop shell's updater (electron-updater, src-main/app/updater.ts) is set up, decided
 * from the machine's policies: whether it runs at all, which generic feed and channel it reads,
 * and the one question it asks before downloading (decideUpdate). The shell only carries this out.
 *
 * The updater runs only in an installed (packaged) Callbar, only while `updates_enabled` is on,
 * and only with a feed: the build names none, so an organisation that wants automatic updates
 * sets `update_url` (an https address of a folder electron-builder's `latest*.yml` files are
 * published to); without it the administrator deploys each version as a package.
 */
import type { PolicyOnly } from '../config/policy/policy-schema';
import { decideUpdate, type OfferedUpdate, type UpdateDecision } from './update-decision';

/** How often a running Callbar asks the feed again (the first check is at start). */
export const UPDATE_CHECK_INTERVAL_MS = 4 * 60 * 60 * 1000;

/** electron-updater's generic provider: the feed folder and the channel file it reads. */
export interface GenericFeed {
  provider: 'generic';
  url: string;
  /** `latest` (latest.yml, latest-mac.yml, latest-linux.yml) or `beta` (beta*.yml). */
  channel: 'latest' | 'beta';
}

export type UpdaterPlan =
  | { run: false; reason: string }
  | {
      run: true;
      feed: GenericFeed;
      /** electron-updater's own switches, set so they never widen what decideUpdate allows. */
      allowPrerelease: boolean;
      allowDowngrade: false;
      /** Download only after decideUpdate said yes; install when the user quits. */
      autoDownload: false;
      autoInstallOnAppQuit: true;
    };

/** Whether and how the updater runs in this process. */
export function planUpdater(options: {
  policy: Pick<PolicyOnly, 'updates_enabled' | 'update_channel' | 'update_url'>;
  /** An installed Callbar (a development run would update Electron itself). */
  packaged: boolean;
}): UpdaterPlan {
  const { policy } = options;
  if (!options.packaged) return { run: false, reason: 'Not an installed Callbar.' };
  if (!policy.updates_enabled) {
    return { run: false, reason: 'Updates are turned off by your organisation.' };
  }
  if (policy.update_url === undefined) {
    return {
      run: false,
      reason: 'No update feed is set (policy update_url): new versions come as packages.',
    };
  }
  const beta = policy.update_channel === 'beta';
  return {
    run: true,
    feed: { provider: 'generic', url: policy.update_url, channel: beta ? 'beta' : 'latest' },
    allowPrerelease: beta,
    allowDowngrade: false,
    autoDownload: false,
    autoInstallOnAppQuit: true,
  };
}

/**
 * The question the updater asks about each version the feed offers (its rollout hook and again
 * before downloading): the policy's decision for this computer, whatever electron-updater's own
 * rules would say.
 */
export function updateGate(options: {
  current: string;
  policy: Pick<PolicyOnly, 'updates_enabled' | 'update_channel'>;
  installationId: string;
}): (offered: OfferedUpdate) => UpdateDecision {
  return (offered) => {
    // The feed's YAML may carry the percentage as text. One that is no number stops the update
    // (a typo must not turn a staged rollout into everyone at once).
    const raw: unknown = offered.stagingPercentage;
    const stagingPercentage = typeof raw === 'string' && raw.trim() !== '' ? Number(raw) : raw;
    if (
      stagingPercentage !== undefined &&
      stagingPercentage !== null &&
      (typeof stagingPercentage !== 'number' || !Number.isFinite(stagingPercentage))
    ) {
      return {
        install: false,
        reason: `The feed's stagingPercentage ${JSON.stringify(raw)} is not a number: no update until it is.`,
      };
    }
    return decideUpdate({
      current: options.current,
      policy: options.policy,
      installationId: options.installationId,
      offered: {
        version: String(offered.version),
        stagingPercentage: stagingPercentage ?? undefined,
      },
    });
  };
}
