/**
 * A malicious or broken platform (issue 24, items 3, 4 and 7), measured: redirects of the token
 * endpoint and the API to another origin (a second local server that records what it receives),
 * endless `next` pages (with an honest and with a lying `count`), contacts with megabyte fields,
 * and a plain-http platform on the network. The figures: what the other origin received, pages
 * walked before the sync stopped, peak RSS growth, directory.bin bytes, whether the previous
 * directory stayed. Peak RSS is this process's (Callbar's core and the simulator run in it), sampled
 * every 20 ms during the sync; search time is the bench's (bench/), not measured here.
 */
import { mkdtemp, readFile, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SimControl } from '../../simulator/control-client';
import { ForeignOrigin, redirectFault } from '../../simulator/hostile-platform';
import type { RunningSimulator } from '../../simulator/index';
import type { PlatformApi } from '../../src-main/core/api/platform-api';
import { cacheFile } from '../../src-main/core/directory/directory-cache';
import { Directory } from '../../src-main/core/directory/directory';
import { RequestPacer } from '../../src-main/core/directory/request-pacer';
import { silentLogger } from '../../src-main/core/log/logger';
import type { StoredAccount } from '../../src-main/core/vault/stored-account';
import { apiFor } from '../support/api-rig';
import { runCallbar } from '../support/cli-process';
import { startSim } from '../support/sim-harness';
import { recordFigure } from '../support/hardening/figures';

const CONTACTS = '/v3/phonebook/contact/';
const MB = 1024 * 1024;

/** `work`'s outcome and the highest RSS above the start while it ran (bytes). */
async function peakRssGrowth<T>(
  work: () => Promise<T>,
): Promise<{ outcome: unknown; growth: number }> {
  const start = process.memoryUsage.rss();
  let peak = start;
  const timer = setInterval(() => (peak = Math.max(peak, process.memoryUsage.rss())), 20);
  try {
    const outcome = await work().then(
      (value) => value,
      (error: unknown) => error,
    );
    peak = Math.max(peak, process.memoryUsage.rss());
    return { outcome, growth: peak - start };
  } finally {
    clearInterval(timer);
  }
}

function megabytes(bytes: number): string {
  return `${(bytes / MB).toFixed(1)} MB`;
}

describe('a malicious or broken platform', () => {
  let sim: RunningSimulator;
  let control: SimControl;
  let foreign: ForeignOrigin;
  let api: PlatformApi;
  let directory: Directory;
  let dataDir: string;

  beforeAll(async () => {
    sim = await startSim({ contacts: 200 });
    control = new SimControl(sim.base_url);
    foreign = await ForeignOrigin.start();
    ({ api } = await apiFor(sim));
    dataDir = await mkdtemp(join(tmpdir(), 'callbar-hostile-platform-'));
    directory = new Directory({
      dataDir,
      region: 'DE',
      log: silentLogger,
      phonebooks: () => api.phonebooks,
      owner: () => ({ tenant_id: 'acme', user_extension: '201', base_url: 'sim' }),
      intervalMs: 15 * 60_000,
      // Paced far above the platform's limit: the sync's bounds, not the pacer, stop it.
      pacer: new RequestPacer({ budget: 10_000, windowMs: 1000 }),
    });
    await directory.sync();
  });
  afterAll(async () => {
    await directory.close();
    await foreign.close();
    await sim.close();
  });

  it('sends nothing to another origin a redirect or a next link points to', async () => {
    const secrets: string[] = [sim.client_secret];
    const expired = (account: StoredAccount) => {
      secrets.push(account.access_token, account.refresh_token);
      return { ...account, expires_at: 0 };
    };
    const attempts: [string, () => Promise<unknown>][] = [];
    for (const status of [307, 302] as const) {
      const { tokens } = await apiFor(sim, 0, expired);
      attempts.push([
        `token refresh, ${status}`,
        async () => {
          await control.addFault(redirectFault('/v3/oauth/token/', foreign.origin, status));
          return tokens.getAccessToken();
        },
      ]);
    }
    const { api: client } = await apiFor(sim, 0, (account) => {
      secrets.push(account.access_token, account.refresh_token);
      return account;
    });
    attempts.push([
      'API read, 302',
      async () => {
        await control.addFault(redirectFault(CONTACTS, foreign.origin, 302));
        return client.phonebooks.listContacts();
      },
    ]);
    attempts.push([
      'API write, 307',
      async () => {
        await control.addFault({ ...redirectFault(CONTACTS, foreign.origin, 307), method: 'POST' });
        return client.phonebooks.createContact({
          phonebook: 1,
          display_name: 'Redirected',
          number: '+493055509999',
          secondary_number: null,
          speed_dial: 4444,
        });
      },
    ]);
    attempts.push([
      'next link to another origin',
      async () => {
        await control.setHostile({ kind: 'foreign-next', to: foreign.origin });
        return directory.sync();
      },
    ]);
    for (const [what, attempt] of attempts) {
      await expect(attempt(), what).rejects.toThrow();
      await control.clearFaults();
      await control.clearHostile();
    }
    const leaks = foreign.leaks(secrets);
    recordFigure(
      'redirects (token 307/302, API 302/307) and a next link to another origin: requests it received / carrying a credential',
      `${foreign.received.length} / ${leaks.length}`,
    );
    expect(foreign.received).toEqual([]);
    expect(leaks).toEqual([]);
  });

  it.each([
    ['an honest count (2, pages of 1)', { count: 2, page_size: 1 }, 'its pages go on past'],
    [
      'a lying count (1,000,000,000, pages of 1,000)',
      { count: 1_000_000_000, page_size: 1000 },
      'more than 200,000',
    ],
  ])(
    'stops endless next pages with %s, keeping the previous directory',
    async (what, spec, says) => {
      const before = await readFile(cacheFile(dataDir));
      const contactsBefore = directory.status().contacts;
      await control.clearRequests();
      await control.setHostile({ kind: 'endless-pages', ...spec });
      const { outcome, growth } = await peakRssGrowth(() => directory.sync());
      await control.clearHostile();
      const pages = (await control.requests()).filter((entry) => entry.path === CONTACTS).length;
      const kept =
        (await readFile(cacheFile(dataDir))).equals(before) &&
        directory.status().contacts === contactsBefore;
      recordFigure(
        `endless next pages, ${what}: pages walked before the sync stopped / peak RSS growth / previous directory kept`,
        `${pages} / ${megabytes(growth)} / ${kept ? 'yes' : 'no'}`,
      );
      expect((outcome as Error).message).toContain(says);
      expect(kept).toBe(true);
    },
  );

  it('keeps 100 contacts with 1 MB names and companies small on disk', async () => {
    const [book] = (await api.phonebooks.listPhonebooks()).results;
    await control.setHostile({
      kind: 'oversized-fields',
      contacts: 100,
      field_chars: MB,
      page_size: 5,
      phonebook: book!.id,
    });
    const { outcome, growth } = await peakRssGrowth(() => directory.sync());
    await control.clearHostile();
    const bytes = (await stat(cacheFile(dataDir))).size;
    recordFigure(
      '100 contacts with 1 MB name and company (pages of 5), among 200 others: directory.bin / peak RSS growth',
      `${(bytes / 1024).toFixed(0)} KB / ${megabytes(growth)}`,
    );
    expect(outcome).toMatchObject({ status: { state: 'ready' } });
    expect(directory.search('WWW', 200).hits).toHaveLength(100);
    expect(bytes).toBeLessThan(256 * 1024);
  });

  it('refuses a plain-http platform on the network at start, before any request', async () => {
    const profile = await mkdtemp(join(tmpdir(), 'callbar-plain-http-'));
    const run = await runCallbar(['status'], {
      CALLBAR_DATA_DIR: profile,
      CALLBAR_BASE_URL: 'http://pbx.lan:8089',
    });
    recordFigure(
      'CALLBAR_BASE_URL=http://pbx.lan:8089: callbar status exit code',
      String(run.code),
    );
    expect(run.code).not.toBe(0);
    expect(run.stderr).toContain('CALLBAR_BASE_URL');
    expect(run.stderr).toContain('plain http:// only on this computer');
  });
});
