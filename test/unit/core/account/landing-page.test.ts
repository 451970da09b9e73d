/** The landing page's language from the browser's Accept-Language, and its words in German. */
import { describe, expect, it } from 'vitest';
import {
  landingLocale,
  landingPageFor,
  renderLandingPage,
} from '../../../../src-main/core/account/landing-page';
import { translatorFor } from '../../../../src-main/core/text/translators';

describe('landingLocale', () => {
  it('takes the first language Callbar speaks, by weight then order', () => {
    expect(landingLocale('de-DE,de;q=0.9,en;q=0.8')).toBe('de');
    expect(landingLocale('fr-FR, de-AT;q=0.7, en;q=0.5')).toBe('de');
    expect(landingLocale('en;q=0.4, de;q=0.6')).toBe('de');
    expect(landingLocale('en-GB, de')).toBe('en');
    expect(landingLocale('de;q=0, en')).toBe('en');
  });

  it('is English for none, nonsense or only unknown languages', () => {
    expect(landingLocale(undefined)).toBe('en');
    expect(landingLocale('')).toBe('en');
    expect(landingLocale('*')).toBe('en');
    expect(landingLocale('fr, ja;q=0.5')).toBe('en');
    expect(landingLocale(';;,q=,xx;q=abc')).toBe('en');
  });
});

describe('renderLandingPage in German', () => {
  it('says the connected account in German, with lang="de"', () => {
    const page = renderLandingPage(
      landingPageFor({ kind: 'connected', tenant_id: 'acme', user_extension: '201' }),
      translatorFor('de', 'landing'),
    );
    expect(page).toContain('<html lang="de">');
    expect(page).toContain('<h1>Verbunden — Sie können diesen Tab schließen</h1>');
    expect(page).toContain('<p>Callbar ist mit der Nebenstelle 201 (acme) verbunden.</p>');
  });

  it('English stays as it was', () => {
    const page = renderLandingPage(landingPageFor(undefined));
    expect(page).toContain('<html lang="en">');
    expect(page).toContain('<title>Callbar — Unknown connection attempt</title>');
  });
});
