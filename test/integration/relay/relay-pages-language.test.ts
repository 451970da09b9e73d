/**
 * The pages a browser reads follow its Accept-Language, as the receiver's landing page does: the
 * relay's page after the portal and its spent connect link, and the loopback receiver's refusal
 * of a connect link a web page opened, in German for `Accept-Language: de`, English otherwise.
 * One relay node on the in-memory store; a real core's receiver on a free port.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { memoryStore } from '../../../relay/memory-store';
import { startRelay, type RunningRelay } from '../../../relay/relay-server';
import type { CallbarCore } from '../../../src-main/core/callbar-core';
import { silentLogger } from '../../../src-main/core/log/logger';
import { CONNECT_PATH } from '../../../src-main/core/relay/connect-link';
import { RELAY_LANDING_PATH } from '../../../src-main/core/relay/relay-protocol';
import { startTestCore } from '../../support/test-core';

const GERMAN = { 'accept-language': 'de-DE,de;q=0.9,en;q=0.8' };
const ENGLISH = { 'accept-language': 'en-GB,en;q=0.9' };

describe('pages in the browser’s language', () => {
  let node: RunningRelay;
  let core: CallbarCore;
  beforeAll(async () => {
    node = await startRelay({
      port: 0,
      store: memoryStore(),
      log: silentLogger,
      webhookSecret: 'relay-pages-webhook-secret-0123456789abc',
      pollMs: 200,
    });
    core = await startTestCore();
  });
  afterAll(async () => {
    await core.close();
    await node.close();
  });

  const page = async (url: string, headers: Record<string, string>) => {
    const response = await fetch(url, { headers, redirect: 'manual' });
    return { status: response.status, text: await response.text() };
  };

  it('the relay’s page after the portal', async () => {
    const german = await page(`${node.origin}${RELAY_LANDING_PATH}`, GERMAN);
    expect(german.status).toBe(200);
    expect(german.text).toContain('<html lang="de">');
    expect(german.text).toContain('Das Portal hat geantwortet');
    expect(german.text).toContain('Kehren Sie zu Callbar zurück');
    const english = await page(`${node.origin}${RELAY_LANDING_PATH}`, ENGLISH);
    expect(english.text).toContain('The portal has answered');
    expect(english.text).not.toContain('Portal hat');
  });

  it('the relay’s spent connect link', async () => {
    const spent = `${node.origin}${CONNECT_PATH}${'a'.repeat(43)}`;
    const german = await page(spent, GERMAN);
    expect(german.status).toBe(404);
    expect(german.text).toContain('Dieser Verbindungslink ist nicht mehr gültig');
    const english = await page(spent, ENGLISH);
    expect(english.text).toContain('This connect link is no longer valid');
  });

  it('the receiver’s refusal of a connect link a web page opened', async () => {
    const { origin } = await core.profile.account.listen();
    const fromAPage = { 'sec-fetch-site': 'cross-site', 'sec-fetch-mode': 'no-cors' };
    const german = await page(`${origin}/connect/anything`, { ...fromAPage, ...GERMAN });
    expect(german.status).toBe(403);
    expect(german.text).toContain(
      'Dieser Verbindungslink funktioniert nur, wenn Ihr Browser ihn direkt öffnet',
    );
    const english = await page(`${origin}/connect/anything`, { ...fromAPage, ...ENGLISH });
    expect(english.text).toContain('This connect link works only when your browser opens it');
  });
});
