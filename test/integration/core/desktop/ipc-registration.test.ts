import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { channelNames } from '../../../../src-shared/contract';
import type { CallbarCore } from '../../../../src-main/core/callbar-core';
import {
  FORBIDDEN_SENDER,
  registerIpcHandlers,
  type IpcMainLike,
  type InvokeEventLike,
} from '../../../../src-main/core/desktop/ipc-registration';
import { rendererOrigin } from '../../../../src-main/core/desktop/window-security';
import { createLogger } from '../../../../src-main/core/log/logger';
import { startTestCore } from '../../../support/test-core';

type Listener = (event: InvokeEventLike, payload: unknown) => unknown;

/** Records handlers the way ipcMain does (a second handle() for a channel is an error). */
class FakeIpcMain implements IpcMainLike {
  readonly handlers = new Map<string, Listener>();
  handle(channel: string, listener: Listener): void {
    if (this.handlers.has(channel)) throw new Error(`second handler for ${channel}`);
    this.handlers.set(channel, listener);
  }
  removeHandler(channel: string): void {
    this.handlers.delete(channel);
  }
  invoke(channel: string, frame: InvokeEventLike['senderFrame'], payload?: unknown) {
    const handler = this.handlers.get(channel);
    if (!handler) throw new Error(`No handler registered for '${channel}'`);
    return Promise.resolve(handler({ senderFrame: frame }, payload));
  }
}

const ours = { url: 'app://callbar/index.html', parent: null };

describe('IPC registration (fake ipcMain, real core)', () => {
  let core: CallbarCore;
  const ipcMain = new FakeIpcMain();
  const lines: string[] = [];
  /** Every call that reached the router. */
  const routed: string[] = [];
  let unregister: () => void;

  beforeAll(async () => {
    core = await startTestCore();
    unregister = registerIpcHandlers({
      ipcMain,
      router: {
        invoke: (channel, payload) => {
          routed.push(String(channel));
          return core.router.invoke(channel, payload);
        },
      },
      rendererOrigin: rendererOrigin(undefined),
      log: createLogger((line) => lines.push(line)),
    });
  });
  afterAll(async () => {
    await core?.close();
  });

  it('registers exactly one handler per contract channel', () => {
    expect([...ipcMain.handlers.keys()].sort()).toEqual([...channelNames].sort());
  });

  it('answers our own renderer through the router', async () => {
    const info = await ipcMain.invoke('app.info', ours);
    expect(info).toMatchObject({ ok: true, value: { runtime: 'preview' } });
    const status = await ipcMain.invoke('account.status', ours, {});
    expect(status).toMatchObject({ ok: true, value: { state: 'not-connected' } });
  });

  it('refuses and logs calls from any other frame, without running them', async () => {
    const hostile = [
      { url: 'https://evil.example/', parent: null },
      { url: 'app://callbar/index.html', parent: { url: 'app://callbar/index.html' } },
      { url: 'file:///etc/passwd', parent: null },
      { url: 'http://localhost:5173/', parent: null },
      null,
    ];
    lines.length = 0;
    routed.length = 0;
    for (const frame of hostile) {
      expect(await ipcMain.invoke('account.forget', frame), frame?.url ?? 'null').toEqual(
        FORBIDDEN_SENDER,
      );
    }
    expect(routed).toEqual([]);
    expect(lines).toHaveLength(hostile.length);
    expect(JSON.parse(lines[0]!)).toMatchObject({
      level: 'warn',
      message: 'refused an IPC call from an untrusted frame',
      channel: 'account.forget',
      origin: 'https://evil.example',
    });
  });

  it('refuses hostile payloads with a sentence, never running the handler', async () => {
    const cases: [string, unknown][] = [
      ['account.status', { extra: true }],
      ['account.status', 'a string'],
      ['account.status', [1, 2]],
      ['directory.search', { query: 'x'.repeat(10_000) }],
      ['directory.search', { query: 42 }],
      ['calls.dial', { target: '', source: 'ui' }],
      ['calls.dial', { target: '201', source: 'root' }],
      ['calls.openUrl', { url: 'tel:' + '1'.repeat(600) }],
      ['calls.confirm', JSON.parse('{"id":"x","accept":true,"__proto__":{"polluted":true}}')],
      ['calls.hangup', { call_id: { toString: 'boom' } }],
    ];
    for (const [channel, payload] of cases) {
      const answer = await ipcMain.invoke(channel, ours, payload);
      expect(answer, channel).toMatchObject({ ok: false, error: { code: 'invalid_request' } });
    }
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('removes its handlers again', () => {
    unregister();
    expect(ipcMain.handlers.size).toBe(0);
  });
});
