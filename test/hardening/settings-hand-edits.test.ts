/**
 * The settings file edited by hand while Callbar runs (docs/configuration.md says people may):
 * a valid edit of a live setting applies at once; an edit that cannot be applied changes nothing
 * (no half of it), is logged naming the setting and why, and is said in the window until the file
 * is fixed; Callbar keeps running. The edits a hostile or clumsy writer makes: in place and
 * half-written, a flood of them, a link planted in the file's place, an enormous file. A locked
 * policy still beats the file.
 */
import {
  appendFileSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { CallbarCore } from '../../src-main/core/callbar-core';
import type { SettingsView } from '../../src-shared/contract';
import { capturingLogger } from '../support/sim-harness';
import { startTestCore } from '../support/test-core';

const cores: CallbarCore[] = [];
const dirs: string[] = [];
afterEach(async () => {
  for (const core of cores.splice(0)) await core.close();
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

async function running(env: NodeJS.ProcessEnv = {}) {
  const dataDir = mkdtempSync(join(tmpdir(), 'callbar-hand-edit-'));
  dirs.push(dataDir);
  const { log, lines } = capturingLogger();
  const core = await startTestCore({ env: { CALLBAR_DATA_DIR: dataDir, ...env }, log });
  cores.push(core);
  let told = 0;
  core.events.subscribe((event) => {
    if (event.type === 'settings.changed') told++;
  });
  const file = join(dataDir, 'settings.json');
  const view = async (): Promise<SettingsView> => {
    const got = await core.router.invoke('settings.get', {});
    if (!got.ok) throw new Error(got.error.message);
    return got.value as SettingsView;
  };
  return { core, dataDir, file, lines, view, told: () => told };
}

/** What a text editor that writes in place does: the same file, truncated and written. */
function editInPlace(file: string, text: string): void {
  writeFileSync(file, text, { mode: 0o600 });
}

describe('a hand edit of the settings file while Callbar runs', () => {
  it('applies a valid edit at once; an invalid one changes nothing, is logged and said, until fixed', async () => {
    const { core, file, lines, view, told } = await running();
    const { settings } = core.profile;
    editInPlace(file, JSON.stringify({ language: 'de', vanity_numbers: true }));
    await expect.poll(() => core.profile.settings.language, { timeout: 5_000 }).toBe('de');
    expect(core.profile.settings.vanity_numbers).toBe(true);
    expect(told()).toBeGreaterThan(0);

    // Invalid: nothing of it applies, not even its valid language.
    const toldBefore = told();
    editInPlace(file, JSON.stringify({ language: 'en', vanity_numbers: 'yes' }));
    await expect.poll(told, { timeout: 5_000 }).toBeGreaterThan(toldBefore);
    expect([settings.language, settings.vanity_numbers]).toEqual(['de', true]);
    const shown = await view();
    expect(shown.settings.language).toBe('de');
    // Said in the window's language (German now), naming the setting.
    expect(shown.settings_problem).toContain('„vanity_numbers“ ist "yes"');
    expect(shown.settings_problem).toMatch(/^Callbar läuft mit den bisherigen Einstellungen/);
    const warnings = lines.filter((line) => line.includes('cannot be applied'));
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain('vanity_numbers');
    // A save from the window is refused while the file is broken (it is left as it is).
    expect(await core.router.invoke('settings.save', { crm_open_on_connect: true })).toMatchObject({
      ok: false,
      error: { code: 'settings_invalid' },
    });

    editInPlace(file, JSON.stringify({ language: 'en', vanity_numbers: false }));
    await expect.poll(() => core.profile.settings.language, { timeout: 5_000 }).toBe('en');
    expect(settings.vanity_numbers).toBe(false);
    expect((await view()).settings_problem).toBeUndefined();
  });

  it('a half-written file applies nothing until the writer is done', async () => {
    const { core, file, view } = await running();
    const whole = JSON.stringify({ language: 'de', confirm_web_links: false }, null, 2);
    const half = whole.slice(0, whole.indexOf('confirm'));
    editInPlace(file, half);
    await expect.poll(async () => (await view()).settings_problem, { timeout: 5_000 }).toBeTruthy();
    expect(core.profile.settings.language).toBe('system');
    expect(core.profile.settings.confirm_web_links).toBe(true);
    appendFileSync(file, whole.slice(half.length));
    await expect.poll(() => core.profile.settings.language, { timeout: 5_000 }).toBe('de');
    expect(core.profile.settings.confirm_web_links).toBe(false);
    expect((await view()).settings_problem).toBeUndefined();
  });

  it('a flood of edits: read once it settles, the last one applies, one warning per problem', async () => {
    const { core, file, lines, told } = await running();
    const warnings = () => lines.filter((line) => line.includes('cannot be applied'));
    // Written without a pause (nothing else runs here meanwhile): the watch tells each write,
    // the file is read once they settle.
    for (let round = 0; round < 300; round++) {
      editInPlace(file, round % 2 === 0 ? '{"language": ' : '{"language": "xx"}');
    }
    await expect.poll(() => warnings().length, { timeout: 5_000 }).toBe(1);
    expect(warnings()[0]).toContain('"field":"language"');
    const toldBefore = told();
    for (let round = 0; round < 300; round++) {
      editInPlace(file, JSON.stringify({ crm_links: [`https://crm.example/${round}?n={e164}`] }));
    }
    editInPlace(file, JSON.stringify({ language: 'de' }));
    await expect.poll(() => core.profile.settings.language, { timeout: 5_000 }).toBe('de');
    expect(core.profile.settings.crm_links).toEqual([]);
    expect(told() - toldBefore).toBe(1);
    expect(warnings()).toHaveLength(1);
  });

  it('a link planted in the file’s place is not followed, and an enormous file not read', async () => {
    const { core, dataDir, file, view } = await running();
    const elsewhere = join(dataDir, 'elsewhere');
    mkdirSync(elsewhere);
    const target = join(elsewhere, 'theirs.json');
    writeFileSync(target, JSON.stringify({ language: 'de', confirm_web_links: false }));
    symlinkSync(target, file);
    await expect
      .poll(async () => (await view()).settings_problem, { timeout: 5_000 })
      .toContain('settings.json');
    expect(core.profile.settings.language).toBe('system');
    expect(core.profile.settings.confirm_web_links).toBe(true);
    expect(readFileSync(target, 'utf8')).toContain('"de"');

    rmSync(file);
    // 2 MB: valid JSON, but no settings file is that large.
    editInPlace(file, `{"language": "de"${' '.repeat(2 * 1024 * 1024)}}`);
    await expect
      .poll(async () => (await view()).settings_problem, { timeout: 5_000 })
      .toContain('1048576');
    expect(core.profile.settings.language).toBe('system');

    editInPlace(file, '{"confirm_web_links": false}');
    await expect
      .poll(() => core.profile.settings.confirm_web_links, { timeout: 5_000 })
      .toBe(false);
    expect((await view()).settings_problem).toBeUndefined();
  });

  it('a locked policy still beats the file', async () => {
    const policyDir = mkdtempSync(join(tmpdir(), 'callbar-hand-edit-policy-'));
    dirs.push(policyDir);
    writeFileSync(join(policyDir, 'policies.json'), JSON.stringify({ locked: { language: 'en' } }));
    const { core, file } = await running({ CALLBAR_POLICY_DIR: policyDir });
    editInPlace(file, JSON.stringify({ language: 'de', vanity_numbers: true }));
    await expect.poll(() => core.profile.settings.vanity_numbers, { timeout: 5_000 }).toBe(true);
    expect(core.profile.settings.language).toBe('en');
  });
});
