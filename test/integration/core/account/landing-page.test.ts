/**
 * The landing page in the browser's language: the receiver serves it in German to a browser that
 * asks for German (Accept-Language), in English otherwise; against the simulator's real portal,
 * with an in-memory vault.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { RunningSimulator } from '../../../../simulator/index';
import { MemoryVault } from '../../../../src-main/core/vault/memory-vault';
import {
  accountRig,
  capturingLogger,
  connect,
  startSim,
  type AccountRig,
} from '../../../support/sim-harness';

describe('landing page languages', () => {
  let sim: RunningSimulator;
  const rigs: AccountRig[] = [];
  beforeAll(async () => {
    sim = await startSim();
  });
  afterEach(async () => {
    for (const rig of rigs.splice(0)) await rig.account.close();
  });
  afterAll(async () => {
    await sim.close();
  });

  it('connected: German for a German browser, English for the others', async () => {
    const rig = await accountRig(sim, new MemoryVault(), capturingLogger().log);
    rigs.push(rig);
    const { started, portal, user } = await connect(rig, sim);
    const german = await fetch(portal.location!, {
      headers: { 'accept-language': 'fr-CH;q=0.9, de-DE, en;q=0.5' },
    });
    const page = await german.text();
    expect(german.status).toBe(200);
    expect(page).toContain('<html lang="de">');
    expect(page).toContain('<title>Callbar — Verbunden — Sie können diesen Tab schließen</title>');
    expect(page).toContain(
      `Callbar ist mit der Nebenstelle ${user.extension} (${sim.tenant_id}) verbunden.`,
    );
    await started.landed;
    const english = await (
      await fetch(portal.location!, { headers: { 'accept-language': 'fr-FR, en-GB;q=0.8' } })
    ).text();
    expect(english).toContain('<html lang="en">');
    expect(english).toContain('Connected — you can close this tab');
  });

  it('an attempt it does not know: German, escaped as ever', async () => {
    const rig = await accountRig(sim, new MemoryVault(), capturingLogger().log);
    rigs.push(rig);
    const { portal } = await connect(rig, sim);
    const unknown = new URL(portal.location!);
    unknown.searchParams.set('attempt', '<unknown>');
    const response = await fetch(unknown, { headers: { 'accept-language': 'de' } });
    expect(response.status).toBe(400);
    const page = await response.text();
    expect(page).toContain('<h1>Unbekannter Verbindungsversuch</h1>');
    expect(page).not.toContain('<unknown>');
  });
});
