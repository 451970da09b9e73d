/**
 * An administrator changes the machine's policies while Callbar runs: the running core (the web
 * preview's, as the app's) applies the change at once, as every CLI run after it does, without a
 * restart: the window's locks, the region numbers are read in, whether a link asks first; and a
 * CALLBAR_* variable a lock beats is not said to apply.
 */
import { mkdir, mkdtemp, rename, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SettingsView } from '../../../../src-shared/contract';
import { runCallbar } from '../../../support/cli-process';
import { startTestCore } from '../../../support/test-core';
import type { CallbarCore } from '../../../../src-main/core/callbar-core';

let root: string;
let policyDir: string;
let core: CallbarCore;

/** Writes the policy file as a deployment tool does: whole, in one rename. */
async function deploy(policy: object): Promise<void> {
  const next = join(root, 'next.json');
  await writeFile(next, JSON.stringify(policy));
  await rename(next, join(policyDir, 'policies.json'));
}

async function view(): Promise<SettingsView> {
  const got = await core.router.invoke('settings.get', {});
  if (!got.ok) throw new Error(got.error.message);
  return got.value as SettingsView;
}

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'callbar-policy-change-'));
  policyDir = join(root, 'etc-callbar');
  await mkdir(policyDir);
  core = await startTestCore({ env: { CALLBAR_POLICY_DIR: policyDir } });
});

afterAll(async () => {
  await core.close();
  await rm(root, { recursive: true, force: true });
});

describe('a policy changed while Callbar runs', () => {
  it('applies at once in the running core, as in a CLI run after it', async () => {
    // The user's own choices, saved in the window before the organisation locks anything.
    expect(
      await core.router.invoke('settings.save', { region: 'GB', confirm_web_links: false }),
    ).toMatchObject({ ok: true });
    expect(core.profile.region.current()).toBe('GB');

    await deploy({ locked: { region: 'AT', confirm_web_links: true } });
    const policyFile = join(policyDir, 'policies.json');

    // The window shows the new locks (within a second: the folder's watch, or the next look at
    // the files) and refuses to save what they lock.
    await expect
      .poll(async () => (await view()).locked, { timeout: 5_000 })
      .toEqual({ region: policyFile, confirm_web_links: policyFile });
    const locked = await view();
    expect(locked.settings).toMatchObject({ region: 'AT', confirm_web_links: true });
    expect(await core.router.invoke('settings.save', { region: 'FR' })).toMatchObject({
      ok: false,
      error: { code: 'setting_locked', field: 'region' },
    });
    // Numbers are read in the locked region, and a link asks first again.
    expect(core.profile.region.current()).toBe('AT');
    expect(core.profile.settings.confirm_web_links).toBe(true);

    // A CLI process of the same profile says the same.
    const { code, stdout } = await runCallbar(['policy', '--json'], {
      CALLBAR_POLICY_DIR: policyDir,
      CALLBAR_DATA_DIR: core.profile.dataDir,
    });
    expect(code).toBe(0);
    const report = JSON.parse(stdout) as { values: Record<string, { value: unknown }> };
    expect(report.values.region?.value).toBe('AT');
    expect(report.values.confirm_web_links?.value).toBe(true);

    // The lock lifted: the user's own choices apply again, and are theirs to change.
    await deploy({ recommended: { region: 'AT' } });
    await expect.poll(async () => (await view()).locked, { timeout: 5_000 }).toEqual({});
    expect(core.profile.region.current()).toBe('GB');
    expect(core.profile.settings.confirm_web_links).toBe(false);
    expect(await core.router.invoke('settings.save', { region: 'FR' })).toMatchObject({
      ok: true,
    });
  });
});

describe('a CALLBAR_* variable against a locked policy', () => {
  it('is not said to override it: the lock applies, and the window says so alone', async () => {
    await deploy({ locked: { region: 'AT', confirm_web_links: true } });
    const envCore = await startTestCore({
      env: {
        CALLBAR_POLICY_DIR: policyDir,
        CALLBAR_REGION: 'US',
        CALLBAR_CONFIRM_WEB_LINKS: 'false',
        CALLBAR_SYNC_INTERVAL_MINUTES: '5',
      },
    });
    try {
      expect(envCore.profile.region.current()).toBe('AT');
      expect(envCore.profile.settings.confirm_web_links).toBe(true);
      const got = await envCore.router.invoke('settings.get', {});
      if (!got.ok) throw new Error(got.error.message);
      const shown = got.value as SettingsView;
      expect(typeof shown.locked.region).toBe('string');
      // Only the variables that do apply (startTestCore gives the receiver's port).
      expect(shown.overridden).toEqual(['receiver_port', 'sync_interval_minutes']);
    } finally {
      await envCore.close();
    }
  });
});
