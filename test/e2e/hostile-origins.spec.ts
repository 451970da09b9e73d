import {
  chromium,
  expect,
  test,
  type Browser,
  type BrowserContext,
  type Page,
} from '@playwright/test';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { openVault } from '../../src-main/core/vault/keytar-vault';
import { SimControl } from '../../simulator/control-client';
import { completePortalFlow } from '../../simulator/portal-driver';
import { FULL_CHROMIUM } from '../support/chromium';
import { startApp, type E2eApp } from '../support/e2e-app';
import {
  describeAttack,
  HOSTILE_HTML,
  networkStatuses,
  runInPage,
  startHostileSite,
  type Attack,
  type HostileSite,
  type PageView,
} from '../support/hostile-page';

/**
 * CSRF and DNS rebinding from a real page: Debian Chromium on other loopback origins
 * (127.0.0.1 on another port, localhost, 127.0.0.2) and on `attacker.example` mapped to 127.0.0.1
 * (`--host-resolver-rules`, the DNS-rebinding stand-in: the page's own origin then reaches
 * Callbar's port with `Host: attacker.example:PORT`) attacks a running Callbar (the preview
 * process: real core, real receiver, real keychain) while it connects and once it is connected:
 * fetch with and without CORS, JSON and form bodies, a self-submitting form, <img> and <iframe>,
 * against the receiver (/activate, /deactivate, /events, /done, /connect/<nonce>) and against
 * the preview's own IPC endpoint. Every request is refused (the status the browser's network
 * layer saw, and the receiver's own log), the page reads nothing but a refusal, and nothing
 * changed: no tokens stored or wiped, the attempt not spent, no call event delivered.
 */
const ATTACKER_HOST = 'attacker.example';

let app: E2eApp;
let browser: Browser;
let sites: HostileSite[] = [];

test.describe.configure({ mode: 'serial' });

test.beforeAll(async () => {
  app = await startApp();
  const launchOptions = test.info().project.use.launchOptions ?? {};
  browser = await chromium.launch({
    ...launchOptions,
    // A user's browser, not the window tests' headless shell.
    executablePath: FULL_CHROMIUM,
    args: [
      // A user's browser: with a process per site (playwright.config.ts turns it off for the
      // window's tests, to keep one renderer across them).
      ...(launchOptions.args ?? []).filter((arg) => arg !== '--disable-site-isolation-trials'),
      `--host-resolver-rules=MAP ${ATTACKER_HOST} 127.0.0.1`,
      // Chromium 142+ itself blocks a public page's requests to loopback (Local Network Access),
      // which would stop the same-origin rebinding below before it reaches Callbar. Firefox and
      // Safari have no such check, so Callbar's own must hold without it.
      '--disable-features=LocalNetworkAccessChecks',
    ],
  });
  sites = [await startHostileSite('127.0.0.1')];
  // Linux routes all of 127/8 to the loopback interface; elsewhere 127.0.0.2 may not bind.
  const other = await startHostileSite('127.0.0.2').catch(() => undefined);
  if (other) sites.push(other);
});

test.afterAll(async () => {
  await browser?.close();
  for (const site of sites) await site.close();
  await app?.close();
});

/** A page on `origin` serving the hostile page (for attacker.example: Playwright serves it). */
async function hostilePage(context: BrowserContext, origin: string): Promise<Page> {
  const page = await context.newPage();
  if (new URL(origin).hostname === ATTACKER_HOST) {
    // The attacker's server answered this first request; DNS then "rebinds" to 127.0.0.1, so
    // every later request of the page (same origin) reaches Callbar's port.
    await page.route(`${origin}/`, (route) =>
      route.fulfill({ status: 200, contentType: 'text/html', body: HOSTILE_HTML }),
    );
    await page.goto(`${origin}/`);
    await page.unrouteAll();
  } else {
    await page.goto(`${origin}/`);
  }
  return page;
}

/** The five ways a page can send a body: fetch with and without CORS, JSON or form, and a form. */
function posts(url: string, fields: Record<string, string>): Attack[] {
  return [
    { kind: 'fetch', url, method: 'POST', mode: 'cors', body: { type: 'json', fields } },
    { kind: 'fetch', url, method: 'POST', mode: 'cors', body: { type: 'form', fields } },
    { kind: 'fetch', url, method: 'POST', mode: 'no-cors', body: { type: 'json', fields } },
    { kind: 'fetch', url, method: 'POST', mode: 'no-cors', body: { type: 'form', fields } },
    { kind: 'form', url, fields },
  ];
}

/** The ways a page can make a GET: fetch with and without CORS, <img>, <iframe>. */
function gets(url: string): Attack[] {
  return [
    { kind: 'fetch', url, method: 'GET', mode: 'cors' },
    { kind: 'fetch', url, method: 'GET', mode: 'no-cors' },
    { kind: 'img', url },
    { kind: 'iframe', url },
  ];
}

/** The hostile pages: each with the address it reaches Callbar's port at. */
interface Attacker {
  page: Page;
  origin: string;
  /** The base URL for Callbar's server on `port` as this page addresses it. */
  base(port: number): string;
}

async function attackers(context: BrowserContext, receiverPort: number): Promise<Attacker[]> {
  const [local, other] = sites as [HostileSite, HostileSite | undefined];
  const cross = (origin: string) => ({
    origin,
    base: (port: number) => `http://127.0.0.1:${port}`,
  });
  const rebound = (origin: string) => ({
    origin,
    base: (port: number) => `http://${ATTACKER_HOST}:${port}`,
  });
  const made = [
    // Same site as Callbar (127.0.0.1, another port), then other sites.
    cross(local.origin),
    cross(local.origin.replace('127.0.0.1', 'localhost')),
    ...(other ? [cross(other.origin)] : []),
    // DNS rebinding: attacker.example now resolves to 127.0.0.1; a page on another port of it,
    // and one on Callbar's own port (same origin as the requests: no CORS in the way at all).
    rebound(local.origin.replace('127.0.0.1', ATTACKER_HOST)),
    rebound(`http://${ATTACKER_HOST}:${receiverPort}`),
  ];
  return Promise.all(
    made.map(async (each) => ({ ...each, page: await hostilePage(context, each.origin) })),
  );
}

interface Outcome {
  attacker: string;
  attack: string;
  view: PageView;
}

/** Runs `attacks(base)` from every hostile page against the server on `port`. */
async function runAll(
  pages: Attacker[],
  port: number,
  attacks: (base: string) => Attack[],
): Promise<Outcome[]> {
  const outcomes: Outcome[] = [];
  for (const attacker of pages) {
    for (const attack of attacks(attacker.base(port))) {
      outcomes.push({
        attacker: attacker.origin,
        attack: describeAttack(attack),
        view: await runInPage(attacker.page, attack),
      });
    }
  }
  return outcomes;
}

/** The page learnt nothing: no answer at all, or (same origin) only Callbar's refusal. */
function expectNothingRead(outcomes: Outcome[], refusals: Record<number, string>) {
  const leaks = outcomes.filter(({ view }) => {
    if (!view.readable) return false;
    const expected = refusals[view.status];
    return expected === undefined || !view.text.includes(expected) || view.text.length > 200;
  });
  expect(leaks).toEqual([]);
}

/** Refusals in the receiver's log: the first line of a burst, plus each summary's count. */
function receiverRefusals(dataDir: string) {
  const lines = readFileSync(join(dataDir, 'logs', 'callbar.log'), 'utf8')
    .split('\n')
    .filter(Boolean)
    .map(
      (line) =>
        JSON.parse(line) as {
          message: string;
          status?: number;
          count?: number;
          by_kind?: Record<string, number>;
        },
    );
  const byStatus = new Map<string, number>();
  for (const line of lines) {
    if (line.message === 'receiver refused a request') {
      byStatus.set(String(line.status), (byStatus.get(String(line.status)) ?? 0) + 1);
    }
    if (line.message === 'receiver refused more requests') {
      for (const [status, count] of Object.entries(line.by_kind ?? {})) {
        byStatus.set(status, (byStatus.get(status) ?? 0) + count);
      }
    }
  }
  const total = [...byStatus.values()].reduce((sum, count) => sum + count, 0);
  return { total, byStatus };
}

test('hostile pages on other loopback origins and a rebound DNS name are refused at every step', async () => {
  test.setTimeout(240_000);
  const receiverPort = Number(new URL(app.receiverOrigin).port);
  const previewPort = Number(new URL(app.preview.origin).port);
  const userContext = await browser.newContext();
  const callbarWindow = await userContext.newPage();
  const hostileContext = await browser.newContext();
  const pages = await attackers(hostileContext, receiverPort);
  // Everything Callbar's two servers answered, as the browser's network layer saw it.
  const network = pages.map(({ page }) => networkStatuses(page, [receiverPort, previewPort]));
  const vault = openVault({ dataDir: app.dataDir });
  const onlyRefusals = { 421: 'answers only to its own address' };

  // 1. Connecting: the portal link is out, the browser's one-time /connect link not yet opened.
  await callbarWindow.goto(app.preview.url);
  await callbarWindow.getByRole('button', { name: 'Connect…' }).click();
  await expect(callbarWindow.getByTestId('account-state')).toHaveText('Connecting…');
  const browserUrl = await app.preview.nextOpenedUrl();
  const connectPath = new URL(browserUrl).pathname;
  const sim = app.sim;
  const alice = sim.users[0]!;
  const handshake = (key: string) => ({
    tenant_id: sim.tenant_id,
    user_extension: alice.extension,
    confirmation_key: key,
    access_token: 'attacker-access-token',
    refresh_token: 'attacker-refresh-token',
  });
  const connecting = await runAll(pages, receiverPort, (base) => [
    // Even a page that learnt the one-time link cannot spend it.
    ...gets(`${base}${connectPath}`),
    { kind: 'form', url: `${base}${connectPath}`, fields: {} },
    ...gets(`${base}/done?attempt=guessed`),
    ...posts(`${base}/activate`, handshake('guessed-key')),
  ]);
  expectNothingRead(connecting, onlyRefusals);
  expect(await vault.load()).toBeUndefined();

  // The user's browser opens the link (a navigation of its own): it still leads to the portal.
  const tab = await userContext.newPage();
  const toPortal = tab.waitForResponse((response) => response.url() === browserUrl);
  await tab.goto(browserUrl).catch(() => undefined);
  expect((await toPortal).status()).toBe(303);
  const portalLink = (await (await toPortal).headerValue('location'))!;
  const key = new URL(portalLink).searchParams.get('confirmation_key')!;
  expect(key).toBeTruthy();

  // 2. The link is open and the key known (say, it leaked): a page posts its own tokens with it.
  const withKey = await runAll(pages, receiverPort, (base) =>
    posts(`${base}/activate`, handshake(key)),
  );
  expectNothingRead(withKey, onlyRefusals);
  expect(await vault.load()).toBeUndefined();
  await expect(callbarWindow.getByTestId('account-state')).toHaveText('Connecting…');

  // The platform's own call with the same key still connects Callbar, with the platform's tokens.
  app.portalLink = portalLink;
  const answer = await completePortalFlow(portalLink, {
    username: alice.username,
    password: alice.password,
    action: 'subscribe',
  });
  expect(answer.status).toBe(303);
  await expect(callbarWindow.getByTestId('account-state')).toHaveText(
    `Connected · Ext. ${alice.extension}`,
  );
  const stored = (await vault.load())!;
  expect(stored.access_token).not.toBe('attacker-access-token');

  // 3. Connected: a page tries to disconnect Callbar, to feed it a call, and to drive its IPC.
  const connected = await runAll(pages, receiverPort, (base) => [
    ...posts(`${base}/deactivate`, { ...handshake(key), access_token: '', refresh_token: '' }),
    ...posts(`${base}/events`, { id: 'attacker-leg-1', state: 'ringing', from: '+1900555' }),
  ]);
  expectNothingRead(connected, onlyRefusals);
  const preview = await runAll(pages, previewPort, (base) => [
    ...posts(`${base}/__callbar/invoke/account.forget`, {}),
    ...posts(`${base}/__callbar/invoke/calls.dial`, { target: '+1900555' }),
    { kind: 'fetch', url: `${base}/__callbar/events`, method: 'GET', mode: 'cors' },
    { kind: 'fetch', url: `${base}/__callbar/events`, method: 'GET', mode: 'no-cors' },
  ]);
  expectNothingRead(preview, { 421: 'answers only to its own address', 401: 'session token' });

  // No CORS, no Private Network Access grant: the preflight a page's browser would send, with
  // every header that could win one, gets a refusal and no Access-Control-* header at all.
  const preflights = [
    `${app.receiverOrigin}/activate`,
    `${app.preview.origin}/__callbar/invoke/account.forget`,
  ];
  for (const target of preflights) {
    const preflight = await fetch(target, {
      method: 'OPTIONS',
      headers: {
        origin: sites[0]!.origin,
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'content-type, x-callbar-session',
        'access-control-request-private-network': 'true',
      },
    });
    expect(preflight.status, target).toBeGreaterThanOrEqual(400);
    expect(
      [...preflight.headers.keys()].filter((name) => name.startsWith('access-control-')),
    ).toEqual([]);
  }

  // Nothing changed: the same tokens, still connected, no call event, no call placed.
  expect(await vault.load()).toEqual(stored);
  await expect(callbarWindow.getByTestId('account-state')).toHaveText(
    `Connected · Ext. ${alice.extension}`,
  );
  const calls = await callbarWindow.evaluate(() => window.callbar.calls.list());
  expect(JSON.stringify(calls)).not.toContain('attacker-leg-1');
  expect(await new SimControl(sim.base_url).calls()).toEqual([]);

  // Every answer the browser saw from Callbar's servers was a refusal (the landing page of an
  // unknown attempt is a 400 too); the page read none of them across origins.
  const seen = network.flatMap((each) => each.seen);
  expect(seen.length).toBeGreaterThan(0);
  expect(seen.filter(({ status }) => status < 400 || status >= 500)).toEqual([]);

  // The receiver's own log counts every request that reached it as refused: from the pages that
  // address it as 127.0.0.1, each request once (403 for a browser's request, 405 for the
  // preflight of a CORS JSON POST or a POST to /connect; the landing page of an unknown /done
  // attempt, a 400, is no refusal), plus the preflight sent above; from the rebound name each
  // request at least once (421: Chromium retries a 421 on a fresh connection, so most arrive
  // twice).
  await app.preview.stop();
  const logged = receiverRefusals(app.dataDir);
  const atReceiver = [...connecting, ...withKey, ...connected];
  const byName = atReceiver.filter(({ attacker }) => attacker.includes(ATTACKER_HOST));
  const byAddress = atReceiver.filter(
    ({ attacker, attack }) => !attacker.includes(ATTACKER_HOST) && !attack.includes('/done'),
  );
  const count = (status: string) => logged.byStatus.get(status) ?? 0;
  const probes = preflights.filter((target) => target.startsWith(app.receiverOrigin)).length;
  expect(count('403') + count('405')).toBe(byAddress.length + probes);
  expect(count('421')).toBeGreaterThanOrEqual(byName.length);
  expect(logged.total).toBe(count('403') + count('405') + count('421'));
  expect(readFileSync(join(app.dataDir, 'logs', 'callbar.log'), 'utf8')).not.toContain(
    connectPath.slice('/connect/'.length),
  );

  const all = [...connecting, ...withKey, ...connected, ...preview];
  const readable = all.filter(({ view }) => view.readable);
  const figures = [
    `browser attacks (Chromium, ${pages.length} hostile origins): ${all.length} requests; the page got an error or an opaque answer for ${all.length - readable.length}, could read ${readable.length} (all refusals: the rebound name is its own origin), anything else 0`,
    `receiver log: ${logged.total} refused (${[...logged.byStatus].map(([status, count]) => `${status}×${count}`).join(' ')}) of ${byAddress.length + byName.length + probes} sent at it (Chromium retries a 421); preview IPC: ${preview.length} sent, every answer seen 401/421`,
    'state after the attacks: no tokens stored while connecting, the one-time link unspent, the session kept, 0 call events, 0 calls',
  ];
  for (const figure of figures) console.log(`Hardening figure: ${figure}`);
  test.info().annotations.push(...figures.map((description) => ({ type: 'figure', description })));
});
