/**
 * Hostile payloads on every channel of the IPC contract, through the real router of a real core:
 * wrong types, huge strings, deep nesting and prototype-pollution keys (as JSON.parse and a
 * structured clone deliver them: own properties named `__proto__`). Each is refused with
 * `invalid_request` (or `settings_invalid`, naming the field) and changes nothing: no browser
 * opened, the account, calls and directory state and the profile folder as before,
 * Object.prototype clean.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { channelNames } from '../../src-shared/contract';
import type { CallbarCore } from '../../src-main/core/callbar-core';
import { startTestCore } from '../support/test-core';
import { recordFigure } from '../support/hardening/figures';
import {
  deeplyNested,
  fuzzRandom,
  POLLUTING_KEYS,
  randomText,
  WRONG_FOR_EVERY_FIELD,
} from '../support/hardening/hostile-values';

/** A field each channel's request has (for the hostile values put in a real field). */
const FIELDS: Partial<Record<(typeof channelNames)[number], string[]>> = {
  'directory.search': ['query', 'limit'],
  'calls.parse': ['input'],
  'calls.dial': ['target', 'source'],
  'calls.openUrl': ['url'],
  'calls.confirm': ['id', 'accept', 'always'],
  'calls.hangup': ['call_id'],
  'phonebooks.list': ['search', 'ordering'],
  'phonebooks.create': ['description', 'priority', 'is_shared'],
  'phonebooks.update': ['id', 'description'],
  'phonebooks.delete': ['id'],
  'contacts.list': ['phonebook', 'search'],
  'contacts.create': ['phonebook', 'display_name', 'number'],
  'contacts.update': ['id', 'number'],
  'contacts.delete': ['id'],
  'contacts.bulkDelete': ['ids'],
  'settings.save': ['region', 'receiver_port', 'confirm_web_links'],
};

/** The refusals of a request's shape or values (the router's, and the settings schema's). */
const VALIDATION_CODES = ['invalid_request', 'settings_invalid'];

function hostilePayloads(channel: (typeof channelNames)[number]): unknown[] {
  const random = fuzzRandom(channel.length);
  const payloads: unknown[] = [
    'text',
    42,
    true,
    [],
    [{}],
    'x'.repeat(1_000_000),
    JSON.parse(deeplyNested(2000)),
  ];
  for (const key of POLLUTING_KEYS) {
    payloads.push(JSON.parse(`{"${key}":{"polluted":true}}`));
    payloads.push(JSON.parse(`{"${key}":{"prototype":{"polluted":true}}}`));
  }
  for (const field of FIELDS[channel] ?? []) {
    for (const value of WRONG_FOR_EVERY_FIELD) payloads.push({ [field]: value });
    payloads.push({ [field]: randomText(random, 20), extra: 1 });
    for (const key of POLLUTING_KEYS) {
      payloads.push(JSON.parse(`{"${field}":"1","${key}":{"polluted":true}}`));
    }
  }
  return payloads;
}

describe('every IPC channel under hostile payloads', () => {
  let core: CallbarCore;
  const opened: string[] = [];
  let dataDir: string;

  beforeAll(async () => {
    core = await startTestCore({ opened });
    dataDir = core.profile.dataDir;
  });
  afterAll(() => core.close());

  const observable = async () => ({
    account: await core.router.invoke('account.status', {}),
    calls: await core.router.invoke('calls.list', {}),
    directory: await core.router.invoke('directory.status', {}),
    files: Object.fromEntries(
      readdirSync(dataDir, { recursive: true, encoding: 'utf8' })
        .sort()
        .map((name) => {
          try {
            return [name, readFileSync(join(dataDir, name), 'utf8')];
          } catch {
            return [name, '(folder)'];
          }
        }),
    ),
  });

  it('refuses each with invalid_request and changes nothing', async () => {
    const before = await observable();
    const accepted: string[] = [];
    let sent = 0;
    for (const channel of channelNames) {
      for (const payload of hostilePayloads(channel)) {
        const result = await core.router.invoke(channel, payload);
        sent++;
        // settings.save leaves ranges to the settings' own schema: settings_invalid, with the field.
        if (result.ok || !VALIDATION_CODES.includes(result.error.code)) {
          accepted.push(`${channel} ${JSON.stringify(payload)?.slice(0, 80)}`);
        }
      }
    }
    expect(accepted).toEqual([]);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.prototype).not.toHaveProperty('polluted');
    expect(opened).toEqual([]);
    expect(await observable()).toEqual(before);
    recordFigure(
      'IPC: hostile payloads over every channel',
      `${sent} sent, 0 accepted, 0 side effects`,
    );
  });
});
