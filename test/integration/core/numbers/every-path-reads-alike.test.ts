/**
 * The window's search box reads a number as every other path does (the CLI's `dial`, a link, the
 * tray: calls.parse, the one reader): what that reader dials, the search's "Dial …" row offers.
 * Before, the search judged the query with a pattern of its own first, and offered no row for a
 * number with an extension ("+49 30 1234567 x12"), keys after a pause written "p"/"w", full-width
 * digits or a vanity number, which `callbar dial` dialled.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DialTarget, SearchAnswer } from '../../../../src-shared/contract';
import type { CallbarCore } from '../../../../src-main/core/callbar-core';
import { startTestCore } from '../../../support/test-core';

let core: CallbarCore;

async function value<T>(channel: string, request: unknown): Promise<T> {
  const result = await core.router.invoke(channel, request);
  if (!result.ok) throw new Error(`${channel}: ${result.error.message}`);
  return result.value as T;
}
const dialRow = async (query: string) =>
  (await value<SearchAnswer>('directory.search', { query })).dial;
const parsed = (input: string) => value<DialTarget>('calls.parse', { input });

beforeAll(async () => {
  core = await startTestCore();
  expect(await core.router.invoke('settings.save', { region: 'DE' })).toMatchObject({ ok: true });
});

afterAll(async () => {
  await core?.close();
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

  it('offers no row where the reader reads no number', async () => {
    for (const query of ['Hanna', 'Tel. 030 1234567', '030 Hanna', '1-800-FLOWERS']) {
      expect(await dialRow(query), query).toBeUndefined();
    }
  });
});
