/**
 * Case- and accent-insensitive text for the contact index: "Müller-Lüdenscheidt, Anne-Marie"
 * folds to the words müller → "muller", "ludenscheidt", "anne", "marie". Folding works character
 * by character, so a word found in folded text maps back to the characters a person sees (for
 * highlighting).
 */

const COMBINING_MARKS = /[\u0300-\u036f]/g;
const ASCII = /^[\u0020-\u007e]*$/;
/** Letters that do not decompose into a base letter and a mark. */
const SPECIAL_LETTERS: Record<string, string> = {
  ß: 'ss',
  æ: 'ae',
  ø: 'o',
  œ: 'oe',
  đ: 'd',
  ð: 'd',
  ł: 'l',
  þ: 'th',
  ı: 'i',
};

/** One character (or surrogate pair) folded: lower case, accents removed. */
function foldChar(char: string): string {
  const lower = char.toLowerCase();
  if (ASCII.test(lower)) return lower;
  return SPECIAL_LETTERS[lower] ?? lower.normalize('NFD').replace(COMBINING_MARKS, '');
}

const SPECIAL = new RegExp(`[${Object.keys(SPECIAL_LETTERS).join('')}]`, 'g');

/** Folds a whole text: lower case, accents removed (the same result as character by character). */
export function foldText(text: string): string {
  const lower = text.toLowerCase();
  if (ASCII.test(lower)) return lower;
  return lower
    .replace(SPECIAL, (char) => SPECIAL_LETTERS[char]!)
    .normalize('NFD')
    .replace(COMBINING_MARKS, '');
}

const WORD_CHAR = /[\p{L}\p{N}]/u;

/** A word of a text: its folded form and where it stands in the original text. */
export interface Word {
  folded: string;
  /** [start, end) in UTF-16 units of the original text. */
  start: number;
  end: number;
}

/** Whether a UTF-16 unit is an ASCII letter or digit. */
function isAsciiWordChar(code: number): boolean {
  return (code >= 48 && code <= 57) || (code >= 97 && code <= 122) || (code >= 65 && code <= 90);
}

/**
 * The words of a text (runs of letters and digits), folded, with their original positions. ASCII
 * characters are told apart by code (this runs for every hit shown, keystroke after keystroke),
 * others by their Unicode properties; each word is folded whole, in one piece.
 */
export function wordsOf(text: string): Word[] {
  const words: Word[] = [];
  let start = -1;
  for (let index = 0; index <= text.length;) {
    const code = index < text.length ? text.charCodeAt(index) : 32;
    let width = 1;
    let wordChar: boolean;
    if (code < 128) wordChar = isAsciiWordChar(code);
    else {
      const point = text.codePointAt(index)!;
      width = point > 0xffff ? 2 : 1;
      wordChar = WORD_CHAR.test(String.fromCodePoint(point));
    }
    if (wordChar) {
      if (start < 0) start = index;
    } else if (start >= 0) {
      words.push({ folded: foldText(text.slice(start, index)), start, end: index });
      start = -1;
    }
    index += width;
  }
  return words;
}

const SPLIT = /[^\p{L}\p{N}]+/u;
const ASCII_SPLIT = /[^a-z0-9]+/;

/** The folded words of a text, without positions (the fast path for building the index). */
export function foldedWords(text: string): string[] {
  const folded = foldText(text);
  const words = folded.split(ASCII.test(folded) ? ASCII_SPLIT : SPLIT);
  // Separators are matched in runs: only a leading or trailing one leaves an empty word.
  if (words[words.length - 1] === '') words.pop();
  if (words[0] === '') words.shift();
  return words;
}

/**
 * Where the first `length` folded characters of `word` end in the original text: folding can
 * change lengths ("ß" → "ss"), so a highlighted prefix is measured character by character.
 */
export function originalEnd(text: string, word: Word, length: number): number {
  if (
    word.end - word.start === word.folded.length &&
    ASCII.test(text.slice(word.start, word.end))
  ) {
    return word.start + Math.min(length, word.folded.length);
  }
  let folded = 0;
  let index = word.start;
  for (const char of text.slice(word.start, word.end)) {
    if (folded >= length) break;
    folded += foldChar(char).length;
    index += char.length;
  }
  return index;
}
