/**
 * Redirects from the platform (issue 24, item 3), against the real simulator and a second local
 * server on another port (the foreign origin) that records what reaches it: the token refresh
 * follows none and keeps the session; API calls follow none across origins (an error naming the
 * redirect, the foreign body never used) and no write is redirected; a read follows a few
 * redirects on base_url's own origin.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { SimControl } from '../../../../simulator/control-client';
import { ForeignOrigin, redirectFault } from '../../../../simulator/hostile-platform';
import type { RunningSimulator } from '../../../../simulator/index';
import type { TokenManager } from '../../../../src-main/core/account/token-manager';
import type { PlatformApi } from '../../../../src-main/core/api/platform-api';
import { MAX_REDIRECTS } from '../../../../src-main/core/api/platform-fetch';
import { startSim } from '../../../support/sim-harness';
import { apiFor } from '../../../support/api-rig';
import { failure } from '../../../support/failure';

const TOKEN = '/v3/oauth/token/';
const CONTACTS = '/v3/phonebook/contact/';

describe('redirects from the platform', () => {
  let sim: RunningSimulator;
  let control: SimControl;
  let foreign: ForeignOrigin;

  beforeAll(async () => {
    sim = await startSim({ contacts: 20 });
    control = new SimControl(sim.base_url);
    foreign = await ForeignOrigin.start();
  });
  afterEach(async () => {
    await control.clearFaults();
    foreign.received.length = 0;
  });
  afterAll(async () => {
    await foreign.close();
    await sim.close();
  });

  /** An API signed in with an access token that has expired: the first call refreshes. */
  async function expiredSession(): Promise<{ api: PlatformApi; tokens: TokenManager }> {
    return apiFor(sim, 0, (account) => ({ ...account, expires_at: Date.now() - 60_000 }));
  }

  it.each([307, 302, 308, 301] as const)(
    'the token refresh does not follow a %i to another origin, and keeps the session',
    async (status) => {
      const { tokens } = await expiredSession();
      const before = tokens.session;
      await control.addFault(redirectFault(TOKEN, foreign.origin, status));

      const error = await failure(tokens.getAccessToken());
      expect(error.code).toBe('redirected');
      expect(error.message).toContain(`to another server (${foreign.origin})`);
      expect(error.message).toContain('POST /v3/oauth/token/');
      expect(foreign.received).toEqual([]);
      expect(tokens.session).toEqual(before);

      // The refresh token was not spent: once the platform stops redirecting, it renews.
      await control.clearFaults();
      await expect(tokens.getAccessToken()).resolves.toMatch(/.+/);
      expect(tokens.health.kind).toBe('ok');
    },
  );

  it('the token refresh follows no redirect on its own origin either', async () => {
    const { tokens } = await expiredSession();
    await control.addFault({ ...redirectFault(TOKEN, sim.base_url, 307), count: 1 });
    const error = await failure(tokens.getAccessToken());
    expect(error.code).toBe('redirected');
    expect(error.message).toContain('that Callbar does not follow');
  });

  it.each([302, 307] as const)(
    'a read redirected (%i) to another origin is refused, naming where, and its body unused',
    async (status) => {
      const { api } = await apiFor(sim);
      await control.addFault(redirectFault(CONTACTS, foreign.origin, status));
      const error = await failure(api.phonebooks.listContacts());
      expect(error.code).toBe('redirected');
      expect(error.message).toBe(
        `The platform answered GET /v3/phonebook/contact/ with a redirect to another server (${foreign.origin}). Callbar does not follow it: nothing of your session leaves ${sim.base_url}. Check base_url, or ask the platform's administrator.`,
      );
      expect(foreign.received).toEqual([]);
    },
  );

  it('a write redirected to another origin is refused and nothing reaches it', async () => {
    const { api } = await apiFor(sim);
    const [book] = (await api.phonebooks.listPhonebooks()).results;
    await control.addFault({ ...redirectFault(CONTACTS, foreign.origin, 307), method: 'POST' });
    const input = {
      phonebook: book!.id,
      display_name: 'Redirected',
      number: '+493055501234',
      secondary_number: null,
      speed_dial: 4321,
    };
    const error = await failure(api.phonebooks.createContact(input));
    expect(error.code).toBe('redirected');
    expect(foreign.received).toEqual([]);
  });

  it('a write redirected on its own origin is not sent again', async () => {
    const { api } = await apiFor(sim);
    const [book] = (await api.phonebooks.listPhonebooks()).results;
    await control.addFault({ ...redirectFault(CONTACTS, sim.base_url, 307), method: 'POST' });
    await control.clearRequests();
    const error = await failure(
      api.phonebooks.createContact({
        phonebook: book!.id,
        display_name: 'Redirected',
        number: '+493055501235',
        secondary_number: null,
        speed_dial: 4322,
      }),
    );
    expect(error.code).toBe('redirected');
    const posts = (await control.requests()).filter(
      (entry) => entry.method === 'POST' && entry.path === CONTACTS,
    );
    expect(posts).toHaveLength(1);
  });

  it('a read follows a redirect that stays on its origin (once), then answers', async () => {
    const { api } = await apiFor(sim);
    await control.addFault({ ...redirectFault(CONTACTS, sim.base_url, 302), count: 1 });
    // The fault's Location is the bare path: the page that answers is the list's first.
    const page = await api.phonebooks.listContacts();
    expect(page.count).toBe(20);
    expect(page.results).toHaveLength(20);
  });

  it(`a read stops after ${MAX_REDIRECTS} redirects on its own origin`, async () => {
    const { api } = await apiFor(sim);
    await control.addFault(redirectFault(CONTACTS, sim.base_url, 302));
    await control.clearRequests();
    const error = await failure(api.phonebooks.listContacts());
    expect(error.code).toBe('redirected');
    expect(error.message).toContain('(to /v3/phonebook/contact/) that Callbar does not follow');
    const hops = (await control.requests()).filter((entry) => entry.path === CONTACTS);
    expect(hops).toHaveLength(MAX_REDIRECTS + 1);
  });
});
