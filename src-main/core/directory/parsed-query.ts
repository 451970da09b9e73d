/**
 * What the user typed, read once per keystroke: words to match against names and companies, or
 * (when there is no letter at all) the digits of a number or speed dial, however they were
 * spaced or punctuated ("030 1234", "+1 (617) 555-01").
 */
import { foldedWords } from './text-fold';

export interface ParsedQuery {
  /** Folded words with at least one letter. */
  words: string[];
  /** All-digit words next to letter words ("anne 555"): they filter by number or speed dial. */
  digitWords: string[];
  /** The query's digits, when it holds no letters. */
  digits: string;
}

const LETTER = /\p{L}/u;

export function parseQuery(query: string): ParsedQuery {
  const all = foldedWords(query);
  const words = all.filter((word) => LETTER.test(word));
  if (words.length === 0) return { words, digitWords: [], digits: all.join('') };
  return { words, digitWords: all.filter((word) => !LETTER.test(word)), digits: '' };
}
