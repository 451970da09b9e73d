/**
 * The window's text and the locale it speaks. Views take their text from `useTranslation()`
 * (`const { t } = useTranslation()`, keys of the `window` namespace:
 * src-shared/i18n/locales/<locale>/window.json); a change of language re-renders every view
 * that uses it at once; the document's `lang` and `dir` follow.
 *
 * Light at start: only the locale spoken is loaded, each locale's catalog a chunk of its own,
 * compiled at build time (scripts/window-catalogs.ts: every ICU message already parsed by
 * formatjs), loaded before the first render and on a switch. intl-messageformat formats a
 * message from its AST (plurals, selects, numbers, dates in the locale); the window ships no ICU
 * parser and no i18next (core and the CLI keep theirs: src-shared/i18n).
 */
import IntlMessageFormat from 'intl-messageformat';
import { useMemo, useSyncExternalStore } from 'react';
import {
  intlLocale,
  textDirection,
  type LanguageChoice,
  type Locale,
} from '../../src-shared/i18n/locales';
import { resolveLocale } from '../../src-shared/i18n/resolve-locale';
import type { CompiledCatalog, CompiledMessage } from 'virtual:window-catalog/en';

type CatalogChunk = () => Promise<{ default: CompiledCatalog }>;

/**
 * Each locale's compiled `window` catalog, a chunk of its own: what the window shows at start,
 * and the groups of the screens loaded when opened (`withScreenTexts`).
 */
const CATALOGS: Record<Locale, { start: CatalogChunk; screens: CatalogChunk }> = {
  en: {
    start: () => import('virtual:window-catalog/en'),
    screens: () => import('virtual:window-catalog/en/screens'),
  },
  de: {
    start: () => import('virtual:window-catalog/de'),
    screens: () => import('virtual:window-catalog/de/screens'),
  },
  'en-XA': {
    start: () => import('virtual:window-catalog/en-XA'),
    screens: () => import('virtual:window-catalog/en-XA/screens'),
  },
  'ar-XB': {
    start: () => import('virtual:window-catalog/ar-XB'),
    screens: () => import('virtual:window-catalog/ar-XB/screens'),
  },
};

/** A message's values: text, numbers, dates (the ICU message says how each is shown). */
export type MessageValues = Record<string, unknown>;

/** A message of the window catalog by its key (`search.placeholder`), formatted with `values`. */
export type Translate = (key: string, values?: MessageValues) => string;

/** The OS's languages as the browser (Electron: the app's locale) reports them. */
const systemLanguages = () => globalThis.navigator?.languages ?? [globalThis.navigator?.language];

/** Each loaded locale's messages; `screens`: its screens' groups are in. */
const loaded = new Map<Locale, { messages: CompiledCatalog; screens: boolean }>();
const formatters = new WeakMap<object, IntlMessageFormat>();
const listeners = new Set<() => void>();
let language: Locale = resolveLocale({ system: systemLanguages() });
let wanted: Locale = language;

/** The message at a dotted key in `catalog`, or undefined. */
function lookup(catalog: CompiledCatalog | undefined, key: string): CompiledMessage | undefined {
  let node: CompiledCatalog | CompiledMessage | undefined = catalog;
  for (const part of key.split('.')) {
    if (node === undefined || typeof node === 'string' || Array.isArray(node)) return undefined;
    node = node[part];
  }
  return typeof node === 'string' || Array.isArray(node) ? node : undefined;
}

/** Formats `key` in `locale`: plain text as it is, an AST through intl-messageformat; a key
 * the catalog lacks shows as the key (the catalogs test keeps every locale complete). */
function translate(locale: Locale, key: string, values?: MessageValues): string {
  const message = lookup(loaded.get(locale)?.messages, key);
  if (message === undefined) return key;
  if (typeof message === 'string') return message;
  let formatter = formatters.get(message);
  if (!formatter) {
    formatter = new IntlMessageFormat(message, intlLocale(locale), undefined, { ignoreTag: true });
    formatters.set(message, formatter);
  }
  return String(formatter.format(values as Record<string, string | number | Date>));
}

/** The window's text outside React (announcements, labels): `i18n.t(key, values)`. */
export const i18n = {
  /** The locale the window speaks now. */
  get language(): string {
    return language;
  },
  t: ((key, values) => translate(language, key, values)) as Translate,
};

/** The locale the window speaks now. */
export function currentLocale(): Locale {
  return language;
}

/**
 * The window's text in a component: `t` (a new one when the language changes, so the component
 * re-renders in it) and `i18n` (its `language`).
 */
export function useTranslation(): { t: Translate; i18n: typeof i18n } {
  const spoken = useSyncExternalStore(subscribe, currentLocale, currentLocale);
  return useMemo(
    () => ({ t: (key: string, values?: MessageValues) => translate(spoken, key, values), i18n }),
    [spoken],
  );
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** Set once a screen that needs its own groups was opened: a switch loads them too. */
let screensWanted = false;

/** True when `locale`'s messages the window needs now are loaded. */
function isLoaded(locale: Locale): boolean {
  const catalog = loaded.get(locale);
  return catalog !== undefined && (catalog.screens || !screensWanted);
}

/** Loads `locale`'s catalog (and its screens' groups once wanted) when not loaded yet. */
async function loadCatalog(locale: Locale): Promise<void> {
  if (!loaded.has(locale)) {
    const { default: messages } = await CATALOGS[locale].start();
    if (!loaded.has(locale)) loaded.set(locale, { messages, screens: false });
  }
  const catalog = loaded.get(locale)!;
  if (!screensWanted || catalog.screens) return;
  const { default: groups } = await CATALOGS[locale].screens();
  if (catalog.screens) return;
  catalog.messages = { ...catalog.messages, ...groups };
  catalog.screens = true;
}

/**
 * A screen's module, resolved once the texts of the screens loaded when opened are in too:
 * `lazy(() => withScreenTexts(import('./views/SettingsView')).then(…))`.
 */
export async function withScreenTexts<Module>(screen: Promise<Module>): Promise<Module> {
  screensWanted = true;
  const [module] = await Promise.all([screen, loadCatalog(language)]);
  // The language changed meanwhile: its screens' texts come with the switch (applyLanguage).
  return module;
}

function speak(locale: Locale): void {
  if (wanted !== locale) return;
  followLocale(locale);
  if (language === locale) return;
  language = locale;
  for (const listener of listeners) listener();
}

/**
 * Speaks the locale `choice` resolves to (`system`: the OS's): at once when its catalog is
 * loaded, else as soon as it is; sets `lang` and `dir`. Of quick successive choices, the last
 * one wins. Returns the locale.
 */
export function applyLanguage(choice: LanguageChoice): Locale {
  const locale = resolveLocale({ setting: choice, system: systemLanguages() });
  wanted = locale;
  if (isLoaded(locale)) speak(locale);
  // A catalog that cannot load (never in a built app) leaves the window in its language.
  else
    loadCatalog(locale).then(
      () => speak(locale),
      () => undefined,
    );
  return locale;
}

function followLocale(locale: Locale) {
  const root = globalThis.document?.documentElement;
  if (!root) return;
  root.lang = locale;
  root.dir = textDirection(locale);
}

// The first render waits for the first catalog (main.tsx imports this module before rendering).
await loadCatalog(language);
followLocale(language);
