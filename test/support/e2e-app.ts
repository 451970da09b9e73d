/**
 * The e2e rig: a real simulator, the web preview (real core, real keychain) registered with it as
 * the integration's receiver, and helpers to connect, scan with axe and take README screenshots.
 */
import { expect, type Locator, type Page } from '@playwright/test';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  startSimulator,
  type RunningSimulator,
  type SimulatorOptions,
} from '../../simulator/index';
import { completePortalFlow } from '../../simulator/portal-driver';
import { openVault } from '../../src-main/core/vault/keytar-vault';
import { expectNoAxeViolations } from './a11y';
import { freePort } from './free-port';
import { startPreviewProcess, type PreviewProcess } from './preview-process';
import { profileEnv, registerProfile } from './sim-harness';
import { platformAs } from './platform-as';

/** A D-Bus address where nothing listens: the Secret Service (the keychain) cannot be reached. */
export const UNREACHABLE_KEYCHAIN: NodeJS.ProcessEnv = {
  DBUS_SESSION_BUS_ADDRESS: 'unix:path=/nonexistent/callbar-e2e-bus',
};

export interface E2eApp {
  sim: RunningSimulator;
  preview: PreviewProcess;
  dataDir: string;
  /** Callbar's loopback receiver, http://127.0.0.1:PORT (registered with the simulator). */
  receiverOrigin: string;
  /** The portal link of the last Connect (the platform deactivates with the same key). */
  portalLink: string | undefined;
  close(): Promise<void>;
}

export async function startApp(
  options: {
    sim?: SimulatorOptions;
    env?: NodeJS.ProcessEnv;
    /**
     * The country the person confirmed (settings.json's region; default US); null: none yet, so
     * the window asks (the system's region, which profileEnv keeps from naming one: US).
     */
    region?: string | null;
  } = {},
): Promise<E2eApp> {
  const sim = await startSimulator({ contacts: 40, autoAnswer: false, ...options.sim });
  const port = await freePort();
  const dataDir = mkdtempSync(join(tmpdir(), 'callbar-e2e-'));
  const region = options.region === undefined ? 'US' : options.region;
  if (region !== null) writeFileSync(join(dataDir, 'settings.json'), JSON.stringify({ region }));
  const env = { ...profileEnv(sim, dataDir, port), ...options.env };
  await registerProfile(sim, env);
  const preview = await startPreviewProcess(env, ['--print-opened-urls', '--stdin-shortcut']);
  const app: E2eApp = {
    sim,
    preview,
    dataDir,
    receiverOrigin: `http://127.0.0.1:${port}`,
    portalLink: undefined,
    // The preview a test restarted (app.preview = …) is the one to stop, not the first.
    close: async () => {
      await app.preview.stop();
      await openVault({ dataDir })
        .clear()
        .catch(() => undefined);
      await sim.close();
    },
  };
  return app;
}

/**
 * Connect as a returning user does it, minus the browser tab: Connect in the window, then the
 * portal's real forms (sign in, Subscribe) over HTTP. connect.spec.ts does the same in a tab.
 */
export async function connectThroughPortal(page: Page, app: E2eApp, userIndex = 0) {
  await page.getByRole('button', { name: 'Connect…' }).click();
  const user = await subscribeInPortal(app, userIndex).catch(async (error: Error) => {
    throw new Error(`${error.message}\n${await whatTheWindowShows(page, app)}`);
  });
  // The handshake crosses the portal, the receiver, the token endpoint and the keychain: with
  // both cores busy it took over the default 5 s (seen under a profiler), so it gets 15.
  await expect(page.getByTestId('account-state')).toHaveText(`Connected · Ext. ${user.extension}`, {
    timeout: 15_000,
  });
  return user;
}

/** The window's account state, its alerts and the profile's last log lines, for a failure. */
async function whatTheWindowShows(page: Page, app: E2eApp): Promise<string> {
  const state = await page
    .getByTestId('account-state')
    .textContent({ timeout: 1_000 })
    .catch(() => '(none)');
  const alerts = await page.getByRole('alert').allTextContents();
  // Whether the window's channel to core still answers (a new call, at most 3 s).
  const channel = await page
    .evaluate(() =>
      Promise.race([
        window.callbar.account.status().then((result) => JSON.stringify(result).slice(0, 300)),
        new Promise<string>((done) => setTimeout(() => done('no answer within 3 s'), 3_000)),
      ]),
    )
    .catch((error: Error) => `the page could not be asked (${error.message})`);
  const log = join(app.dataDir, 'logs', 'callbar.log');
  const lines = existsSync(log) ? readFileSync(log, 'utf8').trimEnd().split('\n').slice(-12) : [];
  return [
    `The window's account state: ${state}; its alerts: ${JSON.stringify(alerts)}`,
    `account.status asked now: ${channel}`,
    `The profile's log ends with:`,
    ...lines,
  ].join('\n');
}

/** Signs in to the portal Callbar just opened and presses Subscribe. */
export async function subscribeInPortal(app: E2eApp, userIndex = 0) {
  const user = app.sim.users[userIndex]!;
  app.portalLink = await portalLinkBehind(await app.preview.nextOpenedUrl(), app.sim);
  const answer = await completePortalFlow(app.portalLink, {
    username: user.username,
    password: user.password,
    action: 'subscribe',
  });
  expect(answer.status).toBe(303);
  return user;
}

/**
 * The portal link the browser ends up on: the opened address itself, or where Callbar's one-time
 * loopback address redirects (opening it here spends it, as the user's browser would).
 */
async function portalLinkBehind(opened: string, sim: RunningSimulator): Promise<string> {
  if (opened.startsWith(`${sim.portal_url}/`)) return opened;
  const response = await fetch(opened, { redirect: 'manual' });
  const location = response.headers.get('location');
  expect(location, `${opened} leads nowhere (${response.status})`).toBeTruthy();
  return new URL(location!, opened).href;
}

/**
 * The call bar once the platform answered the dial: until then it says "Calling …" (state
 * `sending`), and the simulator may not have the call yet, nor Esc a call to hang up.
 */
export async function placedCallBar(page: Page) {
  // By its test id: the same in every language (test/e2e/languages.spec.ts).
  const bar = page.getByTestId('call-bar');
  await expect(bar).toBeVisible();
  await expect(bar).not.toHaveAttribute('data-state', 'sending', { timeout: 20_000 });
  return bar;
}

/** Opens the window; connects first unless this profile is connected already. */
export async function openConnected(page: Page, app: E2eApp) {
  await page.goto(app.preview.url);
  const state = page.getByTestId('account-state');
  await expect(state).toHaveAttribute('data-state', /./);
  if ((await state.getAttribute('data-state')) !== 'connected') {
    await connectThroughPortal(page, app);
  }
}

/**
 * A picture of the page (or of one element) as it stands. `docs`: one the docs show, written to
 * docs/screenshots when CALLBAR_UPDATE_SCREENSHOTS=1. Any picture goes to test/e2e/screenshots
 * (ignored) when CALLBAR_E2E_SCREENSHOTS=1, for whoever wants to look at the screens a run went
 * through. A plain run takes none: they were thrown away unseen, and a wide or full-page one costs
 * a few tenths of a CPU-second (docs/development.md); a failing test leaves what its page showed
 * in test-results/ (Playwright's error-context.md, the page's accessibility tree). Not
 * Playwright's `screenshot: 'only-on-failure'`: it pictures every page of each context a test
 * closes, passing or not.
 */
export async function picture(
  target: Page | Locator,
  name: string,
  options: { docs?: boolean; fullPage?: boolean } = {},
): Promise<void> {
  const folder =
    options.docs && process.env.CALLBAR_UPDATE_SCREENSHOTS === '1'
      ? 'docs/screenshots'
      : process.env.CALLBAR_E2E_SCREENSHOTS === '1'
        ? 'test/e2e/screenshots'
        : undefined;
  if (folder === undefined) return;
  const path = join(folder, name);
  if ('goto' in target) await target.screenshot({ path, fullPage: options.fullPage });
  else await target.screenshot({ path });
}

/** Whether this run takes pictures of any kind (see {@link picture}). */
export const TAKES_PICTURES =
  process.env.CALLBAR_UPDATE_SCREENSHOTS === '1' || process.env.CALLBAR_E2E_SCREENSHOTS === '1';

/** {@link picture} in the light and the dark theme, `name-light.png` and `name-dark.png`. */
export async function pictureInBothThemes(
  page: Page,
  name: string,
  options: { docs?: boolean; of?: Locator } = {},
): Promise<void> {
  if (!TAKES_PICTURES) return;
  for (const colorScheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme });
    await picture(options.of ?? page, `${name}-${colorScheme}.png`, options);
  }
  await page.emulateMedia({ colorScheme: 'light' });
}

/** Unsubscribe in the portal, with the key of the activation (as the platform does). */
export async function unsubscribeInPortal(app: E2eApp, userIndex = 0) {
  const user = app.sim.users[userIndex]!;
  const answer = await completePortalFlow(app.portalLink!, {
    username: user.username,
    password: user.password,
    action: 'unsubscribe',
  });
  expect(answer.status).toBe(303);
}

export interface NewContact {
  phonebook: number;
  display_name: string;
  company?: string;
  number: string;
  secondary_number?: string | null;
  speed_dial?: number | null;
}

/** Adds a contact through the platform's own REST API (as another client of the tenant would). */
export async function addContact(sim: RunningSimulator, contact: NewContact): Promise<void> {
  const post = await platformAs(sim, sim.users[0]!.extension);
  await post('/v3/phonebook/contact/', contact);
}

/** axe-core finds no violation of any impact in what the page shows (the rules: support/a11y.ts). */
export const expectAccessible = expectNoAxeViolations;

/** The same scan in the light and the dark theme (the system's preference, as Chromium reports it). */
export async function expectAccessibleInBothThemes(page: Page, what: string) {
  for (const colorScheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme });
    await expectAccessible(page, `${what} (${colorScheme})`);
  }
  await page.emulateMedia({ colorScheme: 'light' });
}
