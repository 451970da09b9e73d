import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import {
  type E2eApp,
  expectAccessibleInBothThemes,
  openConnected,
  picture,
  startApp,
} from '../support/e2e-app';

/**
 * Settings an organisation locked by policy (a throwaway CALLBAR_POLICY_DIR holding the Linux
 * policies.json): read-only in the window with "Set by your organisation"; the rest stay the
 * user's to change and save; an ignored policy value is named.
 */
let app: E2eApp;
let policyDir: string;

test.beforeAll(async () => {
  policyDir = mkdtempSync(join(tmpdir(), 'callbar-e2e-policy-'));
  writeFileSync(
    join(policyDir, 'policies.json'),
    JSON.stringify({
      locked: { region: 'AT', open_at_login: true, sync_interval_minutes: 0 },
      recommended: { dial_shortcut: 'CommandOrControl+Alt+K' },
    }),
  );
  app = await startApp({ env: { CALLBAR_POLICY_DIR: policyDir } });
});
test.afterAll(async () => {
  await app.close();
  rmSync(policyDir, { recursive: true, force: true });
});

test('locked settings are read-only with "Set by your organisation"; the others save', async ({
  page,
}) => {
  await openConnected(page, app);
  await page.getByRole('button', { name: 'Menu' }).click();
  await page.getByRole('button', { name: 'Settings' }).click();
  await expect(page.getByRole('heading', { name: 'Settings' })).toBeFocused();

  const region = page.getByRole('combobox', { name: 'Your country' });
  await expect(region).toHaveValue('AT');
  await expect(region).toBeDisabled();
  await expect(region).toHaveAccessibleDescription(/Set by your organisation/);
  const atLogin = page.getByRole('checkbox', { name: /Start Callbar when I log in/ });
  await expect(atLogin).toBeChecked();
  await expect(atLogin).toBeDisabled();
  await expect(atLogin).toHaveAccessibleDescription(/Set by your organisation/);
  // Recommended: the user's to change.
  const shortcut = page.getByRole('button', { name: /^Global shortcut: / });
  await expect(shortcut).toHaveAttribute('data-accelerator', 'CommandOrControl+Alt+K');
  await expect(shortcut).toBeEnabled();
  await expect(page.getByTestId('policy-problems')).toContainText(
    `${join(policyDir, 'policies.json')}: the locked policy "sync_interval_minutes" is 0`,
  );

  await shortcut.click();
  await page.keyboard.press('Control+Alt+J');
  await expect(shortcut).toHaveAttribute('data-accelerator', 'CommandOrControl+Alt+J');
  // Saved as it is changed; what the organisation locked is not the user's to save.
  await expect(page.getByTestId('settings-status')).toHaveText('Saved: Global shortcut');
  await expect(region).toHaveValue('AT');

  // A save that reaches core anyway (the policy came while the view was open) is refused with a
  // sentence for beside the field, which has its label: not the setting's internal name.
  const policies = join(policyDir, 'policies.json');
  const refused = (language: 'en' | 'de') =>
    page.evaluate(async (language) => {
      await window.callbar.settings.save({ language });
      const answer = await window.callbar.settings.save({ region: 'GB' });
      return answer.ok ? undefined : answer.error.fields;
    }, language);
  try {
    expect(await refused('en')).toEqual({
      region: `Set by your organisation (locked in ${policies}): Callbar did not change it; nothing was saved.`,
    });
    expect(await refused('de')).toEqual({
      region: `Legt Ihre Organisation fest (gesperrt in ${policies}): Callbar hat es nicht geändert; es wurde nichts gespeichert.`,
    });
  } finally {
    await page.evaluate(() => window.callbar.settings.save({ language: 'system' }));
  }
  await expect(page.locator('html')).toHaveAttribute('lang', 'en');

  await region.scrollIntoViewIfNeeded();
  await picture(page, 'settings-locked-light.png');
  await expectAccessibleInBothThemes(page, 'settings with locked fields');
});
