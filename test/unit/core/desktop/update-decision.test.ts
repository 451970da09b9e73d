import { describe, expect, it } from 'vitest';
import {
  compareVersions,
  decideUpdate,
  rolloutNumber,
} from '../../../../src-main/core/desktop/update-decision';

const stable = { updates_enabled: true, update_channel: 'stable' } as const;
const beta = { updates_enabled: true, update_channel: 'beta' } as const;
const decide = (
  current: string,
  version: string,
  policy: { updates_enabled: boolean; update_channel: 'stable' | 'beta' } = stable,
  stagingPercentage?: number,
  installationId = 'desk-1',
) => decideUpdate({ current, offered: { version, stagingPercentage }, policy, installationId });

describe('update decisions', () => {
  it('installs a newer release', () => {
    expect(decide('1.2.3', '1.2.4')).toEqual({ install: true, version: '1.2.4' });
    expect(decide('1.2.3', '1.10.0')).toEqual({ install: true, version: '1.10.0' });
  });

  it('refuses a downgrade and a reinstall', () => {
    expect(decide('1.2.3', '1.2.2')).toEqual({
      install: false,
      reason: 'The feed offers 1.2.2, not newer than 1.2.3: Callbar never downgrades.',
    });
    expect(decide('1.2.3', '1.2.3').install).toBe(false);
    expect(decide('1.3.0-beta.2', '1.3.0-beta.1', beta).install).toBe(false);
    expect(decide('1.3.0', '1.3.0-beta.9', beta).install).toBe(false);
  });

  it('takes beta prereleases on the beta channel only, and no other prerelease', () => {
    expect(decide('1.2.3', '1.3.0-beta.1').install).toBe(false);
    expect(decide('1.2.3', '1.3.0-beta.1', beta)).toEqual({
      install: true,
      version: '1.3.0-beta.1',
    });
    expect(decide('1.2.3', '1.3.0-alpha.1', beta).install).toBe(false);
    expect(decide('1.3.0-beta.1', '1.3.0-beta.10', beta).install).toBe(true);
  });

  it('installs nothing while the organisation turned updates off', () => {
    expect(decide('1.2.3', '9.0.0', { updates_enabled: false, update_channel: 'stable' })).toEqual({
      install: false,
      reason: 'Updates are turned off by your organisation.',
    });
  });

  it('a staged rollout reaches its share of computers, the same ones each time', () => {
    const ids = Array.from({ length: 1000 }, (_, index) => `installation-${index}`);
    const reached = (percentage: number) =>
      ids.filter((id) => decide('1.0.0', '1.1.0', stable, percentage, id).install);
    expect(reached(0)).toEqual([]);
    expect(reached(100)).toHaveLength(1000);
    const quarter = reached(25);
    expect(quarter.length).toBeGreaterThan(180);
    expect(quarter.length).toBeLessThan(320);
    // Widening the rollout keeps everyone who had it.
    expect(reached(50)).toEqual(expect.arrayContaining(quarter));
    expect(rolloutNumber('installation-7')).toBe(rolloutNumber('installation-7'));
  });

  it('refuses a feed version that is not one', () => {
    expect(decide('1.2.3', 'latest')).toEqual({
      install: false,
      reason: 'The update feed offers "latest", not a version.',
    });
    expect(compareVersions('1.0.0-rc.1', '1.0.0')).toBe(-1);
    expect(compareVersions('1.0.0-beta.2', '1.0.0-beta.11')).toBe(-1);
  });
});
