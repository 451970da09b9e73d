import { expect, test } from '@playwright/test';
import { SimControl } from '../../simulator/control-client';
import { connectThroughPortal, type E2eApp, picture, startApp } from '../support/e2e-app';

/**
 * With a platform slow to answer click-to-dial, Enter says "Calling …" at once, and a second
 * Enter (or the Call button) while the dial is in flight places no second call.
 */
let app: E2eApp;
let control: SimControl;

test.beforeAll(async () => {
  app = await startApp();
  control = new SimControl(app.sim.base_url);
});
test.afterAll(async () => {
  await app.close();
});

test('Enter on a slow platform says "Calling …" at once, and a second Enter dials nothing', async ({
  page,
}) => {
  await page.goto(app.preview.url);
  await connectThroughPortal(page, app);
  const search = page.getByRole('combobox', { name: 'Search contacts or type a number' });
  await search.fill('+49 30 1234567');
  await expect(page.getByRole('option').first()).toContainText('Dial +49 30 1234567');

  const fault = await control.addFault({
    method: 'POST',
    path: '/v3/call_control/',
    delay_ms: 4000,
    count: 1,
  });
  await search.press('Enter');
  const bar = page.getByRole('region', { name: 'Current call' });
  // Before the platform answers (the dial is still held back by the fault's delay).
  await expect(bar.getByTestId('call-state')).toContainText('+49 30 1234567');
  await expect(bar.getByTestId('call-chip')).toHaveText('Calling…');
  await expect(bar).toHaveAttribute('data-state', 'sending');
  await picture(page, 'calling-slow-platform.png');
  await search.press('Enter');
  await page.getByRole('button', { name: /^Call / }).click();

  // The platform answers: one call, followed by the bar.
  await expect(bar).not.toHaveAttribute('data-state', 'sending', { timeout: 15_000 });
  const dials = (await control.requests()).filter(
    (request) =>
      request.method === 'POST' &&
      request.path === '/v3/call_control/' &&
      JSON.stringify(request.body ?? '').includes('click-to-dial'),
  );
  expect(dials).toHaveLength(1);
  expect((await control.calls()).filter((call) => call.to === '+49301234567')).toHaveLength(1);
  await expect(page.getByTestId('call-error')).toHaveCount(0);
  await control.removeFault(fault.id).catch(() => undefined);
});
