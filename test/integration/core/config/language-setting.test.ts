/**
 * The `language` setting (issue 33) through core's IPC channels, as the window's language select
 * uses them: saved into the settings file and followed by this running Callbar at once (no
 * restart), so the tray and notifications can speak it; a language Callbar does not have is
 * refused on its field and nothing is written.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SettingsView } from '../../../../src-shared/contract';
import type { CallbarCore } from '../../../../src-main/core/callbar-core';
import { startTestCore } from '../../../support/test-core';

describe('the language setting', () => {
  let core: CallbarCore;
  beforeAll(async () => {
    core = await startTestCore();
  });
  afterAll(async () => {
    await core?.close();
  });
  const settingsFile = () => join(core.profile.dataDir, 'settings.json');

  it('is "system" on a fresh install and applies at once when saved', async () => {
    const fresh = await core.router.invoke('settings.get', undefined);
    expect(fresh.ok && (fresh.value as SettingsView).settings.language).toBe('system');
    const published: string[] = [];
    const unsubscribe = core.events.subscribe((event) => published.push(event.type));
    const saved = await core.router.invoke('settings.save', { language: 'de' });
    unsubscribe();
    expect(saved.ok).toBe(true);
    // Every window and the tray hear it and speak the new language.
    expect(published).toContain('settings.changed');
    const view = (saved as { value: SettingsView }).value;
    expect(view.settings.language).toBe('de');
    expect(view.restart_needed).not.toContain('language');
    expect(core.profile.settings.language).toBe('de');
    expect(JSON.parse(readFileSync(settingsFile(), 'utf8'))).toMatchObject({ language: 'de' });
  });

  it('refuses a language Callbar does not speak, on its field, and writes nothing', async () => {
    const before = readFileSync(settingsFile(), 'utf8');
    const published: string[] = [];
    const unsubscribe = core.events.subscribe((event) => published.push(event.type));
    const refused = await core.router.invoke('settings.save', { language: 'fr' });
    unsubscribe();
    expect(refused.ok).toBe(false);
    expect(published).not.toContain('settings.changed');
    if (!refused.ok) {
      expect(refused.error.field ?? Object.keys(refused.error.fields ?? {})[0]).toBe('language');
      expect(refused.error.message).toMatch(/language/);
    }
    expect(readFileSync(settingsFile(), 'utf8')).toBe(before);
    expect(core.profile.settings.language).toBe('de');
  });
});
