/**
 * The message catalogs, bundled (imported as JSON, so every process has them without reading a
 * file): one JSON file per locale and namespace, `locales/<locale>/<namespace>.json`, ICU message
 * syntax. English is the source; German is complete; the pseudo-locales are generated from English.
 */
import deCli from './locales/de/cli.json' with { type: 'json' };
import deErrors from './locales/de/errors.json' with { type: 'json' };
import deLanding from './locales/de/landing.json' with { type: 'json' };
import dePolicy from './locales/de/policy.json' with { type: 'json' };
import deShell from './locales/de/shell.json' with { type: 'json' };
import deWindow from './locales/de/window.json' with { type: 'json' };
import enCli from './locales/en/cli.json' with { type: 'json' };
import enErrors from './locales/en/errors.json' with { type: 'json' };
import enLanding from './locales/en/landing.json' with { type: 'json' };
import enPolicy from './locales/en/policy.json' with { type: 'json' };
import enShell from './locales/en/shell.json' with { type: 'json' };
import enWindow from './locales/en/window.json' with { type: 'json' };
import { PSEUDO_LOCALES, type CatalogLocale, type Locale } from './locales.ts';
import { pseudoCatalog, type Catalog } from './pseudo-locale.ts';

/**
 * The namespaces, one per part of Callbar that speaks: `window` (the renderer), `cli` (the CLI's
 * human output), `shell` (tray menu and notifications), `landing` (the connect flow's pages in
 * the browser), `errors` (core's messages to a person), `policy` (the administrators' policy
 * templates: each policy's title and what it accepts).
 */
export const NAMESPACES = ['window', 'cli', 'shell', 'landing', 'errors', 'policy'] as const;
export type Namespace = (typeof NAMESPACES)[number];

/** The hand-written catalogs, by locale and namespace. */
export const CATALOGS: Record<CatalogLocale, Record<Namespace, Catalog>> = {
  en: {
    window: enWindow,
    cli: enCli,
    shell: enShell,
    landing: enLanding,
    errors: enErrors,
    policy: enPolicy,
  },
  de: {
    window: deWindow,
    cli: deCli,
    shell: deShell,
    landing: deLanding,
    errors: deErrors,
    policy: dePolicy,
  },
};

const generated = new Map<Locale, Record<Namespace, Catalog>>();

/**
 * One locale's catalogs: the hand-written ones, or a pseudo-locale's generated from English (once,
 * when first asked for: generating them all costs more than a CLI start's other wording).
 */
export function catalogsOf(locale: Locale): Record<Namespace, Catalog> {
  if (locale === 'en' || locale === 'de') return CATALOGS[locale];
  let catalogs = generated.get(locale);
  if (!catalogs) {
    catalogs = Object.fromEntries(
      NAMESPACES.map((namespace) => [namespace, pseudoCatalog(CATALOGS.en[namespace], locale)]),
    ) as Record<Namespace, Catalog>;
    generated.set(locale, catalogs);
  }
  return catalogs;
}

/** Every locale's catalogs, the pseudo-locales generated from English. */
export function allCatalogs(): Record<Locale, Record<Namespace, Catalog>> {
  return {
    ...CATALOGS,
    ...Object.fromEntries(PSEUDO_LOCALES.map((locale) => [locale, catalogsOf(locale)])),
  } as Record<Locale, Record<Namespace, Catalog>>;
}
