import { describe, expect, it } from 'vitest';
import {
  contactsKeyed,
  endingKey,
  keysOf,
  NumberEndings,
} from '../../../../src-main/core/directory/number-endings';
import { textTable } from '../../../../src-main/core/directory/text-table';
import { seededRandom } from '../../../../bench/search-data';

/**
 * The scan's caller identification (contact-scan.ts): the contacts whose numbers end in the same
 * 7 digits as a number, each once and in order, against the plain reading of the same texts.
 */
function expected(texts: readonly string[], text: string): number[] {
  if (text.length < 7) return [];
  const ending = text.slice(-7);
  return texts.flatMap((entry, contact) =>
    entry.split(' ').some((number) => number.length >= 7 && number.endsWith(ending))
      ? [contact]
      : [],
  );
}

/** Texts with few distinct endings, short numbers, empty entries, leading zeros, twins. */
function sampleTexts(): { texts: string[]; endings: string[] } {
  const random = seededRandom(11);
  const digits = (length: number) =>
    Array.from({ length }, () => String(Math.floor(random() * 10))).join('');
  const endings = Array.from({ length: 40 }, (_, i) => (i < 5 ? `000${digits(4)}` : digits(7)));
  const number = () =>
    random() < 0.1
      ? digits(1 + Math.floor(random() * 6))
      : digits(2 + Math.floor(random() * 5)) + endings[Math.floor(random() * endings.length)];
  const texts = Array.from({ length: 3_000 }, (_, i) => {
    if (i % 97 === 0) return '';
    const first = number();
    if (i % 13 === 0) return `${first} 49${first.slice(-9)}`;
    return random() < 0.5 ? first : `${first} ${number()}`;
  });
  return { texts, endings };
}

describe('NumberEndings', () => {
  it('finds every contact with a number of the same 7-digit ending, each once, in order', () => {
    // Few distinct endings, so many contacts share one; short numbers, empty entries, leading
    // zeros, and both of a contact's numbers with the same ending.
    const { texts, endings } = sampleTexts();
    const endingsOf = NumberEndings.of(textTable(texts));
    for (const ending of [...endings, '1234567', '0000000']) {
      const asked = `4930${ending}`;
      expect(endingsOf.contacts(asked), asked).toEqual(expected(texts, asked));
    }
    expect(endingsOf.contacts('123456')).toEqual([]);
    expect(endingsOf.contacts(endings[0]!.slice(1))).toEqual([]);
  });
});

describe('contactsKeyed', () => {
  it('finds every contact with a number of one of the keys (last 7 digits, or all of fewer)', () => {
    const { texts, endings } = sampleTexts();
    const asked = [`4930${endings[0]}`, `4930${endings[7]}`, '201', '0', endings[3]!.slice(1)];
    const keys = new Set(asked.map(endingKey));
    // The plain reading: a number's key is the value of its last 7 digits (the index's suffixes).
    const plain = texts.flatMap((entry, contact) =>
      entry.split(' ').some((number) => number !== '' && keys.has(Number(number.slice(-7))))
        ? [contact]
        : [],
    );
    expect(plain.length).toBeGreaterThan(20);
    expect(contactsKeyed(textTable(texts), keys)).toEqual(plain);
  });
});

describe('keysOf', () => {
  it("gives the keys of the contacts' numbers as endingKey reads their texts", () => {
    const { texts } = sampleTexts();
    const contacts = texts.map((_, contact) => contact).filter((contact) => contact % 3 !== 1);
    const plain = new Set(
      contacts.flatMap((contact) =>
        texts[contact]!.split(' ')
          .filter((number) => number !== '')
          .map(endingKey),
      ),
    );
    expect(plain.size).toBeGreaterThan(20);
    expect(keysOf(textTable(texts), contacts)).toEqual(plain);
    expect(keysOf(textTable(texts), [])).toEqual(new Set());
  });
});
