/**
 * How the client behaves when the platform or the network misbehaves, with faults injected by
 * the simulator and outcomes counted in its request log.
 */
import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest';
import type { RunningSimulator } from '../../../../simulator/index';
import { ProtocolError } from '../../../../src-main/core/api/api-errors';
import type { PlatformApi } from '../../../../src-main/core/api/platform-api';
import { control, describeEachProfile, requestLog, startSim } from '../../../support/sim-harness';
import { apiFor } from '../../../support/api-rig';

const PHONEBOOKS = '/v3/phonebook/phonebook/';
const CALL_CONTROL = '/v3/call_control/';

interface SimCall {
  legs?: { id: string; to?: string; from?: string }[];
  to?: string;
  destination?: string;
}

describeEachProfile('resilience', (profile) => {
  let sim: RunningSimulator;
  let api: PlatformApi;
  beforeAll(async () => {
    sim = await startSim({ profile, contacts: 30 });
    ({ api } = await apiFor(sim, 0));
  });
  afterAll(() => sim.close());
  beforeEach(async () => {
    await control(sim, 'DELETE', 'faults');
    await control(sim, 'DELETE', 'requests');
  });

  it('honours 429 Retry-After on reads and then succeeds', async () => {
    await control(sim, 'PUT', 'rate-limits', { phonebook: { limit: 2, window_seconds: 1 } });
    try {
      const started = performance.now();
      const pages = await Promise.all([1, 2, 3].map(() => api.phonebooks.listPhonebooks()));
      const waited = performance.now() - started;
      expect(pages.every((page) => page.count > 0)).toBe(true);
      const statuses = (await requestLog(sim))
        .filter((r) => r.path === PHONEBOOKS)
        .map((r) => r.status);
      expect(statuses.filter((s) => s === 429).length).toBeGreaterThanOrEqual(1);
      expect(statuses.filter((s) => s === 200).length).toBe(3);
      // The third read waited for the window (Retry-After), it did not hammer the platform.
      expect(waited).toBeGreaterThan(500);
      console.log(`429 + Retry-After: three reads took ${Math.round(waited)} ms`);
    } finally {
      await control(sim, 'PUT', 'rate-limits', {
        phonebook: { limit: 10_000, window_seconds: 60 },
      });
    }
  });

  it('recovers reads from injected 503s and connection resets', async () => {
    await control(sim, 'POST', 'faults', {
      method: 'GET',
      path: PHONEBOOKS,
      status: 503,
      count: 1,
    });
    await control(sim, 'POST', 'faults', {
      method: 'GET',
      path: PHONEBOOKS,
      reset: true,
      count: 1,
    });
    const page = await api.phonebooks.listPhonebooks();
    expect(page.count).toBeGreaterThan(0);
    const attempts = (await requestLog(sim)).filter((r) => r.path === PHONEBOOKS);
    expect(attempts.length).toBe(3);
  });

  it('gives up on reads after the retry bound with a server error', async () => {
    await control(sim, 'POST', 'faults', { method: 'GET', path: PHONEBOOKS, status: 502 });
    await expect(api.phonebooks.listPhonebooks()).rejects.toMatchObject({
      code: 'server_error',
      status: 502,
    });
    expect((await requestLog(sim)).filter((r) => r.path === PHONEBOOKS).length).toBe(4);
  });

  it('never retries a write: a 503 on create is reported, sent once', async () => {
    await control(sim, 'POST', 'faults', {
      method: 'POST',
      path: PHONEBOOKS,
      status: 503,
      count: 1,
    });
    await expect(
      api.phonebooks.createPhonebook({ description: 'Once', priority: 1, is_shared: true }),
    ).rejects.toMatchObject({ code: 'server_error' });
    expect(
      (await requestLog(sim)).filter((r) => r.method === 'POST' && r.path === PHONEBOOKS).length,
    ).toBe(1);
  });

  it('tolerates schema drift: extra fields, missing optional fields, nulls', async () => {
    const drifted = {
      count: 1,
      next: null,
      previous: null,
      results: [
        {
          id: 9,
          description: 'Drift',
          priority: 1,
          is_shared: true,
          owners: null,
          color: 'teal',
          nested: { x: 1 },
        },
      ],
      facets: {},
    };
    await control(sim, 'POST', 'faults', {
      method: 'GET',
      path: PHONEBOOKS,
      status: 200,
      body: drifted,
      count: 1,
    });
    const page = await api.phonebooks.listPhonebooks();
    expect(page.results[0]).toEqual({
      id: 9,
      description: 'Drift',
      priority: 1,
      is_shared: true,
      owners: [],
    });
  });

  it('a body that is not JSON, or lacks a required field, is a ProtocolError naming it', async () => {
    await control(sim, 'POST', 'faults', {
      method: 'GET',
      path: PHONEBOOKS,
      malformed: true,
      count: 1,
    });
    const malformed = await api.phonebooks.listPhonebooks().catch((e: unknown) => e);
    expect(malformed).toBeInstanceOf(ProtocolError);
    expect((malformed as ProtocolError).message).toContain('GET /v3/phonebook/phonebook/');

    const missing = {
      count: 1,
      next: null,
      previous: null,
      results: [{ id: 1, priority: 1, is_shared: true }],
    };
    await control(sim, 'POST', 'faults', {
      method: 'GET',
      path: PHONEBOOKS,
      status: 200,
      body: missing,
      count: 1,
    });
    const error = (await api.phonebooks.listPhonebooks().catch((e: unknown) => e)) as ProtocolError;
    expect(error).toBeInstanceOf(ProtocolError);
    expect(error.path).toBe('results.0.description');
  });

  it('refuses to follow a next link to another server (the token would leak)', async () => {
    const page = {
      count: 2,
      next: 'http://evil.example/v3/phonebook/phonebook/?page=2',
      previous: null,
      results: [],
    };
    await control(sim, 'POST', 'faults', {
      method: 'GET',
      path: PHONEBOOKS,
      status: 200,
      body: page,
      count: 1,
    });
    const walk = async () => {
      for await (const book of api.phonebooks.allPhonebooks()) void book;
    };
    await expect(walk()).rejects.toMatchObject({ code: 'protocol', path: 'next' });
  });

  it('click-to-dial under 20% injected faults: 500 attempts, never a duplicate call', async () => {
    await control(sim, 'PUT', 'rate-limits', {
      'call-control': { limit: 100_000, window_seconds: 60 },
    });
    await control(sim, 'POST', 'faults', {
      method: 'POST',
      path: CALL_CONTROL,
      status: 500,
      probability: 0.07,
    });
    await control(sim, 'POST', 'faults', {
      method: 'POST',
      path: CALL_CONTROL,
      reset: true,
      probability: 0.07,
    });
    await control(sim, 'POST', 'faults', {
      method: 'POST',
      path: CALL_CONTROL,
      reset: true,
      when: 'after',
      probability: 0.07,
    });
    const attempts = 500;
    let succeeded = 0;
    let failed = 0;
    for (let i = 0; i < attempts; i++) {
      const destination = `+1555${String(i).padStart(7, '0')}`;
      const outcome = await api.calls.clickToDial(destination).then(
        () => 'ok',
        (error: unknown) => error,
      );
      if (outcome === 'ok') succeeded++;
      else {
        failed++;
        expect((outcome as { code: string }).code).toMatch(/^(server_error|network|timeout)$/);
      }
    }
    const posts = (await requestLog(sim)).filter(
      (r) => r.method === 'POST' && r.path === CALL_CONTROL,
    );
    expect(posts.length).toBe(attempts); // each attempt sent exactly once
    const calls = await control<SimCall[]>(sim, 'GET', 'calls');
    const perDestination = new Map<string, number>();
    for (const call of calls) {
      const text = JSON.stringify(call);
      const match = /\+1555\d{7}/.exec(text);
      if (match) perDestination.set(match[0], (perDestination.get(match[0]) ?? 0) + 1);
    }
    expect(Math.max(...perDestination.values())).toBe(1); // zero duplicates
    expect(perDestination.size).toBeGreaterThanOrEqual(succeeded); // every success placed a call
    expect(failed).toBeGreaterThan(attempts * 0.1);
    console.log(
      `click-to-dial: ${attempts} attempts, ${succeeded} succeeded, ${failed} failed, ${perDestination.size} calls placed, 0 duplicates`,
    );
  });

  it('a 403 on click-to-dial (not the user’s extension) is forbidden, and is not retried', async () => {
    const { api: impostor } = await apiFor(sim, 1, (account) => ({
      ...account,
      user_extension: sim.users[0]!.extension,
    }));
    await expect(impostor.calls.clickToDial('+15551234567')).rejects.toMatchObject({
      code: 'forbidden',
      status: 403,
    });
    expect((await requestLog(sim)).filter((r) => r.path === CALL_CONTROL).length).toBe(1);
  });

  it('a destination that is not dialable never leaves Callbar', async () => {
    await expect(api.calls.clickToDial('call mom')).rejects.toMatchObject({
      code: 'invalid_destination',
      field: 'destination',
    });
    expect((await requestLog(sim)).filter((r) => r.path === CALL_CONTROL).length).toBe(0);
  });

  it('dials and hangs up with the call leg id from the call events', async () => {
    const accepted = await api.calls.clickToDial('+1 (555) 010-9999');
    const calls = await control<SimCall[]>(sim, 'GET', 'calls');
    const call = calls.find((c) => JSON.stringify(c).includes('+15550109999'));
    expect(call).toBeDefined();
    const legId = accepted.call_leg_id ?? call!.legs![0]!.id;
    await expect(api.calls.hangup(legId)).resolves.toBeDefined();
    const body = (await requestLog(sim))
      .filter((r) => r.path === CALL_CONTROL)
      .map((r) => JSON.stringify(r));
    expect(body.some((entry) => entry.includes('hangup'))).toBe(true);
  });
});
