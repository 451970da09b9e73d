/**
 * The window's message catalogs, compiled at build time (a Vite plugin, used by the renderer's
 * build in electron.vite.config.ts and by vitest): `import('virtual:window-catalog/de')` is the
 * `window` namespace of one locale, each ICU message already parsed by formatjs's parser into the
 * AST that intl-messageformat formats (as `formatjs compile --ast` does), so the window ships no
 * ICU parser: the renderer's build aliases the parser to its `no-parser` build (formatjs's guide
 * "Remove the parser"). A message that is plain text (no placeholder, plural or select) is kept
 * as its text, which needs no formatting at all. The pseudo-locales are generated from English
 * here too. Each locale is its own chunk, loaded when the window speaks it, and the groups only
 * the screens opened later use (SCREEN_GROUPS) are another, loaded with those screens.
 */
import { parse, TYPE, type MessageFormatElement } from '@formatjs/icu-messageformat-parser';
import { fileURLToPath } from 'node:url';
import type { Plugin } from 'vite';
import { catalogsOf } from '../src-shared/i18n/catalogs.ts';
import { intlLocale, isLocale, type Locale } from '../src-shared/i18n/locales.ts';
import type { Catalog } from '../src-shared/i18n/pseudo-locale.ts';

/**
 * The id a window catalog is imported by: `virtual:window-catalog/<locale>` (what the window
 * shows at start) and `virtual:window-catalog/<locale>/screens` (SCREEN_GROUPS).
 */
export const WINDOW_CATALOG_ID = 'virtual:window-catalog/';
const RESOLVED = `\0${WINDOW_CATALOG_ID}`;
const SCREENS = '/screens';

/**
 * The catalog's groups only the screens loaded when opened use (App.tsx's lazy screens: settings,
 * phonebooks and contacts with import, the contact form, connect, setup; the first-run hint until
 * Got it; what the search found, said once something is searched); they load with those screens.
 * test/unit/renderer/window-catalog-split.test.ts fails when a module the window loads at start
 * uses one.
 */
export const SCREEN_GROUPS: readonly string[] = [
  'settings',
  'language',
  'theme',
  'shortcut',
  'webhook',
  'connect',
  'setup',
  'phonebooks',
  'phonebookEditor',
  'contactEditor',
  'list',
  'import',
  'regionAsk',
  'firstRun',
  'searchSaid',
];

/** A compiled catalog: each message its text (plain text) or its AST; groups nested. */
export interface CompiledCatalog {
  [key: string]: string | MessageFormatElement[] | CompiledCatalog;
}

/**
 * `message` as the window formats it: its text when it is plain text, else formatjs's AST
 * (parsed as intl-messageformat parses a string: tags kept as text, the locale for skeletons).
 */
export function compileMessage(message: string, locale: Locale): string | MessageFormatElement[] {
  const ast = parse(message, { ignoreTag: true, locale: new Intl.Locale(intlLocale(locale)) });
  if (ast.length === 0) return '';
  const only = ast[0]!;
  return ast.length === 1 && only.type === TYPE.literal ? only.value : ast;
}

/** Every message of `catalog` compiled (nested groups kept). */
export function compileCatalog(catalog: Catalog, locale: Locale): CompiledCatalog {
  return Object.fromEntries(
    Object.entries(catalog).map(([key, value]) => [
      key,
      typeof value === 'string' ? compileMessage(value, locale) : compileCatalog(value, locale),
    ]),
  );
}

/** The Vite plugin: resolves and builds `virtual:window-catalog/<locale>`. */
export function windowCatalogs(): Plugin {
  const locales = fileURLToPath(new URL('../src-shared/i18n/locales/', import.meta.url));
  return {
    name: 'callbar-window-catalogs',
    resolveId(id) {
      return id.startsWith(WINDOW_CATALOG_ID) ? `\0${id}` : undefined;
    },
    load(id) {
      if (!id.startsWith(RESOLVED)) return undefined;
      const screens = id.endsWith(SCREENS);
      const locale = id.slice(RESOLVED.length, screens ? -SCREENS.length : undefined);
      if (!isLocale(locale)) return this.error(`No window catalog for the locale "${locale}".`);
      // The catalogs are read through catalogs.ts (bundled JSON); a watch still rebuilds on edits.
      this.addWatchFile(`${locales}en/window.json`);
      this.addWatchFile(`${locales}de/window.json`);
      const catalog = Object.fromEntries(
        Object.entries(catalogsOf(locale).window).filter(
          ([group]) => SCREEN_GROUPS.includes(group) === screens,
        ),
      );
      const compiled = compileCatalog(catalog, locale);
      // JSON.parse of one string literal: the fastest way for V8 to make a large object.
      return `export default JSON.parse(${JSON.stringify(JSON.stringify(compiled))});`;
    },
  };
}

/**
 * The file name of a window chunk: `assets/catalog-<locale>[-screens]-<hash>.js` for a catalog,
 * else Vite's `assets/<name>-<hash>.js` (rolldown's `output.chunkFileNames`).
 */
export function windowChunkFileName(chunk: { facadeModuleId: string | null }): string {
  const id = chunk.facadeModuleId ?? '';
  if (!id.startsWith(RESOLVED)) return 'assets/[name]-[hash].js';
  return `assets/catalog-${id.slice(RESOLVED.length).replace('/', '-')}-[hash].js`;
}

/**
 * The renderer's resolve aliases: the ICU parser replaced by formatjs's `no-parser` build (every
 * message reaches intl-messageformat already compiled).
 */
export const WINDOW_PARSER_ALIAS = {
  find: /^@formatjs\/icu-messageformat-parser$/,
  replacement: '@formatjs/icu-messageformat-parser/no-parser.js',
};
