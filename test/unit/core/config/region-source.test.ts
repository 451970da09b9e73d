/**
 * The profile's one live region (issue 41): the system's until someone chooses one, and a region
 * saved by another process of the profile is the region of this one at its next use, and told to
 * its listeners by the watch on the profile folder, without a restart.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { profileRegion } from '../../../../src-main/core/config/region-source';
import { followSettingsFile } from '../../../../src-main/core/config/settings-file-source';
import { saveSettings } from '../../../../src-main/core/config/settings-store';
import { NO_POLICIES } from '../../../../src-main/core/config/policy/policies';
import { silentLogger } from '../../../../src-main/core/log/logger';
import { watchFolder } from '../../../../src-main/core/files/folder-watch';
import { until } from '../../../support/until';

function source(env: NodeJS.ProcessEnv = {}, system: 'DE' | 'none' = 'DE') {
  const dataDir = mkdtempSync(join(tmpdir(), 'callbar-region-'));
  const folder = watchFolder(dataDir, silentLogger);
  const file = followSettingsFile({
    dataDir,
    env,
    policies: () => NO_POLICIES,
    log: silentLogger,
    folder,
  });
  const region = profileRegion({ file, system: system === 'none' ? undefined : system });
  onTestFinished(() => {
    region.close();
    file.close();
    folder.close();
  });
  return { dataDir, region };
}

describe('the region source', () => {
  it('is the system’s until someone chooses one, and says so', async () => {
    const { dataDir, region } = source();
    expect([region.current(), region.confirmed(), region.system()]).toEqual(['DE', false, 'DE']);
    await saveSettings({ dataDir }, { region: 'DE' });
    expect([region.current(), region.confirmed()]).toEqual(['DE', true]);
    expect(source({}, 'none').region.current()).toBe('US');
    expect(source({ CALLBAR_REGION: 'at' }).region.confirmed()).toBe(true);
  });

  it('follows a region another process saved, at its next use and by the watch', async () => {
    const { dataDir, region } = source();
    const told: string[] = [];
    region.onChange((code) => told.push(code));
    // Another process (the CLI, a second window) saves the profile's settings.
    await saveSettings({ dataDir }, { region: 'GB' });
    await until('the watch told the change', () => Promise.resolve(told.length > 0 || undefined));
    expect(told).toEqual(['GB']);
    await saveSettings({ dataDir }, { region: 'FR' });
    expect(region.current()).toBe('FR');
  });

  it('keeps the last region while the file is broken, and an override over the file', async () => {
    const { dataDir, region } = source();
    await saveSettings({ dataDir }, { region: 'GB' });
    expect(region.current()).toBe('GB');
    writeFileSync(join(dataDir, 'settings.json'), '{"region": ');
    expect(region.current()).toBe('GB');
    const overridden = source({ CALLBAR_REGION: 'CH' });
    await saveSettings({ dataDir: overridden.dataDir }, { region: 'GB' });
    expect(overridden.region.current()).toBe('CH');
  });
});
