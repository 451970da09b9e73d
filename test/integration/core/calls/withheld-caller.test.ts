/**
 * A caller who withholds their number: the platform's event names no number but a word
 * ("anonymous", "Restricted", RFC 3323's sip:anonymous@anonymous.invalid). Before, that word was
 * taken for the caller's number: the call bar, the tray and the notification showed "anonymous"
 * in English whatever the window's language, and offered Add to contacts, Call back and a CRM
 * link for it (Call back answered "That is not a phone number"). Now the number module says it
 * is no number, and the call is "Number withheld" (German: "Rufnummer unterdrückt") with no
 * number to call back or add. Under profiles whose events name nobody, the call stays an
 * unknown caller.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { SimControl } from '../../../../simulator/control-client';
import type { RunningSimulator } from '../../../../simulator/index';
import type { SimProfile } from '../../../../simulator/options';
import type { Call, CallsSnapshot } from '../../../../src-shared/contract';
import { MemoryVault } from '../../../../src-main/core/vault/memory-vault';
import { silentLogger } from '../../../../src-main/core/log/logger';
import { connectedCore, type ConnectedCore } from '../../../support/hardening/connected-core';
import { advanceClock, describeJourney, fullEvents, startSim } from '../../../support/sim-harness';

/**
 * A connected core under `profile`, and a call from a caller id to it (the core takes at most
 * five calls it did not place at once, so each journey has its own).
 */
function callerRig(profile: SimProfile) {
  let sim: RunningSimulator;
  let control: SimControl;
  let rig: ConnectedCore;

  beforeAll(async () => {
    sim = await startSim({ profile });
    control = new SimControl(sim.base_url);
    rig = await connectedCore(sim, { vault: new MemoryVault(), log: () => silentLogger });
  });
  afterAll(async () => {
    await rig?.core.close();
    await sim?.close();
  });

  async function snapshot(): Promise<CallsSnapshot> {
    const result = await rig.invoke('calls.list', {});
    if (!result.ok) throw new Error(result.error.message);
    return result.value as CallsSnapshot;
  }

  /** The call `from` makes as listed now (current or recent). */
  const listed = async (id: string) => {
    const { current, recent } = await snapshot();
    return [...current, ...recent].find((call) => call.id === id)!;
  };

  /**
   * The call `from` makes, once its events arrived, and after it ended (events naming the state:
   * an {id}-only profile's call is still in progress then).
   */
  async function callFrom(from: string): Promise<{ ringing: Call; ended: Call }> {
    await advanceClock(sim, 61);
    const incoming = await control.incomingCall({
      tenant_id: sim.tenant_id,
      user_extension: '201',
      from,
    });
    await control.webhooksSettled(20_000);
    const ringing = (await snapshot()).current[0]!;
    for (const leg of incoming.legs) await control.endLeg(leg.id).catch(() => undefined);
    await control.webhooksSettled(20_000);
    return { ringing, ended: await listed(ringing.id) };
  }

  const language = (language: 'en' | 'de') => {
    rig.core.profile.settings.language = language;
  };
  return { callFrom, listed, language };
}

describeJourney('a withheld caller id', (profile) => {
  const { callFrom, listed, language } = callerRig(profile);

  it('is no number: nothing to call back, add or look up, said in the window’s language', async () => {
    for (const from of ['anonymous', 'Restricted', 'sip:anonymous@anonymous.invalid']) {
      language('en');
      const { ringing, ended } = await callFrom(from);
      const expected = fullEvents(profile)
        ? { number: '', display: 'Number withheld' }
        : { number: '', display: 'Unknown caller' };
      expect(ringing.party, from).toEqual(expected);
      expect(ended.party, from).toEqual(expected);
      if (fullEvents(profile)) expect(ended.state, from).toBe('ended');
      language('de');
      expect((await listed(ringing.id)).party.display, from).toBe(
        fullEvents(profile) ? 'Rufnummer unterdrückt' : 'Unbekannter Anrufer',
      );
    }
    language('en');
  });

  it('leaves a caller who sends a number a number', async () => {
    const { ringing } = await callFrom('+44 20 7946 0205');
    expect(ringing.party).toEqual(
      fullEvents(profile)
        ? {
            number: '+442079460205',
            display: '+44 20 7946 0205',
            number_shown: '+44 20 7946 0205',
          }
        : { number: '', display: 'Unknown caller' },
    );
  });
});

describeJourney('a caller id that is a SIP address without a number', (profile) => {
  const { callFrom, listed, language } = callerRig(profile);

  it('is shown as the address in both languages, with no number to call back or look up', async () => {
    // Before, an address without a digit was "Number withheld" ("Rufnummer unterdrückt").
    for (const from of [
      'sip:alice@pbx.example.com',
      'alice@example.com',
      'sip:reception@acme.example',
    ]) {
      language('en');
      const { ringing, ended } = await callFrom(from);
      const expected = fullEvents(profile)
        ? { number: '', display: from }
        : { number: '', display: 'Unknown caller' };
      expect(ringing.party, from).toEqual(expected);
      expect(ended.party, from).toEqual(expected);
      language('de');
      expect((await listed(ringing.id)).party.display, from).toBe(
        fullEvents(profile) ? from : 'Unbekannter Anrufer',
      );
    }
    language('en');
  });
});
