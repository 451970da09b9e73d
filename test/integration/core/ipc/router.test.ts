import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { channelNames } from '../../../../src-shared/contract';
import type { CallbarCore } from '../../../../src-main/core/callbar-core';
import { CallbarError } from '../../../../src-main/core/errors';
import { Router, type Handlers } from '../../../../src-main/core/ipc/router';
import { createLogger, silentLogger } from '../../../../src-main/core/log/logger';
import packageJson from '../../../../package.json';
import { startTestCore } from '../../../support/test-core';

/** Valid and invalid payloads for every channel; a new channel without rows fails the suite. */
const payloads: Record<(typeof channelNames)[number], { valid: unknown[]; invalid: unknown[] }> = {
  'app.info': { valid: [{}, undefined, null], invalid: [{ extra: 1 }, 'text', 42, []] },
  'app.showMain': { valid: [{}], invalid: [{ window: 'main' }, 'main'] },
  'app.sayAgain': {
    valid: [{ texts: [] }, { texts: ['Not said by core.'] }],
    invalid: [{}, { texts: 'one' }, { texts: ['x'.repeat(2001)] }, { texts: Array(21).fill('') }],
  },
  'account.status': { valid: [{}, undefined], invalid: [{ token: 'x' }, 'text', []] },
  'account.connect': { valid: [], invalid: [{ url: 'https://evil.example' }, 7] },
  'account.cancelConnect': { valid: [{}], invalid: [{ now: true }, false] },
  'account.forget': { valid: [{}], invalid: [{ everything: true }, 'all'] },
  'account.acknowledgeSwitch': { valid: [{}], invalid: [{ to: '202' }, true] },
  'account.receiverRegistration': { valid: [{}], invalid: [{ secret: 'new' }, 'url'] },
  'directory.search': {
    valid: [{ query: 'anne' }, { query: '', limit: 500 }],
    invalid: [{}, { query: 7 }, { query: 'x'.repeat(201) }, { query: 'a', limit: 0 }],
  },
  'directory.status': { valid: [{}], invalid: [{ all: true }] },
  'directory.sync': { valid: [], invalid: [{ force: 'yes' }] },
  'calls.parse': { valid: [], invalid: [{}, { input: '' }, { input: 'x'.repeat(513) }] },
  'calls.dial': {
    valid: [],
    invalid: [
      {},
      { target: 5 },
      { target: '+4930', source: 'web' },
      { target: '1', confirmed: true },
    ],
  },
  'calls.openUrl': { valid: [], invalid: [{}, { url: ['tel:1'] }] },
  'calls.confirm': { valid: [], invalid: [{ id: 'x' }, { id: 'x', accept: 'yes' }] },
  'calls.hangup': { valid: [], invalid: [{ call_id: 5 }, { leg: 'x' }] },
  'calls.list': { valid: [], invalid: [{ all: true }] },
  'calls.clearRecent': { valid: [], invalid: [{ before: 1 }] },
  'calls.undoClear': { valid: [], invalid: [{ call_id: 'x' }, 'now'] },
  'calls.cancelDial': { valid: [], invalid: [{ call_id: 'x' }, 'now'] },
  'phonebooks.list': {
    valid: [],
    invalid: [{ ordering: 'owners' }, { page: 0 }, { search: 7 }, { phonebook: 1 }],
  },
  'phonebooks.create': {
    valid: [],
    invalid: [
      {},
      { description: 'A', priority: 1 },
      { description: 'A', priority: 1, is_shared: 'no' },
    ],
  },
  'phonebooks.update': {
    valid: [],
    invalid: [
      { description: 'A', priority: 1, is_shared: true },
      { id: 0, description: 'A', priority: 1, is_shared: true },
    ],
  },
  'phonebooks.delete': {
    valid: [],
    invalid: [{}, { id: '3' }, { id: -1 }, { id: 3, force: true }],
  },
  'contacts.list': {
    valid: [],
    invalid: [
      {},
      { phonebook: 'all' },
      { phonebook: 1, ordering: 'priority' },
      { phonebook: 1, page: 1.5 },
    ],
  },
  'contacts.create': {
    valid: [],
    invalid: [
      {},
      { phonebook: 1, display_name: 'Ada', number: '+1' },
      { phonebook: 1, display_name: 'Ada', number: '+1', speed_dial: true },
      { phonebook: 1, display_name: 'Ada', number: '+1', speed_dial: 300, owner: 2 },
    ],
  },
  'contacts.update': {
    valid: [],
    invalid: [{ phonebook: 1, display_name: 'Ada', number: '+1', speed_dial: 300 }, { id: 'x' }],
  },
  'contacts.delete': { valid: [], invalid: [{}, { id: 1.5 }] },
  'contacts.bulkDelete': {
    valid: [],
    invalid: [{}, { ids: [] }, { ids: [1, 'two'] }, { ids: [0] }, { contact_ids: [1] }],
  },
  'exports.start': {
    valid: [],
    invalid: [
      {},
      { what: 'contacts', phonebook: 1 },
      { what: 'contacts', phonebook: 1, format: 'xml' },
      { what: 'calls', phonebook: 1 },
      { what: 'files' },
    ],
  },
  'exports.read': { valid: [], invalid: [{}, { export_id: '' }, { export_id: 'x'.repeat(65) }] },
  'calls.setNote': {
    valid: [],
    invalid: [{}, { call_id: 'x' }, { call_id: 'x', note: 'n'.repeat(501) }, { note: 'n' }],
  },
  'crm.links': { valid: [{}], invalid: [{ all: true }] },
  'crm.open': {
    valid: [],
    invalid: [
      {},
      { link: 5, party: { number: '+1' } },
      { link: 0, party: { number: 'x'.repeat(65) } },
      { link: 0, party: { number: '+1', url: 'javascript:x' } },
    ],
  },
  'imports.upload': {
    valid: [],
    invalid: [{}, { file_name: 'a.csv' }, { file_name: 'a.csv', text: 'x'.repeat(128 * 1024 + 1) }],
  },
  'imports.preview': {
    valid: [],
    invalid: [{}, { import_id: 'x' }, { import_id: 'x', phonebook: 1, mapping: { email: 1 } }],
  },
  'imports.start': { valid: [], invalid: [{}, { import_id: '' }] },
  'imports.cancel': { valid: [], invalid: [{}, { import_id: 7 }] },
  'favourites.list': { valid: [{}], invalid: [{ all: true }, 'all'] },
  'favourites.set': {
    valid: [],
    invalid: [
      {},
      { contact_id: 0, starred: true },
      { contact_id: 1 },
      { contact_id: 1, starred: 'yes' },
    ],
  },
  'settings.get': { valid: [{}], invalid: [{ name: 'region' }, 'all'] },
  'settings.save': {
    valid: [{}],
    invalid: [
      { region: 44 },
      { open_at_login: 'yes' },
      { client_secret: 'x' },
      { base_url: 'http://x' },
    ],
  },
};

describe('router', () => {
  let core: CallbarCore;
  beforeAll(async () => {
    core = await startTestCore();
  });
  afterAll(() => core.close());

  it('has payload rows for every channel of the contract', () => {
    expect(Object.keys(payloads).sort()).toEqual([...channelNames].sort());
  });

  for (const channel of channelNames) {
    for (const payload of payloads[channel].valid) {
      it(`${channel} accepts ${JSON.stringify(payload)}`, async () => {
        const result = await core.router.invoke(channel, payload);
        expect(result.ok).toBe(true);
      });
    }
    for (const payload of payloads[channel].invalid) {
      it(`${channel} rejects ${JSON.stringify(payload)} with invalid_request`, async () => {
        const result = await core.router.invoke(channel, payload);
        expect(result).toMatchObject({ ok: false, error: { code: 'invalid_request' } });
        if (!result.ok) expect(result.error.message).toContain(channel);
      });
    }
  }

  it('answers app.info from core with the package version and runtime', async () => {
    const result = await core.router.invoke('app.info', {});
    expect(result).toEqual({
      ok: true,
      value: {
        name: 'Callbar',
        version: packageJson.version,
        platform: process.platform,
        runtime: 'preview',
        versions: { node: process.versions.node },
      },
    });
  });

  it('app.showMain asks the desktop shell, and says when there is no other window', async () => {
    // The web preview (this core) has no window to show: the page itself becomes the main view.
    expect(await core.router.invoke('app.showMain', {})).toEqual({
      ok: true,
      value: { shown: false },
    });
    let asked = 0;
    const shell = await startTestCore({ showMainWindow: () => ++asked > 0 });
    try {
      expect(await shell.router.invoke('app.showMain', {})).toEqual({
        ok: true,
        value: { shown: true },
      });
      expect(asked).toBe(1);
    } finally {
      await shell.close();
    }
  });

  it('rejects an unknown channel, including inherited property names', async () => {
    for (const channel of ['app.nope', 'toString', '__proto__', 42]) {
      const result = await core.router.invoke(channel, {});
      expect(result).toMatchObject({ ok: false, error: { code: 'unknown_channel' } });
    }
  });

  it('turns a CallbarError into its code, message and field', async () => {
    const handlers = {
      'app.info': () => {
        throw new CallbarError('vault_unavailable', 'The keychain is locked.', { field: 'x' });
      },
    } as unknown as Handlers;
    const router = new Router(handlers, silentLogger);
    expect(await router.invoke('app.info', {})).toEqual({
      ok: false,
      error: { code: 'vault_unavailable', message: 'The keychain is locked.', field: 'x' },
    });
  });

  it('hides an unexpected exception behind an internal error and logs it', async () => {
    const lines: string[] = [];
    const handlers = {
      'app.info': () => {
        throw new Error('secret stack detail');
      },
    } as unknown as Handlers;
    const router = new Router(
      handlers,
      createLogger((line) => lines.push(line)),
    );
    const result = await router.invoke('app.info', {});
    expect(result).toMatchObject({ ok: false, error: { code: 'internal' } });
    expect(JSON.stringify(result)).not.toContain('secret stack detail');
    expect(lines.join('\n')).toContain('secret stack detail');
  });

  it('refuses a handler answer that is outside the contract', async () => {
    const handlers = {
      'app.info': () => ({ name: 'Callbar' }),
    } as unknown as Handlers;
    const result = await new Router(handlers, silentLogger).invoke('app.info', {});
    expect(result).toMatchObject({ ok: false, error: { code: 'internal' } });
  });

  it('strips fields a handler adds beyond the response schema', async () => {
    const handlers = {
      'account.status': () => ({ state: 'connected', access_token: 'abc' }),
    } as unknown as Handlers;
    const result = await new Router(handlers, silentLogger).invoke('account.status', {});
    expect(result).toEqual({ ok: true, value: { state: 'connected' } });
  });
});
