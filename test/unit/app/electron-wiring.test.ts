/**
 * The Electron shell's own code (`src-main/app`), run under Node against a recording Electron
 * (`recording-electron.ts`): what it actually hands to Electron must be core's decisions
 * (window-security, renderer-scheme), so the wiring cannot drift from what test/unit/core/desktop proves of
 * them: the BrowserWindow options, navigation, redirects, <webview> and pop-ups, the app://
 * scheme's privileges and answers (CSP header, traversal), the permission handlers, and that the
 * packaged app installs all of it before it opens a profile or a window.
 */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { silentLogger } from '../../../src-main/core/log/logger';
import { translatorFor } from '../../../src-main/core/text/translators';
import {
  APP_ORIGIN,
  CONTENT_SECURITY_POLICY,
  rendererOrigin,
  secureWebPreferences,
  windowOptions,
} from '../../../src-main/core/desktop/window-security';
import { electronEvent, FakeBrowserWindow, recorded } from '../../support/recording-electron';

vi.mock('electron', async () => (await import('../../support/recording-electron')).electron);
// electron-log loads the real Electron package; the shell's logger is not what is tested here.
vi.mock('../../../src-main/app/app-log', () => ({ createAppLogger: () => silentLogger }));

const { createWindow } = await import('../../../src-main/app/windows');
const { registerAppScheme, serveRenderer } = await import('../../../src-main/app/app-protocol');

beforeEach(() => recorded.clear());

describe('windows the shell opens', () => {
  const origin = rendererOrigin(undefined);
  const opened: string[] = [];
  const context = {
    rendererUrl: `${APP_ORIGIN}/index.html`,
    rendererOrigin: origin,
    preloadFile: '/opt/Callbar/out/preload/index.cjs',
    dataDir: mkdtempSync(join(tmpdir(), 'callbar-wiring-')),
    log: silentLogger,
    openExternal: (url: string) => {
      opened.push(url);
      return Promise.resolve();
    },
    title: (kind: 'main' | 'setup') => translatorFor('de', 'shell')(`window.${kind}Title`),
  };

  it('are built from core’s windowOptions: isolated, sandboxed, no Node, web security, no webview', () => {
    for (const kind of ['main', 'setup'] as const) {
      const window = createWindow(kind, context) as unknown as FakeBrowserWindow;
      // The icon is the shell's own asset; everything else is core's decision.
      const expected = windowOptions({
        kind,
        preloadFile: context.preloadFile,
        title: context.title(kind),
        icon: window.options.icon as string,
      });
      expect(window.options).toEqual(expected);
      // Titled in the user's language (German here).
      expect(window.options.title).toBe(kind === 'setup' ? 'Callbar einrichten' : 'Callbar');
      expect(window.options.webPreferences).toEqual(secureWebPreferences(context.preloadFile));
      expect(window.loaded).toBe(
        kind === 'setup' ? `${context.rendererUrl}#setup` : context.rendererUrl,
      );
    }
  });

  it('stay on the renderer: navigation and redirects elsewhere are stopped, reloads are not', () => {
    const window = createWindow('main', context) as unknown as FakeBrowserWindow;
    for (const event of ['will-navigate', 'will-redirect']) {
      for (const url of [
        'https://attacker.example/',
        'file:///etc/passwd',
        'app://other/index.html',
        'http://127.0.0.1:37153/activate',
        'javascript:alert(1)',
      ]) {
        const attempt = electronEvent();
        window.webContents.emit(event, attempt, url);
        expect(attempt.defaultPrevented, `${event} ${url}`).toBe(true);
      }
      const reload = electronEvent();
      window.webContents.emit(event, reload, `${APP_ORIGIN}/index.html#setup`);
      expect(reload.defaultPrevented, event).toBe(false);
    }
  });

  it('attach no <webview> and open no window: a pop-up goes to the allow-listed opener', () => {
    opened.length = 0;
    const window = createWindow('main', context) as unknown as FakeBrowserWindow;
    const attach = electronEvent();
    window.webContents.emit('will-attach-webview', attach, {}, {});
    expect(attach.defaultPrevented).toBe(true);
    const answer = window.webContents.windowOpenHandler?.({ url: 'https://portal.example/x' });
    expect(answer).toEqual({ action: 'deny' });
    expect(opened).toEqual(['https://portal.example/x']);
  });
});

describe('the app:// scheme', () => {
  const root = mkdtempSync(join(tmpdir(), 'callbar-renderer-'));
  const rendererDir = join(root, 'renderer');
  mkdirSync(join(rendererDir, 'assets'), { recursive: true });
  writeFileSync(join(rendererDir, 'index.html'), '<!doctype html><title>Callbar</title>');
  writeFileSync(join(rendererDir, 'assets', 'main.js'), 'export {};');
  writeFileSync(join(root, 'secret.txt'), 'outside the bundle');

  it('is registered standard and secure with V8 code cache, no privilege that would bypass the CSP', () => {
    registerAppScheme();
    expect(recorded.privilegedSchemes).toEqual([
      {
        scheme: 'app',
        privileges: { standard: true, secure: true, supportFetchAPI: true, codeCache: true },
      },
    ]);
  });

  it('serves the bundle with the Content-Security-Policy header; anything else is a 404', async () => {
    serveRenderer(rendererDir);
    const handle = recorded.protocolHandlers.get('app')!;
    const page = await handle(new Request('app://callbar/index.html'));
    expect(page.status).toBe(200);
    expect(page.headers.get('content-security-policy')).toBe(CONTENT_SECURITY_POLICY);
    expect(page.headers.get('x-content-type-options')).toBe('nosniff');
    expect(await page.text()).toContain('<title>Callbar</title>');
    expect((await handle(new Request('app://callbar/assets/main.js'))).status).toBe(200);

    for (const request of [
      new Request('app://callbar/../secret.txt'),
      new Request('app://callbar/%2e%2e/secret.txt'),
      new Request('app://callbar/assets/..%2f..%2fsecret.txt'),
      new Request(`app://callbar/${encodeURIComponent(join(root, 'secret.txt'))}`),
      new Request('app://callbar/missing.js'),
      new Request('app://other/index.html'),
      new Request('app://callbar/index.html', { method: 'POST', body: 'x' }),
    ]) {
      const answer = await handle(request);
      expect(answer.status, `${request.method} ${request.url}`).toBe(404);
      expect(await answer.text()).not.toContain('outside the bundle');
    }
  });
});

describe('the packaged app’s start (src-main/app/main.ts)', () => {
  it('registers the scheme before ready and denies every permission before it opens a profile', async () => {
    // A profile that cannot open: start() stops at openProfile, with the error box.
    const dataDir = mkdtempSync(join(tmpdir(), 'callbar-wiring-profile-'));
    writeFileSync(join(dataDir, 'settings.json'), '{ "receiver_port": "not a port" }');
    vi.stubEnv('CALLBAR_DATA_DIR', dataDir);
    try {
      const { app } = await import('../../support/recording-electron');
      await import('../../../src-main/app/main');
      expect(recorded.privilegedSchemes).toHaveLength(1);
      expect(recorded.paths.get('userData')).toBe(dataDir);
      expect(recorded.permissionRequestHandler).toBeUndefined();

      app.readyNow();
      await vi.waitFor(() => expect(recorded.exitCodes).toEqual([1]), { timeout: 20_000 });
      expect(recorded.errorBoxes[0]?.title).toBe('Callbar cannot start');
      expect(recorded.errorBoxes[0]?.content).toMatch(/receiver_port/);
      expect(FakeBrowserWindow.created).toEqual([]);

      const answers: boolean[] = [];
      for (const permission of [
        'media',
        'geolocation',
        'notifications',
        'clipboard-read',
        'openExternal',
        'fullscreen',
      ]) {
        recorded.permissionRequestHandler!({}, permission, (granted) => answers.push(granted));
      }
      expect(answers).toEqual([false, false, false, false, false, false]);
      expect(recorded.permissionCheckHandler!({}, 'media', 'app://callbar', {})).toBe(false);

      // Any web contents (a future window, a devtools page): no webview, no pop-up.
      const contents = new (await import('../../support/recording-electron')).FakeWebContents();
      app.emit('web-contents-created', electronEvent(), contents);
      const attach = electronEvent();
      contents.emit('will-attach-webview', attach);
      expect(attach.defaultPrevented).toBe(true);
      expect(contents.windowOpenHandler?.({ url: 'https://attacker.example/' })).toEqual({
        action: 'deny',
      });
    } finally {
      vi.unstubAllEnvs();
    }
    // The app's whole start is transformed and loaded here: on a loaded machine, more than the
    // 20 s a unit test is given (CI saw it).
  }, 90_000);
});
