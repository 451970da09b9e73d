/**
 * The catalogs are complete: every locale has exactly English's keys in every namespace, each
 * message is valid ICU syntax with the same placeholders as the English one, and the
 * pseudo-locales are generated (accented, longer, bracketed; right to left with isolated
 * placeholders).
 */
import { parse, TYPE, type MessageFormatElement } from '@formatjs/icu-messageformat-parser';
import { describe, expect, it } from 'vitest';
import {
  allCatalogs,
  CATALOG_LOCALES,
  CATALOGS,
  NAMESPACES,
  SUPPORTED_LOCALES,
  type Catalog,
} from '../../../../src-shared/i18n';

/** Every message of a catalog by its dotted key. */
function flatten(catalog: Catalog, prefix = ''): Map<string, string> {
  const messages = new Map<string, string>();
  for (const [key, value] of Object.entries(catalog)) {
    if (typeof value === 'string') messages.set(prefix + key, value);
    else for (const entry of flatten(value, `${prefix}${key}.`)) messages.set(...entry);
  }
  return messages;
}

/** The names of a message's placeholders (plural and select arguments included). */
function placeholders(elements: MessageFormatElement[], into = new Set<string>()): Set<string> {
  for (const element of elements) {
    if (element.type === TYPE.literal || element.type === TYPE.pound) continue;
    into.add(element.value);
    if (element.type === TYPE.plural || element.type === TYPE.select) {
      for (const option of Object.values(element.options)) placeholders(option.value, into);
    }
    if (element.type === TYPE.tag) placeholders(element.children, into);
  }
  return into;
}

describe('catalogs', () => {
  for (const namespace of NAMESPACES) {
    const english = flatten(CATALOGS.en[namespace]);
    for (const locale of CATALOG_LOCALES) {
      it(`${locale}/${namespace}.json has exactly English's keys, valid ICU, the same placeholders`, () => {
        const messages = flatten(CATALOGS[locale][namespace]);
        const missing = [...english.keys()].filter((key) => !messages.has(key));
        const extra = [...messages.keys()].filter((key) => !english.has(key));
        expect({ missing, extra }).toEqual({ missing: [], extra: [] });
        for (const [key, message] of messages) {
          let elements: MessageFormatElement[] = [];
          expect(() => (elements = parse(message, { ignoreTag: true })), `${key}`).not.toThrow();
          expect(message.trim(), `${locale} ${key} is empty`).not.toBe('');
          const expected = [...placeholders(parse(english.get(key) ?? '', { ignoreTag: true }))];
          expect([...placeholders(elements)].sort(), `${locale} ${key}`).toEqual(expected.sort());
        }
      });
    }
  }

  it('generates every pseudo-locale from English, key for key', () => {
    const all = allCatalogs();
    expect(Object.keys(all).sort()).toEqual([...SUPPORTED_LOCALES].sort());
    for (const namespace of NAMESPACES) {
      const english = [...flatten(CATALOGS.en[namespace]).keys()];
      for (const locale of ['en-XA', 'ar-XB'] as const) {
        const pseudo = flatten(all[locale][namespace]);
        expect([...pseudo.keys()]).toEqual(english);
        for (const message of pseudo.values())
          expect(() => parse(message, { ignoreTag: true })).not.toThrow();
      }
    }
  });
});
