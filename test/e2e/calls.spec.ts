import { expect, test } from '@playwright/test';
import { SUITE_PROFILES } from '../../simulator/index';
import { SimControl } from '../../simulator/control-client';
import {
  connectThroughPortal,
  type E2eApp,
  expectAccessibleInBothThemes,
  openConnected,
  picture,
  placedCallBar,
  startApp,
} from '../support/e2e-app';

/**
 * Dialing with the keyboard only, the call bar following the platform's webhook events, Esc to
 * hang up, redial from recent calls, and the tel: link confirmation, under both simulator
 * profiles: 'rich' events say who rings, 'minimal' ones carry only the leg id.
 */
for (const profile of SUITE_PROFILES) {
  test.describe(`simulator profile ${profile}`, () => {
    let app: E2eApp;
    let control: SimControl;
    test.beforeAll(async () => {
      app = await startApp({ sim: { profile, autoAnswer: false } });
      control = new SimControl(app.sim.base_url);
    });
    test.afterAll(async () => {
      await app.close();
    });

    /** The simulator's one live call, and its legs. */
    async function liveCall() {
      const live = (await control.calls()).filter((call) => call.state !== 'ended');
      expect(live).toHaveLength(1);
      const call = live[0]!;
      return {
        call,
        caller: call.legs.find((leg) => leg.leg === 'caller')!,
        callee: () => control.getCall(call.id).then((c) => c.legs.find((l) => l.leg === 'callee')!),
      };
    }

    test('type a number, Enter, follow the call, Esc hangs up, redial from recent calls', async ({
      page,
    }) => {
      await page.goto(app.preview.url);
      await connectThroughPortal(page, app);
      const search = page.getByRole('combobox', { name: 'Search contacts or type a number' });
      await expect(search).toBeFocused();

      await page.keyboard.type('+49 30 1234567');
      const first = page.getByRole('option').first();
      await expect(first).toContainText('Dial +49 30 1234567');
      await expect(first).toHaveAttribute('aria-selected', 'true');
      await page.keyboard.press('Enter');

      const bar = await placedCallBar(page);
      await expect(bar.getByTestId('call-state')).toContainText('+49 30 1234567');
      const { call, caller, callee } = await liveCall();
      expect(call.to).toBe('+49301234567');

      // Your phone rings first, then the other party's; events move the bar along.
      if (profile === 'rich') {
        await expect(bar.getByTestId('call-state')).toContainText('Your phone is ringing');
      }
      await control.answerLeg(caller.id);
      if (profile === 'rich') await expect(bar.getByTestId('call-state')).toContainText('Ringing');
      await control.answerLeg((await callee()).id);
      await expect(bar.getByTestId('call-state')).toContainText(
        profile === 'rich' ? 'Connected' : 'Call in progress',
      );
      await expect(page.getByTestId('call-duration')).toHaveText(/^\s*\d+:\d\d$/);
      // Events with a leg id only cannot say when the call ends: the bar says how to clear it.
      await expect(page.getByTestId('call-end-hint')).toHaveCount(profile === 'rich' ? 0 : 1);
      await expectAccessibleInBothThemes(page, `call bar (${profile})`);

      // Esc hangs up, wherever the focus is.
      await page.keyboard.press('Escape');
      await expect(bar).toBeHidden();
      await expect.poll(async () => (await control.getCall(call.id)).state).toBe('ended');

      // The call is in Recent calls; Call again places it anew.
      await search.fill('');
      const recent = page.getByRole('region', { name: 'Recent calls' });
      await expect(recent.getByRole('listitem')).toHaveCount(1);
      await expect(recent).toContainText('+49 30 1234567');
      await expectAccessibleInBothThemes(page, `recent calls (${profile})`);
      await picture(page, `recent-calls-${profile}.png`);
      // Within 2 s of the first dial the same number is refused as a double click ("Callbar is
      // already calling …"); a person presses again a moment later, and so does this test.
      // The call bar says "Calling …" at once, before the platform answers (or the repeat is
      // refused), so the call placed at the platform is what counts.
      const live = async () =>
        (await control.calls()).filter((call) => call.state !== 'ended').length;
      await expect(async () => {
        await recent.getByRole('button', { name: /^Call / }).click();
        await expect.poll(live, { timeout: 1500 }).toBe(1);
      }).toPass({ timeout: 20_000 });
      await expect(bar).toBeVisible();
      const again = await liveCall();
      expect(again.call.id).not.toBe(call.id);
      expect(again.call.to).toBe('+49301234567');
      if (profile === 'minimal') {
        // The call ends on the phones; leg-id-only events cannot tell the window so, and Hang up
        // clears it (the platform refuses to end an ended leg).
        await control.endLeg(again.caller.id);
        await expect.poll(async () => (await control.getCall(again.call.id)).state).toBe('ended');
        await control.webhooksSettled();
        await expect(bar).toBeVisible();
        await expect(page.getByTestId('call-end-hint')).toBeVisible();
      }
      await bar.getByRole('button', { name: /Hang up/ }).click();
      await expect(bar).toBeHidden();
      // The same number twice: one line in Recent calls, saying so.
      await expect(recent.getByRole('listitem')).toHaveCount(1);
      await expect(recent.getByRole('listitem')).toContainText('2 calls');
      if (profile === 'minimal') {
        // Said as a quiet notice (the call is gone; nothing to alarm anyone about).
        await expect(page.getByTestId('call-error')).toContainText('That call has already ended');
      }
      // The Hang up button went away with the bar: the focus is back in the search box.
      await expect(search).toBeFocused();
      await page.keyboard.press('Tab');
      await page.keyboard.press('Control+K');
      await expect(search).toBeFocused();

      // Clearing is destructive (the notes go too): it asks first, and Keep keeps every call.
      await recent.getByRole('button', { name: 'More: export, clear' }).click();
      await page.getByRole('menuitem', { name: 'Clear recent calls…' }).click();
      // It says how many calls go (two to the same number, on one line).
      const clear = page.getByRole('dialog', { name: 'Clear 2 recent calls?' });
      await expect(clear).toBeVisible();
      await clear.getByRole('button', { name: 'Keep' }).click();
      await expect(recent.getByRole('listitem')).toHaveCount(1);
      await recent.getByRole('button', { name: 'More: export, clear' }).click();
      await page.getByRole('menuitem', { name: 'Clear recent calls…' }).click();
      await clear.getByRole('button', { name: 'Clear', exact: true }).click();
      await expect(clear).toBeHidden();
      await expect(recent.getByRole('listitem')).toHaveCount(0);
      // Kept until the Undo is over (issue 41 point 8: test/e2e/numbers.spec.ts).
      await expect(recent.getByTestId('recent-cleared')).toContainText('2 calls cleared.');
    });

    test('a tel: link asks first: Cancel places no call, Dial places it, "always" stops asking', async ({
      page,
    }) => {
      await openConnected(page, app);
      // A fresh call-control rate window (the minimal profile allows 10 requests a minute).
      await control.advanceClock(60);
      const before = (await control.calls()).length;

      // The OS hands Callbar a link (the desktop shell and `callbar open-url` take this path).
      await page.evaluate(() => window.callbar.calls.openUrl({ url: 'tel:+1-202-555-0141' }));
      const dialog = page.getByRole('dialog', { name: /^Dial / });
      await expect(dialog).toBeVisible();
      // Shown the national way at home (US here); the exact number on the "Dials" line.
      await expect(dialog.getByTestId('pending-number')).toContainText('(202) 555-0141');
      await expect(dialog.getByTestId('pending-digits')).toContainText('+12025550141');
      await expect(dialog).toContainText('tel:+1-202-555-0141');
      await expect(dialog.getByRole('button', { name: 'Cancel' })).toBeFocused();
      await expectAccessibleInBothThemes(page, `link confirmation (${profile})`);
      await picture(page, `link-confirmation-${profile}.png`);
      await page.keyboard.press('Enter');
      await expect(dialog).toBeHidden();
      expect((await control.calls()).length).toBe(before);

      await page.evaluate(() => window.callbar.calls.openUrl({ url: 'tel:+1-202-555-0141' }));
      await expect(dialog).toBeVisible();
      await dialog.getByRole('button', { name: 'Dial', exact: true }).click();
      await expect(dialog).toBeHidden();
      const bar = await placedCallBar(page);
      await expect.poll(async () => (await control.calls()).length).toBe(before + 1);
      await page.keyboard.press('Escape');
      await expect(bar).toBeHidden();

      await control.advanceClock(60);
      // "Always dial phone links without asking": the next link dials at once. (Other numbers:
      // the same destination twice within seconds is refused as a double click.)
      await page.evaluate(() => window.callbar.calls.openUrl({ url: 'tel:+1-202-555-0142' }));
      await dialog
        .getByRole('checkbox', { name: 'Always dial phone links without asking' })
        .check();
      await dialog.getByRole('button', { name: 'Dial', exact: true }).click();
      // Esc goes to an open dialog first: hang up once the confirmation has closed.
      await expect(dialog).toBeHidden();
      await expect(bar).toBeVisible();
      await page.keyboard.press('Escape');
      await expect(bar).toBeHidden();
      const outcome = await page.evaluate(() =>
        window.callbar.calls.openUrl({ url: 'tel:+1-202-555-0144' }),
      );
      expect(outcome.ok && outcome.value.status).toBe('dialing');
      await expect(bar).toBeVisible();
      await expect(dialog).toBeHidden();
      await expect.poll(async () => (await control.calls()).length).toBe(before + 3);
      await page.keyboard.press('Escape');
      await expect(bar).toBeHidden();
    });
  });
}
