/**
 * A setting changed by another process of the profile applies to the running Callbar at once.
 * The app, the CLI and the demo share one profile: here the running core (this process, connected
 * to the simulator as the app is) and a second real process, the web preview's server on the same
 * profile folder, whose window saves the settings. Before, the running core followed only the
 * region the other process saved: a country the other process had just forbidden was still
 * dialled here (and `callbar dial` refused it), in the language it had before, until a restart.
 *
 * Under the simulator's `minimal` and `variant` profiles: the dial goes to the platform.
 */
import { rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { SimControl } from '../../../../simulator/control-client';
import type { RunningSimulator } from '../../../../simulator/index';
import { silentLogger } from '../../../../src-main/core/log/logger';
import { MemoryVault } from '../../../../src-main/core/vault/memory-vault';
import type { SettingsView } from '../../../../src-shared/contract';
import { freePort } from '../../../support/free-port';
import { connectedCore, type ConnectedCore } from '../../../support/hardening/connected-core';
import {
  standInPages,
  startPreviewProcess,
  type PreviewProcess,
} from '../../../support/preview-process';
import { advanceClock, profileEnv, startSim } from '../../../support/sim-harness';

vi.setConfig({ testTimeout: 60_000, hookTimeout: 60_000 });

/**
 * French landlines: abroad for the profile's region (the system's, US here). Two: one click is one
 * call, so the same number is not dialled again within seconds.
 */
const FRENCH = '+33 1 42 68 53 00';
const LYON = '+33 4 72 10 30 30';

describe.each(['minimal', 'variant'] as const)('simulator profile %s', (simProfile) => {
  let sim: RunningSimulator;
  let control: SimControl;
  let rig: ConnectedCore;
  let other: PreviewProcess;
  let out: string;

  /** A save in the other process's window. */
  async function saveElsewhere(patch: Record<string, unknown>): Promise<void> {
    const saved = await other.invoke<SettingsView>('settings.save', patch);
    expect(saved.ok, JSON.stringify(saved)).toBe(true);
  }
  const settingsEvents = () =>
    rig.seen.filter((seen) => (seen as { type?: string }).type === 'settings.changed').length;
  const frenchCalls = async () =>
    (await control.calls()).filter((call) => call.to.startsWith('+33')).length;

  beforeAll(async () => {
    sim = await startSim({ profile: simProfile });
    control = new SimControl(sim.base_url);
    rig = await connectedCore(sim, { vault: new MemoryVault(), log: () => silentLogger });
    // A stand-in page: the other process is here for its settings, not its window.
    out = standInPages();
    other = await startPreviewProcess({
      ...profileEnv(sim, rig.dataDir, await freePort()),
      CALLBAR_OUT_DIR: out,
    });
  });
  afterAll(async () => {
    await other?.stop();
    await rig?.core.close();
    await sim?.close();
    rmSync(out, { recursive: true, force: true });
  });

  it('dials, refuses and speaks as the other process saved, without a restart', async () => {
    // Before: every country is allowed, and Callbar speaks English.
    const placed = await rig.invoke('calls.dial', { target: FRENCH });
    expect(placed, JSON.stringify(placed)).toMatchObject({ ok: true });
    expect(await frenchCalls()).toBe(1);
    await rig.invoke('calls.hangup');
    await advanceClock(sim, 61);

    const before = settingsEvents();
    await saveElsewhere({ dial_allowed_countries: ['GB'], language: 'de' });
    // The window here is told (it reads the settings again: its language) …
    await expect.poll(settingsEvents, { timeout: 5_000 }).toBeGreaterThan(before);
    // … and the running core refuses what the other process now refuses, in its new language.
    const refused = await rig.invoke('calls.dial', { target: FRENCH });
    expect(refused).toMatchObject({ ok: false, error: { code: 'dial_not_allowed' } });
    expect(refused.ok ? '' : refused.error.message).toContain('Frankreich');
    expect(await frenchCalls()).toBe(1);
    const shown = await rig.invoke('settings.get');
    expect(shown).toMatchObject({
      ok: true,
      value: { settings: { dial_allowed_countries: ['GB'], language: 'de' }, restart_needed: [] },
    });

    // Allowed again over there: dialled here again.
    await saveElsewhere({ dial_allowed_countries: [], language: 'en' });
    await expect
      .poll(() => rig.core.profile.settings.dial_allowed_countries, { timeout: 5_000 })
      .toEqual([]);
    const again = await rig.invoke('calls.dial', { target: LYON });
    expect(again, JSON.stringify(again)).toMatchObject({ ok: true });
    expect(await frenchCalls()).toBe(2);
    await rig.invoke('calls.hangup');
  });

  it('a setting that is not live still applies when Callbar starts again', async () => {
    const running = rig.core.profile.settings.sync_interval_minutes;
    await saveElsewhere({ sync_interval_minutes: running + 7 });
    await expect
      .poll(async () => ((await rig.invoke('settings.get')) as { value: SettingsView }).value)
      .toMatchObject({
        settings: { sync_interval_minutes: running + 7 },
        restart_needed: ['sync_interval_minutes'],
      });
    expect(rig.core.profile.settings.sync_interval_minutes).toBe(running);
  });
});
