/**
 * The page the browser lands on after the portal (the redirect_url), served by the receiver. Its
 * words are the `landing` catalog's, in the language the browser asks for (Accept-Language): the
 * page is read in the browser that has just shown the portal, in that browser's language.
 */
import { acceptedLanguages } from '../http/accept-language';
import { translatorFor } from '../text/translators';
import { said, sayWith, type Said, type Translate } from '../text/said';
import { DEFAULT_LOCALE, type Locale } from '../../../src-shared/i18n/locales';
import { matchLocale } from '../../../src-shared/i18n/resolve-locale';
import type { AttemptOutcome } from './activation-attempts';

export interface LandingPage {
  ok: boolean;
  title: string | Said;
  /** A Said, or the words of a failure as core said them (English). */
  message: string | Said;
}

/** What the landing page says for an attempt's outcome (undefined: an attempt Callbar does not know). */
export function landingPageFor(outcome: AttemptOutcome | undefined): LandingPage {
  switch (outcome?.kind) {
    case 'connected':
      return {
        ok: true,
        title: said('landing:connected.title'),
        message: said('landing:connected.message', {
          extension: outcome.user_extension,
          tenant: outcome.tenant_id,
        }),
      };
    case 'disconnected':
      return {
        ok: true,
        title: said('landing:disconnected.title'),
        message: said('landing:disconnected.message'),
      };
    case 'failed':
      return { ok: false, title: said('landing:failed.title'), message: outcome.message };
    case 'pending':
    case 'claimed':
      return {
        ok: false,
        title: said('landing:pending.title'),
        message: said('landing:pending.message'),
      };
    case undefined:
      return {
        ok: false,
        title: said('landing:unknown.title'),
        message: said('landing:unknown.message'),
      };
  }
}

/**
 * The language of a landing page: the first of the browser's Accept-Language choices (by weight,
 * then order: acceptedLanguages) that Callbar speaks, else English.
 */
export function landingLocale(acceptLanguage: string | undefined): Locale {
  for (const tag of acceptedLanguages(acceptLanguage)) {
    const locale = matchLocale(tag);
    if (locale) return locale;
  }
  return DEFAULT_LOCALE;
}

const escape = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** The page in `t`'s language (English unless given). */
export function renderLandingPage(
  page: LandingPage,
  t: Translate = translatorFor('en', 'landing'),
): string {
  const color = page.ok ? '#1a7f37' : '#cf222e';
  const title = escape(sayWith(t, page.title));
  return `<!doctype html>
<html lang="${escape(t.locale)}"><head><meta charset="utf-8"><title>${escape(t('page', { title: sayWith(t, page.title) }))}</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<style>
body{font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;display:grid;place-items:center;min-height:90vh;margin:0}
main{max-width:32rem;padding:2rem;text-align:center}
h1{color:${color};font-size:1.6rem}
p{color:#57606a;line-height:1.5}
</style></head>
<body><main><h1>${title}</h1><p>${escape(sayWith(t, page.message))}</p></main></body></html>`;
}
