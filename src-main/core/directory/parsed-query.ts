/**
 * What the user typed, read once per keystroke: words to match against names and companies, or
 * (when there is no letter at all) the digits of a number or speed dial, however they were
 * spaced or punctuated ("030 1234", "+1 (617) 555-01").
 */
import type { DialingPlan } from './number-forms';
import { foldedWords } from './text-fold';

export interface ParsedQuery {
  /** Folded words with at least one letter. */
  words: string[];
  /** All-digit words next to letter words ("anne 555"): they filter by number or speed dial. */
  digitWords: string[];
  /** The query's digits, when it holds no letters. */
  digits: string;
  /**
   * `digits` as typed with "+" instead of the international call prefix they start with ("011
   * 49 30" in the US: "4930"), for each one they may (DialingPlan.abroad); matched beside them.
   */
  international: string[];
}

const LETTER = /\p{L}/u;

/** Reads `query`; its digits are read as typed in `plan`'s region (without one: as written). */
export function parseQuery(query: string, plan?: DialingPlan): ParsedQuery {
  const all = foldedWords(query);
  const words = all.filter((word) => LETTER.test(word));
  if (words.length === 0) {
    const digits = all.join('');
    return { words, digitWords: [], digits, international: plan?.abroad(digits) ?? [] };
  }
  return {
    words,
    digitWords: all.filter((word) => !LETTER.test(word)),
    digits: '',
    international: [],
  };
}
