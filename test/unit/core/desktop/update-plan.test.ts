import { describe, expect, it } from 'vitest';
import { planUpdater, updateGate } from '../../../../src-main/core/desktop/update-plan';

const on = {
  updates_enabled: true,
  update_channel: 'stable',
  update_url: 'https://updates.example.com/callbar',
} as const;

describe('the updater plan from the policies', () => {
  it('runs only in an installed Callbar, with updates on and a feed set', () => {
    expect(planUpdater({ policy: on, packaged: false })).toEqual({
      run: false,
      reason: 'Not an installed Callbar.',
    });
    expect(planUpdater({ policy: { ...on, updates_enabled: false }, packaged: true })).toEqual({
      run: false,
      reason: 'Updates are turned off by your organisation.',
    });
    expect(planUpdater({ policy: { ...on, update_url: undefined }, packaged: true })).toEqual({
      run: false,
      reason: 'No update feed is set (policy update_url): new versions come as packages.',
    });
  });

  it('reads the generic feed on the policy channel and never widens the decision', () => {
    expect(planUpdater({ policy: on, packaged: true })).toEqual({
      run: true,
      feed: { provider: 'generic', url: 'https://updates.example.com/callbar', channel: 'latest' },
      allowPrerelease: false,
      allowDowngrade: false,
      autoDownload: false,
      autoInstallOnAppQuit: true,
    });
    const beta = planUpdater({ policy: { ...on, update_channel: 'beta' }, packaged: true });
    expect(beta).toMatchObject({ feed: { channel: 'beta' }, allowPrerelease: true });
    expect(beta).toMatchObject({ allowDowngrade: false });
  });
});

describe('the gate each offered version passes', () => {
  const gate = updateGate({ current: '1.2.3', policy: on, installationId: 'desk-1' });

  it('is the policy decision: newer installs, a downgrade does not', () => {
    expect(gate({ version: '1.2.4' })).toEqual({ install: true, version: '1.2.4' });
    expect(gate({ version: '1.2.0' }).install).toBe(false);
    expect(gate({ version: '1.3.0-beta.1' }).install).toBe(false);
  });

  it('honours the staged rollout, also when the feed writes the percentage as text', () => {
    expect(gate({ version: '1.2.4', stagingPercentage: 0 }).install).toBe(false);
    expect(gate({ version: '1.2.4', stagingPercentage: 100 }).install).toBe(true);
    const asText = { version: '1.2.4', stagingPercentage: '0' as unknown as number };
    expect(gate(asText).install).toBe(false);
    // The same computer gets the same answer for every percentage: it holds one place.
    const places = Array.from(
      { length: 101 },
      (_, percentage) => gate({ version: '1.2.4', stagingPercentage: percentage }).install,
    );
    const first = places.indexOf(true);
    expect(first).toBeGreaterThan(0);
    expect(places.slice(first).every(Boolean)).toBe(true);
    expect(places.slice(0, first).some(Boolean)).toBe(false);
  });

  it('refuses a percentage that is no number instead of reaching everyone', () => {
    const typo = { version: '1.2.4', stagingPercentage: 'ten' as unknown as number };
    expect(gate(typo)).toEqual({
      install: false,
      reason: 'The feed\'s stagingPercentage "ten" is not a number: no update until it is.',
    });
  });

  it('answers nothing while updates are off, whatever the feed offers', () => {
    const off = updateGate({
      current: '1.2.3',
      policy: { ...on, updates_enabled: false },
      installationId: 'desk-1',
    });
    expect(off({ version: '9.0.0' }).install).toBe(false);
  });
});
