import { expect, test, type Page } from '@playwright/test';
import { SimControl } from '../../simulator/control-client';
import { expectAccessible, openConnected, startApp, type E2eApp } from '../support/e2e-app';

/**
 * Issue 33: a screen reader hears each change of a call once. The window's live regions (every
 * element with aria-live other than "off", or a role that is one: status, alert, log) are read
 * before and after each change: exactly one has new text, the call announcer, which says it as a
 * sentence. The call bar shows the state without being a live region (CallAnnouncer.tsx says why).
 */
let app: E2eApp;
let control: SimControl;

test.beforeAll(async () => {
  app = await startApp({ sim: { contacts: 5, autoAnswer: false } });
  control = new SimControl(app.sim.base_url);
});
test.afterAll(async () => {
  await app.close();
});

const LIVE_REGIONS =
  '[aria-live]:not([aria-live="off"]), [role="status"], [role="alert"], [role="log"]';

/** Every live region's text by a stable id (given on first sight). */
function liveRegions(page: Page): Promise<Record<string, string>> {
  return page.evaluate((selector) => {
    const found: Record<string, string> = {};
    const ids = (window as { liveIds?: WeakMap<Element, string> }).liveIds ?? new WeakMap();
    Object.assign(window, { liveIds: ids });
    for (const region of document.querySelectorAll(selector)) {
      if (!ids.has(region)) {
        ids.set(
          region,
          `${region.tagName.toLowerCase()}#${region.getAttribute('data-testid') ?? ''}:${Math.random()}`,
        );
      }
      found[ids.get(region)!] = region.textContent ?? '';
    }
    return found;
  }, LIVE_REGIONS);
}

/** The regions whose text is new since `before` (one that appeared with text counts). */
function changed(before: Record<string, string>, after: Record<string, string>): string[] {
  return Object.entries(after)
    .filter(([id, text]) => text.trim() !== '' && (before[id] ?? '') !== text)
    .map(([id]) => id.split(':')[0]!);
}

test('each change of a call is said once, by the announcer', async ({ page }) => {
  await openConnected(page, app);
  await expect(page.getByTestId('sync-status')).toHaveAttribute('data-state', 'ready', {
    timeout: 30_000,
  });
  const announcer = page.getByTestId('call-announcer');
  const bar = page.getByTestId('call-bar');
  const chip = bar.getByTestId('call-chip');
  let before = await liveRegions(page);
  /** After `change`, once `announcer` says `words`: the live regions with new text. */
  const saidBy = async (change: () => Promise<unknown>, words: string | RegExp) => {
    await change();
    await expect(announcer).toHaveText(words);
    const after = await liveRegions(page);
    const regions = changed(before, after);
    before = after;
    return regions;
  };
  const ONLY_THE_ANNOUNCER = ['div#call-announcer'];

  // The platform is slow to answer the dial: "Calling …" first.
  const fault = await control.addFault({
    method: 'POST',
    path: '/v3/call_control/',
    delay_ms: 1500,
    count: 1,
  });
  const search = page.getByRole('combobox', { name: 'Search contacts or type a number' });
  await search.fill('+49 30 1234567');
  await expect(page.getByRole('option').first()).toContainText('Dial +49 30 1234567');
  before = await liveRegions(page);
  expect(
    await saidBy(async () => {
      await search.press('Enter');
      await expect(bar).toHaveAttribute('data-state', 'sending');
    }, 'Calling +49 30 1234567…'),
  ).toEqual(ONLY_THE_ANNOUNCER);
  expect(
    await saidBy(
      () => expect(chip).toHaveText('Your phone is ringing', { timeout: 20_000 }),
      /^\+49 30 1234567: Your phone is ringing/,
    ),
  ).toEqual(ONLY_THE_ANNOUNCER);
  await control.removeFault(fault.id).catch(() => undefined);

  const live = (await control.calls()).find((call) => call.state !== 'ended')!;
  const leg = async (which: 'caller' | 'callee') =>
    (await control.getCall(live.id)).legs.find((each) => each.leg === which)!;
  expect(
    await saidBy(async () => {
      await control.answerLeg((await leg('caller')).id);
      await expect(chip).toHaveText('Ringing…');
    }, '+49 30 1234567: Ringing…'),
  ).toEqual(ONLY_THE_ANNOUNCER);
  expect(
    await saidBy(async () => {
      await control.answerLeg((await leg('callee')).id);
      await expect(chip).toContainText('Connected');
    }, '+49 30 1234567: Connected'),
  ).toEqual(ONLY_THE_ANNOUNCER);
  await expectAccessible(page, 'call bar: connected, no second live region');
  expect(
    await saidBy(async () => {
      await control.endLeg((await leg('callee')).id);
      await expect(bar).toBeHidden();
    }, /^Call with \+49 30 1234567 ended\./),
  ).toEqual(ONLY_THE_ANNOUNCER);

  // An incoming call, answered elsewhere, hung up here.
  expect(
    await saidBy(async () => {
      await control.incomingCall({
        tenant_id: app.sim.tenant_id,
        user_extension: app.sim.users[0]!.extension,
        from: '+12025550199',
      });
      await expect(chip).toHaveText('Incoming call');
    }, /^Incoming call from \S/),
  ).toEqual(ONLY_THE_ANNOUNCER);
  expect(
    await saidBy(async () => {
      await page.keyboard.press('Escape');
      await expect(bar).toBeHidden();
    }, /^Call with .+ ended\./),
  ).toEqual(ONLY_THE_ANNOUNCER);
});
