/**
 * The distinct folded words of every name and company, sorted: a word prefix is a binary-search
 * range of them, and the words one typo away from a typed word are a handful of extra ranges,
 * found by walking the sorted words like a trie. Words are known by their rank here.
 */

export class SortedWords {
  readonly words: readonly string[];

  constructor(words: readonly string[]) {
    this.words = words;
  }

  get length(): number {
    return this.words.length;
  }

  /** The ranks of the words starting with `text`: [lo, hi). */
  prefixRange(text: string): [lo: number, hi: number] {
    const lo = this.#lowerWord(text, 0, this.words.length);
    return [lo, this.#prefixEnd(text, lo, this.words.length)];
  }

  /**
   * Adds to `ranges` (as from, to pairs) the word ranges one typo away from `term`: a deletion,
   * transposition, substitution or insertion anywhere but in the last typed character matches as
   * a word prefix (the word may go on); a typo in the last character only matches a whole word.
   * With `missingOnly`, only a missing character is tolerated.
   *
   * Every variant of a typo at position i starts with the term's first i characters, so it is
   * looked up among the words starting with them (a range that narrows as i grows), and a
   * substituted or inserted character among the words that have it there: a few steps of binary
   * search each instead of a search of every word.
   */
  typoVariants(term: string, missingOnly: boolean, ranges: number[]): void {
    const words = this.words;
    const length = term.length;
    // Words starting with head = term[0, i).
    let headLo = 0;
    let headHi = words.length;
    for (let i = 0; i < length && headLo < headHi; i++) {
      const head = term.slice(0, i);
      const last = i === length - 1;
      const rest = term.slice(i);
      const after = term.slice(i + 1);
      if (!missingOnly) {
        // Deletion of term[i] (the user typed an extra character).
        if (last) this.#addWhole(head, headLo, headHi, ranges);
        else this.#addPrefix(head + after, headLo, headHi, ranges);
        // Transposition of term[i] and term[i + 1].
        if (i + 1 < length) {
          const swapped = head + term[i + 1]! + term[i]! + term.slice(i + 2);
          if (i + 1 === length - 1) this.#addWhole(swapped, headLo, headHi, ranges);
          else this.#addPrefix(swapped, headLo, headHi, ranges);
        }
      }
      // Substitution of term[i], insertion before term[i]: only characters that occur there.
      let at = headLo;
      if (words[at]!.length === i) at++; // the word equal to head
      while (at < headHi) {
        const code = words[at]!.charCodeAt(i);
        const end = this.#charEnd(i, code, at, headHi);
        const char = words[at]![i]!;
        if (!missingOnly && char !== term[i]) {
          if (last) this.#addWhole(head + char + after, at, end, ranges);
          else this.#addPrefix(head + char + after, at, end, ranges);
        }
        this.#addPrefix(head + char + rest, at, end, ranges);
        at = end;
      }
      // Narrow to the words starting with term[0, i + 1).
      const next = term.slice(0, i + 1);
      headLo = this.#lowerWord(next, headLo, headHi);
      headHi = this.#prefixEnd(next, headLo, headHi);
    }
  }

  /** Adds the range of words in [from, to) that start with `text`, when there are any. */
  #addPrefix(text: string, from: number, to: number, ranges: number[]): void {
    const a = this.#lowerWord(text, from, to);
    const b = this.#prefixEnd(text, a, to);
    if (a < b) ranges.push(a, b);
  }

  /** Adds the word `text`, when it is one of the words in [from, to). */
  #addWhole(text: string, from: number, to: number, ranges: number[]): void {
    const at = this.#lowerWord(text, from, to);
    if (at < to && this.words[at] === text) ranges.push(at, at + 1);
  }

  /**
   * In [from, to), words sharing their first `position` characters and having at least one more,
   * the end of the run whose next character is `code` (the run starts at `from`).
   */
  #charEnd(position: number, code: number, from: number, to: number): number {
    const words = this.words;
    let lo = from;
    let hi = to;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (words[mid]!.charCodeAt(position) <= code) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /** The first word in [from, to) not below `text`. */
  #lowerWord(text: string, from: number, to: number): number {
    const words = this.words;
    let lo = from;
    let hi = to;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (words[mid]! < text) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /** In [from, to), all words not below `text`: the first one that does not start with it. */
  #prefixEnd(text: string, from: number, to: number): number {
    const words = this.words;
    let lo = from;
    let hi = to;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (words[mid]!.startsWith(text)) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }
}
