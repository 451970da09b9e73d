/**
 * Whether to install an update the feed offers, decided from the policies (updates on or off,
 * channel) and the feed's own facts (version, staged rollout percentage), so the desktop shell's
 * updater (electron-updater, src-main/app) only carries the decision out. Pure and testable here.
 *
 * - Updates off (policy `updates_enabled: false`): nothing is installed.
 * - A version not newer than the running one is refused: never a downgrade, nor a reinstall.
 * - The stable channel takes only releases; beta also takes `-beta.N` prereleases. Any other
 *   prerelease (`-alpha`, `-rc`…) is refused on both.
 * - A staged rollout (`stagingPercentage` in the feed, 0–100) reaches this computer when its
 *   stable rollout number (0–99, from a random id kept per installation) is below the
 *   percentage: the same computer gets the same answer each time the feed is read.
 */
import { createHash } from 'node:crypto';
import type { PolicyOnly } from '../config/policy/policy-schema';

/** What the feed says about the newest version. */
export interface OfferedUpdate {
  version: string;
  /** electron-builder's `stagingPercentage` (absent: everyone). */
  stagingPercentage?: number | undefined;
}

export type UpdateDecision =
  | { install: true; version: string }
  | { install: false; reason: string };

interface Version {
  core: [number, number, number];
  prerelease: string | undefined;
}

/** A semantic version (`1.2.3`, `1.2.3-beta.4`, an optional leading `v`), or undefined. */
function parseVersion(text: string): Version | undefined {
  const match = /^v?(\d+)\.(\d+)\.(\d+)(?:-([0-9A-Za-z.-]+))?(?:\+[0-9A-Za-z.-]+)?$/.exec(text);
  if (!match) return undefined;
  return { core: [Number(match[1]), Number(match[2]), Number(match[3])], prerelease: match[4] };
}

/** Semantic-version precedence: -1, 0 or 1. */
export function compareVersions(a: string, b: string): number {
  const left = parseVersion(a);
  const right = parseVersion(b);
  if (!left || !right) throw new Error(`not a version: ${left ? b : a}`);
  for (let index = 0; index < 3; index++) {
    const difference = left.core[index]! - right.core[index]!;
    if (difference !== 0) return Math.sign(difference);
  }
  if (left.prerelease === right.prerelease) return 0;
  if (left.prerelease === undefined) return 1;
  if (right.prerelease === undefined) return -1;
  const leftParts = left.prerelease.split('.');
  const rightParts = right.prerelease.split('.');
  for (let index = 0; index < Math.max(leftParts.length, rightParts.length); index++) {
    const l = leftParts[index];
    const r = rightParts[index];
    if (l === undefined) return -1;
    if (r === undefined) return 1;
    if (l === r) continue;
    const ln = /^\d+$/.test(l) ? Number(l) : undefined;
    const rn = /^\d+$/.test(r) ? Number(r) : undefined;
    if (ln !== undefined && rn !== undefined) return Math.sign(ln - rn);
    if (ln !== undefined) return -1;
    if (rn !== undefined) return 1;
    return l < r ? -1 : 1;
  }
  return 0;
}

/** This installation's place in a staged rollout, 0–99, from its random id. */
export function rolloutNumber(installationId: string): number {
  return createHash('sha256').update(installationId).digest().readUInt32BE(0) % 100;
}

/** Whether to install `offered` on a computer running `current`. */
export function decideUpdate(options: {
  current: string;
  offered: OfferedUpdate;
  policy: Pick<PolicyOnly, 'updates_enabled' | 'update_channel'>;
  installationId: string;
}): UpdateDecision {
  const { current, offered, policy } = options;
  if (!policy.updates_enabled) {
    return { install: false, reason: 'Updates are turned off by your organisation.' };
  }
  const version = parseVersion(offered.version);
  if (!version || !parseVersion(current)) {
    return {
      install: false,
      reason: `The update feed offers "${offered.version}", not a version.`,
    };
  }
  if (compareVersions(offered.version, current) <= 0) {
    return {
      install: false,
      reason: `The feed offers ${offered.version}, not newer than ${current}: Callbar never downgrades.`,
    };
  }
  if (version.prerelease !== undefined) {
    const beta = /^beta(\.\d+)?$/.test(version.prerelease);
    if (!beta || policy.update_channel !== 'beta') {
      return {
        install: false,
        reason: `${offered.version} is a prerelease; the ${policy.update_channel} channel does not take it.`,
      };
    }
  }
  const percentage = offered.stagingPercentage;
  if (percentage !== undefined && rolloutNumber(options.installationId) >= percentage) {
    return {
      install: false,
      reason: `${offered.version} is rolled out to ${percentage}% of computers so far, not yet this one.`,
    };
  }
  return { install: true, version: offered.version };
}
