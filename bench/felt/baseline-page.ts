/**
 * The felt benchmark's baseline page (bench/felt/baseline) opened in a browser context of its own,
 * served from the build by the context itself, its contacts as `contacts.json`; with
 * `channelPage` (a filter server's page address) the channel baseline, served by and asking
 * that process instead.
 */
import type { Browser, Page } from 'playwright-core';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FeltBuild } from './build';

const BASELINE_ORIGIN = 'http://baseline.felt.test';

/** The page, its search box shown; closing the page's context is the caller's. */
export async function openBaseline(
  browser: Browser,
  built: Pick<FeltBuild, 'baselineDir'>,
  contacts: readonly unknown[],
  channelPage?: string,
): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 420, height: 640 } });
  const contactsJson = JSON.stringify(contacts);
  await context.route(`${BASELINE_ORIGIN}/**`, (route) => {
    const path = new URL(route.request().url()).pathname;
    if (path === '/contacts.json') {
      return route.fulfill({ body: contactsJson, contentType: 'application/json' });
    }
    const file = join(built.baselineDir, path === '/' ? 'index.html' : path);
    const type = file.endsWith('.js')
      ? 'text/javascript'
      : file.endsWith('.css')
        ? 'text/css'
        : 'text/html';
    return route.fulfill({ body: readFileSync(file), contentType: type });
  });
  const page = await context.newPage();
  await page.goto(channelPage ?? `${BASELINE_ORIGIN}/`);
  await page.locator('.search-box').waitFor();
  return page;
}
