/**
 * What the API client accepts from a malicious or broken platform (issue 24, item 4), against the
 * simulator's `hostile` behaviour: a list walk stops at what its count implies, text fields are
 * cut where they enter, an over-long number is refused, and no answer is read past its byte cap.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { SimControl } from '../../../../simulator/control-client';
import type { RunningSimulator } from '../../../../simulator/index';
import type { PlatformApi } from '../../../../src-main/core/api/platform-api';
import { MAX_TEXT_CHARS, TRUNCATION_MARK } from '../../../../src-main/core/api/schemas';
import { startSim } from '../../../support/sim-harness';
import { apiFor } from '../../../support/api-rig';
import { failure } from '../../../support/failure';

describe('answers from a hostile platform', () => {
  let sim: RunningSimulator;
  let control: SimControl;
  let api: PlatformApi;

  beforeAll(async () => {
    sim = await startSim({ contacts: 20 });
    control = new SimControl(sim.base_url);
    ({ api } = await apiFor(sim));
  });
  afterEach(() => control.clearHostile());
  afterAll(() => sim.close());

  it('stops walking endless next pages at what the count implies', async () => {
    await control.setHostile({ kind: 'endless-pages', count: 3, page_size: 1 });
    const walked: number[] = [];
    const error = await failure(
      (async () => {
        for await (const contact of api.phonebooks.allContacts()) walked.push(contact.id);
      })(),
    );
    expect(error.code).toBe('protocol');
    expect(error.message).toBe(
      "The platform's answer to GET /v3/phonebook/contact/ is not what Callbar expects (field next): its pages go on past what its count (3) implies; Callbar stopped after 5 pages.",
    );
    expect(walked).toHaveLength(4);
  });

  it('cuts a megabyte name and company to a bounded length, with a mark', async () => {
    await control.setHostile({ kind: 'oversized-fields', contacts: 3, page_size: 3 });
    const page = await api.phonebooks.listContacts();
    for (const contact of page.results) {
      expect(contact.display_name).toHaveLength(MAX_TEXT_CHARS);
      expect(contact.display_name.endsWith(TRUNCATION_MARK)).toBe(true);
      expect(contact.company).toHaveLength(MAX_TEXT_CHARS);
    }
  });

  it('refuses a number too long to be one, naming the field (a cut number would dial someone else)', async () => {
    await control.setHostile({
      kind: 'oversized-fields',
      contacts: 2,
      field_chars: 10,
      number_chars: 65,
    });
    const error = await failure(api.phonebooks.listContacts());
    expect(error.code).toBe('protocol');
    expect(error.message).toBe(
      "The platform's answer to GET /v3/phonebook/contact/ is not what Callbar expects (field results.0.number): a phone number longer than 64 characters is not a phone number.",
    );
  });

  it('refuses an answer larger than 16 MiB without reading it whole', async () => {
    await control.setHostile({
      kind: 'oversized-fields',
      contacts: 9,
      field_chars: 1024 * 1024,
      page_size: 9,
    });
    const error = await failure(api.phonebooks.listContacts());
    expect(error.code).toBe('protocol');
    expect(error.message).toContain('the answer is larger than 16 MiB');
  });

  it('keeps an error body to its first 20 errors, each detail cut', async () => {
    const detail = 'Q'.repeat(5000);
    const errors = Array.from({ length: 150 }, () => ({ code: 'invalid', detail, attr: null }));
    await control.addFault({
      path: '/v3/phonebook/contact/',
      status: 400,
      body: { type: 'validation_error', errors },
      count: 1,
    });
    const error = await failure(api.phonebooks.listContacts());
    expect(error.code).toBe('invalid');
    // 20 details of 256 characters (255 and the mark), joined by spaces.
    expect(error.message).toHaveLength(20 * MAX_TEXT_CHARS + 19);
  });

  it('refuses a token answer larger than 64 KiB', async () => {
    const { tokens } = await apiFor(sim, 0, (account) => ({ ...account, expires_at: 0 }));
    await control.addFault({
      path: '/v3/oauth/token/',
      status: 200,
      body: 'x'.repeat(100_000),
      count: 1,
    });
    const error = await failure(tokens.getAccessToken());
    expect(error.code).toBe('refresh_failed');
    expect(error.message).toContain('the answer is too large');
    await expect(tokens.getAccessToken()).resolves.toMatch(/.+/);
  });
});
