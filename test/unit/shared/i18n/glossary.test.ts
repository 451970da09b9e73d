/**
 * One word per concept in each language (src-shared/i18n/glossary.ts): no catalog of a language
 * uses a word its glossary says to avoid, and each word to use appears somewhere.
 */
import { describe, expect, it } from 'vitest';
import { CATALOGS, NAMESPACES, type Catalog } from '../../../../src-shared/i18n';
import { GLOSSARY } from '../../../../src-shared/i18n/glossary';

/** Every message of a catalog with its key. */
function messages(catalog: Catalog, prefix = ''): [string, string][] {
  return Object.entries(catalog).flatMap(([key, value]) =>
    typeof value === 'string' ? [[`${prefix}${key}`, value]] : messages(value, `${prefix}${key}.`),
  );
}

/** `word` as a whole word (letters on neither side; a trailing "." is part of an abbreviation). */
function wholeWord(word: string): RegExp {
  const escaped = word.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return new RegExp(`(?<![\\p{L}\\p{N}-])${escaped}(?![\\p{L}\\p{N}-])`, 'u');
}

describe.each(Object.keys(GLOSSARY) as (keyof typeof GLOSSARY)[])('the %s glossary', (locale) => {
  const all = NAMESPACES.flatMap((namespace) =>
    messages(CATALOGS[locale][namespace]).map(
      ([key, text]) => [`${namespace}:${key}`, text] as const,
    ),
  );

  it('no catalog uses a word the glossary says to avoid', () => {
    const found = GLOSSARY[locale].flatMap((entry) =>
      entry.avoid.flatMap((word) =>
        all
          .filter(([, text]) => wholeWord(word).test(text))
          .map(([key]) => `${key}: "${word}" (use ${entry.use})`),
      ),
    );
    expect(found).toEqual([]);
  });

  it('no catalog uses a stem the glossary says to avoid, not even inside a compound', () => {
    const found = GLOSSARY[locale].flatMap((entry) =>
      (entry.avoidWithin ?? []).flatMap((stem) =>
        all
          .filter(([, text]) => text.toLowerCase().includes(stem.toLowerCase()))
          .map(([key]) => `${key}: "${stem}" (use ${entry.use})`),
      ),
    );
    expect(found).toEqual([]);
  });

  it('each word to use is in the catalogs', () => {
    for (const entry of GLOSSARY[locale]) {
      const word = entry.use.split(' (')[0]!;
      expect(
        all.some(([, text]) => text.toLowerCase().includes(word.toLowerCase())),
        word,
      ).toBe(true);
    }
  });
});
