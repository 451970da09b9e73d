/**
 * The window's search box reads a number as every other path does (the CLI's `dial`, a link, the
 * tray: calls.parse, the one reader): what that reader dials, the search's "Dial …" row offers.
 * Before, the search judged the query with a pattern of its own first, and offered no row for a
 * number with an extension ("+49 30 1234567 x12"), keys after a pause written "p"/"w", full-width
 * digits or a vanity number, which `callbar dial` dialled. And an administrator's dialling policy
 * (the destination classes and countries allowed, vanity numbers) changed while Callbar runs
 * applies at once, as it does to every CLI run after it: before, the running core kept what it
 * read at start (a premium-rate number refused by the new policy was still dialled).
 */
import { mkdir, mkdtemp, rename, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DialTarget, SearchAnswer } from '../../../../src-shared/contract';
import type { CallbarCore } from '../../../../src-main/core/callbar-core';
import { startTestCore } from '../../../support/test-core';

let root: string;
let policyDir: string;
let core: CallbarCore;

async function value<T>(channel: string, request: unknown): Promise<T> {
  const result = await core.router.invoke(channel, request);
  if (!result.ok) throw new Error(`${channel}: ${result.error.message}`);
  return result.value as T;
}
const dialRow = async (query: string) =>
  (await value<SearchAnswer>('directory.search', { query })).dial;
const parsed = (input: string) => value<DialTarget>('calls.parse', { input });

/** Writes the policy file as a deployment tool does: whole, in one rename. */
async function deploy(policy: object): Promise<void> {
  const next = join(root, 'next.json');
  await writeFile(next, JSON.stringify(policy));
  await rename(next, join(policyDir, 'policies.json'));
}

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'callbar-every-path-'));
  policyDir = join(root, 'etc-callbar');
  await mkdir(policyDir);
  core = await startTestCore({ env: { CALLBAR_POLICY_DIR: policyDir } });
  expect(await core.router.invoke('settings.save', { region: 'DE' })).toMatchObject({ ok: true });
});

afterAll(async () => {
  await core?.close();
  await rm(root, { recursive: true, force: true });
});

describe('the search box reads a number as calls.parse does', () => {
  it('offers the row for every number the reader dials', async () => {
    for (const [query, destination, display] of [
      ['+49 30 1234567 x12', '+49301234567', '030 1234567 ext. 12'],
      ['030 1234567 ext. 12', '+49301234567', '030 1234567 ext. 12'],
      ['+49 30 1234567 p 12', '+49301234567', '030 1234567, then 12'],
      ['０３０ １２３４５６７', '+49301234567', '030 1234567'],
      ['٠٣٠ ١٢٣٤٥٦٧', '+49301234567', '030 1234567'],
      ['(+49) 030 1234567', '+49301234567', '030 1234567'],
    ] as const) {
      const target = await parsed(query);
      expect(target, query).toMatchObject({ destination, display });
      expect(await dialRow(query), query).toEqual(target);
    }
  });

  it('reads the region’s own international call prefix (Colombia’s 009, Australia’s 0011)', async () => {
    for (const [region, query, destination] of [
      ['CO', '009 1 212 555 0188', '+12125550188'],
      ['AU', '0011 49 30 1234567', '+49301234567'],
      ['AU', '0049 30 1234567', '+49301234567'],
    ] as const) {
      await value('settings.save', { region });
      expect(await parsed(query), query).toMatchObject({ destination });
      expect((await dialRow(query))?.destination, query).toBe(destination);
    }
    await value('settings.save', { region: 'DE' });
  });

  it('offers no row where the reader reads no number', async () => {
    for (const query of ['Hanna', 'Tel. 030 1234567', '030 Hanna', '1-800-FLOWERS']) {
      expect(await dialRow(query), query).toBeUndefined();
    }
  });
});

describe('a dialling policy changed while Callbar runs', () => {
  it('applies at once: classes, countries and vanity numbers', async () => {
    // Before: premium-rate and Swiss numbers pass the policy (not connected is what stops them).
    for (const target of ['0900 1234567', '+41 44 123 45 67']) {
      expect(await core.router.invoke('calls.dial', { target }), target).toMatchObject({
        ok: false,
        error: { code: 'not_connected' },
      });
    }
    await deploy({
      locked: {
        dial_allowed_classes: ['extension', 'national', 'international', 'emergency'],
        dial_allowed_countries: ['AT'],
        vanity_numbers: true,
      },
    });
    await expect
      .poll(
        async () => {
          const refused = await core.router.invoke('calls.dial', { target: '0900 1234567' });
          return !refused.ok && refused.error.code;
        },
        { timeout: 5_000 },
      )
      .toBe('dial_not_allowed');
    expect(await core.router.invoke('calls.dial', { target: '+41 44 123 45 67' })).toMatchObject({
      ok: false,
      error: { code: 'dial_not_allowed' },
    });
    // Vanity numbers on: the search box and calls.parse read letters as keypad digits.
    await value('settings.save', { region: 'US' });
    expect(await dialRow('1-800-FLOWERS')).toMatchObject({ destination: '+18003569377' });
    expect(await parsed('1-800-FLOWERS')).toMatchObject({ destination: '+18003569377' });
  });
});
