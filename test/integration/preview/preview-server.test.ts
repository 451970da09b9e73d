import { request as httpRequest } from 'node:http';
import { fileURLToPath } from 'node:url';
import { mkdtempSync, writeFileSync, mkdirSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CallbarCore } from '../../../src-main/core/callbar-core';
import { startTestCore } from '../../support/test-core';
import { capturingLogger } from '../../support/sim-harness';
import { startPreviewServer, type PreviewServer } from '../../../src-main/preview/server';
import { startPreviewProcess } from '../../support/preview-process';

/** A raw request, so Host and Origin can be set to anything. */
function raw(
  url: string,
  options: { method?: string; headers?: Record<string, string>; body?: string } = {},
): Promise<{
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { method: options.method ?? 'GET', headers: options.headers });
    req.on('response', (res) => {
      let body = '';
      res.on('data', (chunk: Buffer) => (body += chunk.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.on('error', reject);
    req.end(options.body);
  });
}

describe('web preview server', () => {
  let core: CallbarCore;
  let server: PreviewServer;
  let session: string;
  const { log, lines } = capturingLogger();

  beforeAll(async () => {
    core = await startTestCore();
    // A stand-in renderer folder, so this test does not depend on a build having run.
    const dir = mkdtempSync(join(tmpdir(), 'callbar-preview-'));
    mkdirSync(join(dir, 'renderer'));
    writeFileSync(join(dir, 'renderer/index.html'), '<html><head></head><body>shell</body></html>');
    writeFileSync(join(dir, 'bridge.js'), 'window.bridge = true;');
    writeFileSync(join(dir, 'secret.txt'), 'outside the renderer');
    server = await startPreviewServer({
      core,
      rendererDir: join(dir, 'renderer'),
      bridgeFile: join(dir, 'bridge.js'),
      log,
    });
    // The token is in the fragment, which a browser never sends to any server.
    const url = new URL(server.url);
    expect(url.search).toBe('');
    session = new URLSearchParams(url.hash.slice(1)).get('token')!;
    expect(session.length).toBeGreaterThanOrEqual(43);
  });
  afterAll(async () => {
    await server.close();
    await core.close();
  });

  const invoke = (channel: string, body: string, headers: Record<string, string> = {}) =>
    raw(`${server.origin}/__callbar/invoke/${channel}`, {
      method: 'POST',
      headers: {
        'x-callbar-session': session,
        origin: server.origin,
        'content-type': 'application/json',
        ...headers,
      },
      body,
    });

  it('listens on loopback only', () => {
    expect(new URL(server.url).hostname).toBe('127.0.0.1');
  });

  it('serves the renderer with the bridge injected and a strict CSP', async () => {
    // The renderer's files are the public build output: served without the session.
    const page = await raw(`${server.origin}/`);
    expect(page.status).toBe(200);
    expect(page.body).not.toContain(session);
    expect(page.body).toContain('<script src="/__callbar/bridge.js"></script></head>');
    expect(page.headers['content-security-policy']).toContain("script-src 'self'");
    const bridge = await raw(`${server.origin}/__callbar/bridge.js`);
    expect(bridge.body).toBe('window.bridge = true;');
  });

  it('answers app.info from core over HTTP', async () => {
    const response = await invoke('app.info', '{}');
    expect(response.status).toBe(200);
    expect(JSON.parse(response.body)).toMatchObject({ ok: true, value: { runtime: 'preview' } });
  });

  it('returns router errors as values', async () => {
    const bad = await invoke('app.info', '{"extra":true}');
    expect(JSON.parse(bad.body)).toMatchObject({ ok: false, error: { code: 'invalid_request' } });
    const unknown = await invoke('app.nope', '{}');
    expect(JSON.parse(unknown.body)).toMatchObject({
      ok: false,
      error: { code: 'unknown_channel' },
    });
  });

  it('refuses calls and events without the session header or with a wrong token', async () => {
    const withoutSession = { 'x-callbar-session': '' };
    expect((await invoke('app.info', '{}', withoutSession)).status).toBe(401);
    expect((await invoke('app.info', '{}', { 'x-callbar-session': 'wrong' })).status).toBe(401);
    expect((await raw(`${server.origin}/__callbar/events`)).status).toBe(401);
    expect((await raw(`${server.origin}/__callbar/nothing`)).status).toBe(401);
  });

  it('keeps the session out of cookies: none is set, and a replayed one opens nothing', async () => {
    // Cookies ignore ports: any other service on 127.0.0.1 would receive one and could replay it.
    const page = await raw(`${server.origin}/?token=${session}`);
    expect(page.headers['set-cookie']).toBeUndefined();
    const replayed = await raw(`${server.origin}/__callbar/invoke/app.info`, {
      method: 'POST',
      headers: {
        cookie: `callbar_preview=${session}`,
        origin: server.origin,
        'content-type': 'application/json',
      },
      body: '{}',
    });
    expect(replayed.status).toBe(401);
  });

  it('answers 400 to a channel name that is not valid percent-encoding, and logs no error', async () => {
    const response = await invoke('%E0%A4%A', '{}');
    expect(response.status).toBe(400);
    expect(response.body).toContain('percent-encoding');
    expect(lines.filter((line) => line.includes('"level":"error"'))).toEqual([]);
  });

  it('refuses a foreign Host header (DNS rebinding)', async () => {
    const response = await raw(`${server.origin}/`, { headers: { host: 'evil.example:80' } });
    expect(response.status).toBe(421);
    expect((await invoke('app.info', '{}', { host: 'evil.example:80' })).status).toBe(421);
  });

  it('refuses a POST from another origin or without one', async () => {
    expect((await invoke('app.info', '{}', { origin: 'http://evil.example' })).status).toBe(403);
    const noOrigin = await raw(`${server.origin}/__callbar/invoke/app.info`, {
      method: 'POST',
      headers: { 'x-callbar-session': session, 'content-type': 'application/json' },
      body: '{}',
    });
    expect(noOrigin.status).toBe(403);
  });

  it('refuses non-JSON and oversized bodies', async () => {
    expect((await invoke('app.info', '{}', { 'content-type': 'text/plain' })).status).toBe(415);
    expect((await invoke('app.info', '{not json')).status).toBe(400);
    expect((await invoke('app.info', JSON.stringify({ pad: 'x'.repeat(1_100_000) }))).status).toBe(
      400,
    );
  });

  it('never serves files outside the renderer folder', async () => {
    for (const path of ['/../secret.txt', '/%2e%2e/secret.txt', '/..%2fsecret.txt']) {
      const response = await raw(`${server.origin}${path}`);
      expect(response.body).not.toContain('outside the renderer');
    }
  });

  it('pushes core events over server-sent events', async () => {
    const controller = new AbortController();
    const response = await fetch(`${server.origin}/__callbar/events`, {
      headers: { 'x-callbar-session': session },
      signal: controller.signal,
    });
    expect(response.headers.get('content-type')).toBe('text/event-stream');
    const reader = response.body!.getReader();
    const first = await reader.read(); // ": connected" — the subscription is in place
    expect(new TextDecoder().decode(first.value)).toContain('connected');
    core.events.publish({ type: 'app.notice', level: 'info', message: 'hello from core' });
    const next = await reader.read();
    expect(new TextDecoder().decode(next.value)).toBe(
      `data: ${JSON.stringify({ type: 'app.notice', level: 'info', message: 'hello from core' })}\n\n`,
    );
    controller.abort();
  });
});

describe('a preview server started before its core', () => {
  it('serves the page at once; calls and the event stream wait for the core, then answer', async () => {
    let coreStarted!: (core: CallbarCore) => void;
    const coreStart = new Promise<CallbarCore>((resolve) => (coreStarted = resolve));
    const dir = mkdtempSync(join(tmpdir(), 'callbar-preview-'));
    mkdirSync(join(dir, 'renderer'));
    writeFileSync(join(dir, 'renderer/index.html'), '<html><head></head><body>shell</body></html>');
    writeFileSync(join(dir, 'bridge.js'), '');
    const server = await startPreviewServer({
      core: coreStart,
      rendererDir: join(dir, 'renderer'),
      bridgeFile: join(dir, 'bridge.js'),
      log: capturingLogger().log,
    });
    const core = await startTestCore();
    const controller = new AbortController();
    try {
      const session = new URLSearchParams(new URL(server.url).hash.slice(1)).get('token')!;
      const page = await raw(`${server.origin}/`);
      expect(page.status).toBe(200);
      expect(page.body).toContain('shell');
      const order: string[] = [];
      const call = raw(`${server.origin}/__callbar/invoke/app.info`, {
        method: 'POST',
        headers: {
          'x-callbar-session': session,
          origin: server.origin,
          'content-type': 'application/json',
        },
        body: '{}',
      }).then((answer) => {
        order.push('answered');
        return answer;
      });
      const events = fetch(`${server.origin}/__callbar/events`, {
        headers: { 'x-callbar-session': session },
        signal: controller.signal,
      });
      // A request the page sent before the core started, seen by the server (a later page load
      // is served), is still unanswered.
      expect((await raw(`${server.origin}/`)).status).toBe(200);
      order.push('core started');
      coreStarted(core);
      const answer = await call;
      expect(order).toEqual(['core started', 'answered']);
      expect(answer.status).toBe(200);
      expect(JSON.parse(answer.body)).toMatchObject({ ok: true, value: { runtime: 'preview' } });
      const reader = (await events).body!.getReader();
      expect(new TextDecoder().decode((await reader.read()).value)).toContain('connected');
      core.events.publish({ type: 'app.notice', level: 'info', message: 'after the start' });
      expect(new TextDecoder().decode((await reader.read()).value)).toContain('after the start');
    } finally {
      controller.abort();
      await server.close();
      await core.close();
    }
  });
});

describe('the browser start address of the preview', () => {
  it('leads to the session once; opened twice, the session ends for everyone', async () => {
    const core = await startTestCore();
    const dir = mkdtempSync(join(tmpdir(), 'callbar-preview-'));
    mkdirSync(join(dir, 'renderer'));
    writeFileSync(join(dir, 'renderer/index.html'), '<html><head></head><body></body></html>');
    writeFileSync(join(dir, 'bridge.js'), '');
    const server = await startPreviewServer({
      core,
      rendererDir: join(dir, 'renderer'),
      bridgeFile: join(dir, 'bridge.js'),
      log: capturingLogger().log,
    });
    try {
      const session = new URLSearchParams(new URL(server.url).hash.slice(1)).get('token')!;
      expect(server.browserUrl).not.toContain(session);
      const call = () =>
        raw(`${server.origin}/__callbar/invoke/app.info`, {
          method: 'POST',
          headers: {
            'x-callbar-session': session,
            origin: server.origin,
            'content-type': 'application/json',
          },
          body: '{}',
        });
      // A request another page caused (an <img>, an <iframe>, fetch) does not spend it.
      for (const site of ['cross-site', 'same-site', 'same-origin']) {
        const refused = await raw(server.browserUrl, { headers: { 'sec-fetch-site': site } });
        expect(refused.status).toBe(403);
        expect(refused.headers.location).toBeUndefined();
      }
      const first = await raw(server.browserUrl, { headers: { 'sec-fetch-site': 'none' } });
      expect(first.status).toBe(303);
      expect(first.headers.location).toBe(`/#token=${session}`);
      expect((await call()).status).toBe(200);

      const second = await raw(server.browserUrl);
      expect(second.status).toBe(410);
      expect(second.headers.location).toBeUndefined();
      expect((await call()).status).toBe(401);
      expect((await raw(`${server.origin}/__callbar/open/guess`)).status).toBe(404);
    } finally {
      await server.close();
      await core.close();
    }
  });
});

describe('preview entry point', () => {
  it('refuses to start without a built renderer and says how to build it', async () => {
    const { spawnSync } = await import('node:child_process');
    const root = fileURLToPath(new URL('../../../', import.meta.url));
    const run = spawnSync(
      process.execPath,
      [join(root, 'out/preview-server/main.js'), '--no-open'],
      {
        cwd: root,
        env: { ...process.env, CALLBAR_OUT_DIR: mkdtempSync(join(tmpdir(), 'no-out-')) },
      },
    );
    expect(run.status).toBe(1);
    expect(run.stderr.toString()).toContain('npm run build');
  });

  it('keeps a code cache of its program in the profile, and the next start runs from it', async () => {
    const profile = mkdtempSync(join(tmpdir(), 'callbar-preview-cache-'));
    const cacheFolder = join(profile, 'compile-cache');
    try {
      const cacheFiles = () => readdirSync(cacheFolder).filter((name) => name.endsWith('.v8'));
      const first = await startPreviewProcess({ CALLBAR_DATA_DIR: profile });
      expect((await fetch(first.url)).status).toBe(200);
      await first.stop(); // written at exit (or 5 s after the start)
      const [cache] = cacheFiles();
      expect(cache).toMatch(/^preview\.cjs\.[0-9a-f]+-\d+-v[\d.]+-\w+\.v8$/);
      const written = statSync(join(cacheFolder, cache!));
      const second = await startPreviewProcess({ CALLBAR_DATA_DIR: profile });
      expect((await fetch(second.url)).status).toBe(200);
      await second.stop();
      // Read and kept: a cache V8 refused would have been written again, as a new file.
      expect(cacheFiles()).toEqual([cache]);
      expect(statSync(join(cacheFolder, cache!)).ino).toBe(written.ino);
    } finally {
      rmSync(profile, { recursive: true, force: true });
    }
  });
});
