/**
 * The pseudo-locales' messages, generated from the English ones (never written by hand), so the
 * end-to-end suite finds layout that only holds for English:
 * - `en-XA`: every letter accented, 40 % longer, bracketed: `[Šéţţîñĝš ·····]`. Clipped text loses
 *   its closing bracket; a string still written in the code shows without accents.
 * - `ar-XB`: the text of each message is written right to left (U+202E … U+202C), so with the
 *   document's `dir="rtl"` the layout mirrors; every placeholder (a number, a name) is wrapped in
 *   a first-strong isolate (U+2068 … U+2069) and so keeps its own direction: numbers stay left
 *   to right.
 * Only the text is changed: placeholders, plurals and selects are kept (the ICU syntax is parsed
 * and printed back).
 */
import { parse, TYPE, type MessageFormatElement } from '@formatjs/icu-messageformat-parser';
import { printAST } from '@formatjs/icu-messageformat-parser/printer.js';
import type { PseudoLocale } from './locales';

const ACCENTED: Record<string, string> = Object.fromEntries(
  [...'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ'].map((letter, index) => [
    letter,
    [...'àƀçðéƒĝĥîĵķļɱñöþǫŕšţûṽŵẋýžÀƁÇÐÉƑĜĤÎĴĶĻṀÑÖÞǪŔŠŢÛṼŴẊÝŽ'][index] ?? letter,
  ]),
);

const RLO = '\u202e';
const PDF = '\u202c';
const FSI = '\u2068';
const PDI = '\u2069';

const accent = (text: string) => [...text].map((char) => ACCENTED[char] ?? char).join('');

/** The text of a message's elements, for the length of the padding. */
function textLength(elements: MessageFormatElement[]): number {
  return elements.reduce(
    (sum, element) => sum + (element.type === TYPE.literal ? element.value.length : 4),
    0,
  );
}

function transform(elements: MessageFormatElement[], locale: PseudoLocale): MessageFormatElement[] {
  return elements.flatMap((element): MessageFormatElement[] => {
    switch (element.type) {
      case TYPE.literal:
        if (element.value.trim() === '') return [element];
        return [
          {
            ...element,
            value: locale === 'en-XA' ? accent(element.value) : RLO + element.value + PDF,
          },
        ];
      case TYPE.plural:
      case TYPE.select:
        return [
          {
            ...element,
            options: Object.fromEntries(
              Object.entries(element.options).map(([key, option]) => [
                key,
                { ...option, value: transform(option.value, locale) },
              ]),
            ),
          },
        ];
      case TYPE.tag:
        return [{ ...element, children: transform(element.children, locale) }];
      case TYPE.argument:
      case TYPE.number:
      case TYPE.date:
      case TYPE.time:
      case TYPE.pound:
        return locale === 'ar-XB'
          ? [{ type: TYPE.literal, value: FSI }, element, { type: TYPE.literal, value: PDI }]
          : [element];
    }
  });
}

/** `message` (ICU syntax) in `locale`; an empty message stays empty. */
export function pseudoLocalize(message: string, locale: PseudoLocale): string {
  if (message === '') return message;
  const elements = transform(parse(message, { ignoreTag: true }), locale);
  if (locale === 'ar-XB') return printAST(elements);
  // About 40 % longer, the text between brackets.
  const padding = '·'.repeat(Math.max(1, Math.round(textLength(elements) * 0.4)));
  return `[${printAST(elements)} ${padding}]`;
}

/** Every message of a catalog, pseudo-localised (nested objects kept). */
export function pseudoCatalog(catalog: Catalog, locale: PseudoLocale): Catalog {
  return Object.fromEntries(
    Object.entries(catalog).map(([key, value]) => [
      key,
      typeof value === 'string' ? pseudoLocalize(value, locale) : pseudoCatalog(value, locale),
    ]),
  );
}

/** A namespace's messages: ICU strings, grouped by nested objects. */
export interface Catalog {
  [key: string]: string | Catalog;
}
