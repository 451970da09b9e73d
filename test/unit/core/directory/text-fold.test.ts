/**
 * WordFolder (the index build's word reader) gives every text's folded words as foldedWords does,
 * word for word, while folding each written word once: accents, special letters, marks outside
 * the combining block, surrogate pairs, CJK, the Greek capital sigma (whose lower case depends on
 * what follows), separators of every kind, and enough distinct words to grow its table.
 */
import { describe, expect, it } from 'vitest';
import { WordFolder, foldedWords } from '../../../../src-main/core/directory/text-fold';

const TEXTS = [
  'Müller-Lüdenscheidt, Anne-Marie',
  'José  Müller',
  'Straße Ærø Łódź İstanbul',
  'ΟΔΟΣ.Α ΟΔΟΣ Α ΣΟΦΙΑ',
  'Σωκράτης ΠΑΠΑΔΟΠΟΥΛΟΣ',
  'Nguyễn Văn A',
  'हिन्दी 漢字 山田 美咲',
  '𝒜bc 𝒜bc x𝒜',
  'O\u0301scar e\u0323\u0301',
  "O'Brien de Vries",
  '',
  '  —  ',
  '\ud800 lone \udc00 surrogates',
  'ÀÉÎÕÜ àéîõü',
  'Müller',
  'MÜLLER',
  'müller',
];

describe('WordFolder', () => {
  it('reads the folded words foldedWords gives, text after text', () => {
    const folder = new WordFolder();
    // Twice: the second round finds every written word in its table.
    for (const text of [...TEXTS, ...TEXTS]) {
      const count = folder.read(text);
      const words = Array.from(folder.ids.subarray(0, count), (id) => folder.words[id]);
      expect(words, text).toEqual(foldedWords(text));
    }
    // One id a distinct folded word.
    expect(new Set(folder.words).size).toBe(folder.words.length);
    expect(folder.words.filter((word) => word === 'muller')).toHaveLength(1);
  });

  it('keeps telling apart thousands of written words as its table grows', () => {
    const folder = new WordFolder();
    const texts = Array.from({ length: 5_000 }, (_, i) => `Név${i} ÉVA${i % 97} x${i % 13}`);
    for (const text of [...texts, ...texts.slice(0, 1_000)]) {
      const count = folder.read(text);
      expect(Array.from(folder.ids.subarray(0, count), (id) => folder.words[id])).toEqual(
        foldedWords(text),
      );
    }
    expect(folder.words.length).toBe(5_000 + 97 + 13);
  });
});
