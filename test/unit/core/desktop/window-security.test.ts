import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  CONTENT_SECURITY_POLICY,
  isTrustedSender,
  navigationDecision,
  rendererOrigin,
  secureWebPreferences,
  windowOptions,
} from '../../../../src-main/core/desktop/window-security';

function directives(policy: string): Map<string, string[]> {
  return new Map(
    policy
      .split(';')
      .map((part) => part.trim().split(/\s+/))
      .filter((words) => words[0])
      .map(([name, ...values]) => [name!, values]),
  );
}

describe('window options', () => {
  it('every window is isolated, sandboxed, without Node and with web security', () => {
    for (const kind of ['main', 'setup'] as const) {
      const { webPreferences, show } = windowOptions({ kind, preloadFile: '/app/preload.cjs' });
      expect(webPreferences).toMatchObject({
        preload: '/app/preload.cjs',
        contextIsolation: true,
        sandbox: true,
        nodeIntegration: false,
        nodeIntegrationInSubFrames: false,
        nodeIntegrationInWorker: false,
        webSecurity: true,
        allowRunningInsecureContent: false,
        webviewTag: false,
        experimentalFeatures: false,
        navigateOnDragDrop: false,
      });
      expect(show).toBe(false);
    }
    expect(secureWebPreferences('/p')).toEqual(
      windowOptions({ kind: 'main', preloadFile: '/p' }).webPreferences,
    );
  });

  it('the main window takes remembered bounds; the setup window keeps its small fixed size', () => {
    const bounds = { x: 40, y: 50, width: 500, height: 700 };
    expect(windowOptions({ kind: 'main', preloadFile: '/p', bounds })).toMatchObject(bounds);
    const setup = windowOptions({ kind: 'setup', preloadFile: '/p', bounds });
    expect(setup).toMatchObject({ width: 480, height: 720, resizable: false });
    expect(setup).not.toHaveProperty('x');
  });
});

describe('Content-Security-Policy', () => {
  const header = directives(CONTENT_SECURITY_POLICY);
  const html = readFileSync(
    join(import.meta.dirname, '../../../../src-renderer/index.html'),
    'utf8',
  );
  const meta = directives(
    /http-equiv="Content-Security-Policy"\s+content="([^"]+)"/.exec(html)![1]!,
  );

  it('allows no remote origin, no inline script, no eval, no plugins, no framing', () => {
    for (const policy of [header, meta]) {
      const values = [...policy.values()].flat();
      expect(values.filter((value) => /^(https?:|\*|ws:|wss:)/.test(value))).toEqual([]);
      expect(values).not.toContain("'unsafe-inline'");
      expect(values).not.toContain("'unsafe-eval'");
      expect(policy.get('script-src')).toEqual(["'self'"]);
      expect(policy.get('object-src')).toEqual(["'none'"]);
      expect(policy.get('base-uri')).toEqual(["'none'"]);
      expect(policy.get('default-src')).toEqual(["'self'"]);
      expect(policy.get('form-action')).toEqual(["'none'"]);
    }
    // Only a header can say these (a <meta> policy ignores frame-ancestors).
    expect(header.get('frame-ancestors')).toEqual(["'none'"]);
    expect(header.get('frame-src')).toEqual(["'none'"]);
  });

  it('the header is at least as strict as the page’s own meta policy', () => {
    for (const [name, values] of meta) expect(header.get(name), name).toEqual(values);
  });
});

describe('sender and navigation checks', () => {
  const packaged = rendererOrigin(undefined);
  const dev = rendererOrigin('http://localhost:5173/');

  it('trusts only the top frame of our own renderer', () => {
    expect(isTrustedSender({ url: 'app://callbar/index.html', parent: null }, packaged)).toBe(true);
    expect(isTrustedSender({ url: 'http://localhost:5173/#x', parent: null }, dev)).toBe(true);
    const refused = [
      { url: 'app://callbar/index.html', parent: {} }, // an iframe inside our page
      { url: 'app://evil/index.html', parent: null },
      { url: 'https://callbar/index.html', parent: null },
      { url: 'file:///opt/Callbar/index.html', parent: null },
      { url: 'http://localhost:5174/', parent: null }, // another port
      { url: 'about:blank', parent: null },
      { url: 'not a url', parent: null },
    ];
    for (const frame of refused)
      expect(isTrustedSender(frame, frame.url.startsWith('http') ? dev : packaged), frame.url).toBe(
        false,
      );
    expect(isTrustedSender(null, packaged)).toBe(false);
    expect(isTrustedSender(undefined, packaged)).toBe(false);
    // The dev server is not trusted in a packaged run.
    expect(isTrustedSender({ url: 'http://localhost:5173/', parent: null }, packaged)).toBe(false);
  });

  it('navigation stays inside the renderer', () => {
    expect(navigationDecision('app://callbar/index.html#setup', packaged)).toBe('allow');
    for (const url of [
      'https://portal.example.com/',
      'file:///etc/passwd',
      'app://other/',
      'javascript:1',
    ]) {
      expect(navigationDecision(url, packaged), url).toBe('deny');
    }
  });
});
