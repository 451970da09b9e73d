import { mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { linkFromArgv } from '../../../../src-main/core/desktop/launch-link';
import {
  linkHandlerStep,
  protocolClientArgs,
} from '../../../../src-main/core/desktop/link-handler';
import {
  autostartDesktopEntry,
  HIDDEN_SWITCH,
  loginItemSettings,
  startsHidden,
} from '../../../../src-main/core/desktop/login-item';
import {
  loadWindowBounds,
  saveWindowBounds,
  visibleBounds,
  WINDOW_STATE_FILE,
} from '../../../../src-main/core/desktop/window-state';

describe('protocol handler registration', () => {
  it('registers so that the link arrives after --, packaged and in development', () => {
    const packaged = protocolClientArgs({
      defaultApp: false,
      execPath: '/opt/Callbar/callbar',
      appPath: '/x',
    });
    expect(packaged).toEqual({ path: '/opt/Callbar/callbar', args: ['--'] });
    const dev = protocolClientArgs({
      defaultApp: true,
      execPath: '/usr/bin/electron',
      appPath: '/src/callbar',
    });
    expect(dev).toEqual({ path: '/usr/bin/electron', args: ['/src/callbar', '--'] });
    // What the OS then starts (Windows appends "%1" after the args) is read back correctly.
    const hostile = '--gpu-launcher=calc.exe';
    expect(linkFromArgv([packaged.path, ...packaged.args, 'tel:201'])).toBe('tel:201');
    expect(linkFromArgv([packaged.path, ...packaged.args, hostile])).toBeUndefined();
  });

  it('asks first, then claims or releases tel: and callto: per the answer', () => {
    const none = () => false;
    const all = () => true;
    const onlyTel = (scheme: string) => scheme === 'tel';
    expect(linkHandlerStep('ask', none)).toEqual({ kind: 'ask' });
    expect(linkHandlerStep('yes', none)).toEqual({ kind: 'register', schemes: ['tel', 'callto'] });
    expect(linkHandlerStep('yes', onlyTel)).toEqual({ kind: 'register', schemes: ['callto'] });
    expect(linkHandlerStep('yes', all)).toEqual({ kind: 'nothing' });
    expect(linkHandlerStep('no', onlyTel)).toEqual({ kind: 'unregister', schemes: ['tel'] });
    expect(linkHandlerStep('no', none)).toEqual({ kind: 'nothing' });
  });
});

describe('start at login', () => {
  it('login item (macOS, Windows) starts Callbar hidden', () => {
    expect(loginItemSettings(true, 'C:\\Callbar\\Callbar.exe')).toEqual({
      openAtLogin: true,
      path: 'C:\\Callbar\\Callbar.exe',
      args: [HIDDEN_SWITCH],
    });
    expect(loginItemSettings(false, '/x').openAtLogin).toBe(false);
  });

  it('Linux autostart entry quotes the executable', () => {
    const entry = autostartDesktopEntry('/home/ann/Apps/Callbar "beta" $1.AppImage');
    expect(entry.fileName).toBe('callbar.desktop');
    expect(entry.text).toContain(
      'Exec="/home/ann/Apps/Callbar \\"beta\\" \\$1.AppImage" --hidden\n',
    );
    expect(entry.text.startsWith('[Desktop Entry]\nType=Application\n')).toBe(true);
  });

  it('starts hidden when asked or started at login, but never with a link to confirm', () => {
    const base = {
      argv: ['/opt/callbar'],
      startMinimized: false,
      wasOpenedAtLogin: false,
      hasLink: false,
    };
    expect(startsHidden(base)).toBe(false);
    expect(startsHidden({ ...base, startMinimized: true })).toBe(true);
    expect(startsHidden({ ...base, wasOpenedAtLogin: true })).toBe(true);
    expect(startsHidden({ ...base, argv: ['/opt/callbar', '--hidden'] })).toBe(true);
    // A "--hidden" link text after -- is not the switch.
    expect(startsHidden({ ...base, argv: ['/opt/callbar', '--', '--hidden'] })).toBe(false);
    expect(startsHidden({ ...base, startMinimized: true, hasLink: true })).toBe(false);
  });
});

describe('remembered window bounds', () => {
  const screens = [{ x: 0, y: 0, width: 1920, height: 1040 }];

  it('round-trips through an atomic, private file', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'callbar-window-'));
    expect(loadWindowBounds(dir)).toBeUndefined();
    await saveWindowBounds(dir, { x: 100.4, y: 80, width: 420.6, height: 640 });
    expect(loadWindowBounds(dir)).toEqual({ x: 100, y: 80, width: 421, height: 640 });
    if (process.platform !== 'win32') {
      expect(statSync(join(dir, WINDOW_STATE_FILE)).mode & 0o777).toBe(0o600);
    }
  });

  it('a damaged or hostile file means default placement, and is left for the next save', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'callbar-window-'));
    const file = join(dir, WINDOW_STATE_FILE);
    for (const text of [
      '{',
      '[]',
      '{"x":1,"y":1,"width":5,"height":5}',
      '{"x":"1e309","y":0,"width":400,"height":400}',
    ]) {
      writeFileSync(file, text);
      expect(loadWindowBounds(dir), text).toBeUndefined();
    }
    await expect(
      saveWindowBounds(dir, { x: Number.NaN, y: 0, width: 400, height: 400 }),
    ).rejects.toThrow();
    expect(readFileSync(file, 'utf8')).toContain('1e309');
  });

  it('keeps a position on an attached screen and drops one that would be off-screen', () => {
    expect(visibleBounds({ x: 100, y: 100, width: 420, height: 640 }, screens)).toEqual({
      x: 100,
      y: 100,
      width: 420,
      height: 640,
    });
    // The second monitor it was on is gone.
    expect(visibleBounds({ x: 2500, y: 100, width: 420, height: 640 }, screens)).toBeUndefined();
    // Title bar above the top of the screen.
    expect(visibleBounds({ x: 100, y: -300, width: 420, height: 640 }, screens)).toBeUndefined();
    // Mostly off the right edge but a grip remains.
    expect(visibleBounds({ x: 1800, y: 10, width: 420, height: 640 }, screens)).toBeDefined();
    expect(visibleBounds(undefined, screens)).toBeUndefined();
  });
});
