/**
 * One settings.json, two processes saving it at once: the window's core (started here, as the
 * preview runs it) and a second real process of the same profile (the web preview's server, which
 * saves through the same core code when its window's Settings are saved). Every save reads the
 * file, changes its own settings and replaces the file: without a lock shared by the profile's
 * processes, a save that read the file just before the other process replaced it writes the
 * other's change away for good (the person's choice in one window silently undone).
 *
 * Here this process saves one setting again and again, from before the other process's first
 * save is sent until after its last answer came, while the other saves four settings one by one,
 * each a chance to land inside one of this process's read-and-replace steps (about one in two
 * does, without the lock); afterwards both processes' last values must be in the file.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import type { CallbarCore } from '../../../../src-main/core/callbar-core';
import type { SettingsView } from '../../../../src-shared/contract';
import { freePort } from '../../../support/free-port';
import {
  standInPages,
  startPreviewProcess,
  type PreviewProcess,
} from '../../../support/preview-process';
import { startTestCore } from '../../../support/test-core';

vi.setConfig({ testTimeout: 60_000, hookTimeout: 60_000 });

const ROUNDS = 3;

let dataDir: string;
let out: string;
let core: CallbarCore;
let preview: PreviewProcess;

/** A call on the preview's own channel, as its page makes it. */
async function invoke<T>(channel: string, body: unknown): Promise<T> {
  const result = await preview.invoke<T>(channel, body);
  expect(result.ok, JSON.stringify(result)).toBe(true);
  return result.value;
}

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'callbar-settings-two-'));
  // A stand-in renderer: this test is about the settings file, not the page.
  out = standInPages();
  preview = await startPreviewProcess({
    LC_TELEPHONE: 'C.UTF-8',
    CALLBAR_DATA_DIR: dataDir,
    CALLBAR_RECEIVER_PORT: String(await freePort()),
    CALLBAR_OUT_DIR: out,
  });
  core = await startTestCore({ env: { CALLBAR_DATA_DIR: dataDir } });
});
afterAll(async () => {
  await preview?.stop();
  await core?.close();
  rmSync(dataDir, { recursive: true, force: true });
  rmSync(out, { recursive: true, force: true });
});

/** What the other process saves, one after another, while this one saves its own setting. */
const THEIRS = ['crm_open_on_connect', 'start_minimized', 'confirm_web_links', 'open_at_login'];

it(`${ROUNDS} rounds of saves in both processes at once: neither process's change is lost`, async () => {
  for (let round = 0; round < ROUNDS; round++) {
    const value = round % 2 === 0;
    const theirs = Object.fromEntries(THEIRS.map((name) => [name, value]));
    let ours = 10 + round * 100; // sync_interval_minutes, saved here again and again
    let saves = 0;
    let answered = false;
    const saveHere = async (minutes: number) => {
      const saved = await core.router.invoke('settings.save', { sync_interval_minutes: minutes });
      expect(saved.ok, JSON.stringify(saved)).toBe(true);
      saves++;
    };
    // Under way before the other's first save is sent, and still after its last answer.
    await saveHere(++ours);
    const here = (async () => {
      while (!answered) await saveHere(++ours);
      await saveHere(++ours);
    })();
    const savesBefore = saves;
    // Each of its saves is its own chance to land inside one of this process's saves; a setting
    // written away stays lost (the other process does not save it again).
    const there = (async () => {
      for (const name of THEIRS) await invoke<SettingsView>('settings.save', { [name]: value });
    })().finally(() => (answered = true));
    await Promise.all([here, there]);
    // This process saved while the other's saves were under way (the two overlapped).
    expect(saves).toBeGreaterThan(savesBefore + 1);

    const file = JSON.parse(readFileSync(join(dataDir, 'settings.json'), 'utf8')) as Record<
      string,
      unknown
    >;
    expect(file, `round ${round}`).toMatchObject({ sync_interval_minutes: ours, ...theirs });
    // The other process reads both processes' changes too.
    const seen = await invoke<SettingsView>('settings.get', {});
    expect(seen.settings).toMatchObject({ sync_interval_minutes: ours, ...theirs });
  }
});
