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

/** Greek capital sigma: the one letter whose lower case depends on the letters around it. */
const CAPITAL_SIGMA = 0x3a3;
/** A BMP character's class, once asked for: 0 unknown, then WORD or SEPARATOR. */
const WORD = 1;
const SEPARATOR = 2;
const bmpClass = new Uint8Array(0x10000);

/** Whether the character at `index` (a code point of `width` units) is a letter or digit. */
function isWordPoint(point: number): boolean {
  if (point < 128) return isAsciiWordChar(point);
  if (point > 0xffff) return WORD_CHAR.test(String.fromCodePoint(point));
  let known = bmpClass[point]!;
  if (known === 0) {
    known = WORD_CHAR.test(String.fromCharCode(point)) ? WORD : SEPARATOR;
    bmpClass[point] = known;
  }
  return known === WORD;
}

/**
 * The folded words of many texts (what the index reads from 100,000 names), each distinct folded
 * word known by an id, in the order first met: `foldedWords` of every text, without its strings.
 * A text's words are found by scanning its characters; a word met before as written is found by
 * its hash, so it is folded once and no string is made for it again. Folding a text word by word
 * gives the words of folding it whole, as folding works character by character (combining marks,
 * which folding removes, belong to the word around them), but for the capital sigma (its lower
 * case depends on the next letter, maybe across a separator): a text with one is folded whole.
 */
export class WordFolder {
  /** The folded words by id. */
  readonly words: string[] = [];
  /** The ids of the last text's words (its first `read` ones). */
  ids = new Int32Array(16);
  readonly #idOf = new Map<string, number>();
  /** The written words met: hash table slots (entry + 1, 0 empty). */
  #slots = new Int32Array(1024);
  #written: string[] = [];
  /** Entry e's folded words: #foldedIds[#foldedStart[e]…[e + 1]]. */
  #foldedStart: number[] = [0];
  #foldedIds: number[] = [];

  /** Reads the words of `text`: their ids are `ids[0…count)`; returns the count. */
  read(text: string): number {
    let count = 0;
    let start = -1;
    let hash = 0;
    for (let index = 0; index <= text.length;) {
      let code = index < text.length ? text.charCodeAt(index) : 32;
      let width = 1;
      if (code >= 0xd800 && code <= 0xdbff && index + 1 < text.length) {
        const point = text.codePointAt(index)!;
        if (point > 0xffff) {
          code = point;
          width = 2;
        }
      }
      if (code === CAPITAL_SIGMA) return this.#readWhole(text);
      if (code >= 0x300 && code <= 0x36f) {
        // A combining mark: folding removes it, so it neither ends nor starts a word.
        if (start >= 0) hash = Math.imul(hash ^ code, 0x01000193);
      } else if (isWordPoint(code)) {
        if (start < 0) {
          start = index;
          hash = 0x811c9dc5;
        }
        hash = Math.imul(hash ^ code, 0x01000193);
      } else if (start >= 0) {
        count = this.#add(this.#entry(text, start, index, hash), count);
        start = -1;
      }
      index += width;
    }
    return count;
  }

  /** A text with a capital sigma: folded whole. */
  #readWhole(text: string): number {
    const words = foldedWords(text);
    this.#room(words.length);
    words.forEach((word, i) => (this.ids[i] = this.#id(word)));
    return words.length;
  }

  /** Adds entry e's folded words to the ids from `count`; returns the new count. */
  #add(entry: number, count: number): number {
    const from = this.#foldedStart[entry]!;
    const to = this.#foldedStart[entry + 1]!;
    this.#room(count + to - from);
    for (let i = from; i < to; i++) this.ids[count++] = this.#foldedIds[i]!;
    return count;
  }

  #room(count: number): void {
    if (count <= this.ids.length) return;
    const grown = new Int32Array(count * 2);
    grown.set(this.ids);
    this.ids = grown;
  }

  #id(word: string): number {
    let id = this.#idOf.get(word);
    if (id === undefined) {
      id = this.words.length;
      this.words.push(word);
      this.#idOf.set(word, id);
    }
    return id;
  }

  /** The entry of the written word text[start, end), added when new. */
  #entry(text: string, start: number, end: number, hash: number): number {
    const mask = this.#slots.length - 1;
    for (let slot = hash & mask; ; slot = (slot + 1) & mask) {
      const entry = this.#slots[slot]! - 1;
      if (entry < 0) break;
      const written = this.#written[entry]!;
      if (written.length === end - start && text.startsWith(written, start)) return entry;
    }
    const entry = this.#written.length;
    const written = text.slice(start, end);
    this.#written.push(written);
    for (const word of foldedWords(written)) this.#foldedIds.push(this.#id(word));
    this.#foldedStart.push(this.#foldedIds.length);
    this.#slots[this.#freeSlot(hash)] = entry + 1;
    // Kept at most half full; grown, the entries are placed again by their hashes.
    if (this.#written.length * 2 > this.#slots.length) {
      this.#slots = new Int32Array(this.#slots.length * 2);
      this.#written.forEach((word, e) => (this.#slots[this.#freeSlot(hashOf(word))] = e + 1));
    }
    return entry;
  }

  #freeSlot(hash: number): number {
    const mask = this.#slots.length - 1;
    let slot = hash & mask;
    while (this.#slots[slot] !== 0) slot = (slot + 1) & mask;
    return slot;
  }
}

/** A written word's hash, as WordFolder.read makes it while scanning. */
function hashOf(word: string): number {
  let hash = 0x811c9dc5;
  for (const char of word) hash = Math.imul(hash ^ char.codePointAt(0)!, 0x01000193);
  return hash;
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
