/**
 * The words of every contact, read once for the contact index: each distinct word (names and
 * companies, folded by text-fold.ts) sorted (sorted-words.ts), and each contact's words as their
 * ranks there, name words first. Ranking the contacts needs the ranks, and the word postings
 * (word-postings.ts) need the ranking. Read gradually, so a big directory never blocks for long.
 */
import type { DirectoryContact } from '../../../src-shared/contract';
import { SortedWords } from './sorted-words';
import { WordFolder } from './text-fold';

/** The contacts of a gradual build's first slice (the next ones double up to the slice asked). */
const FIRST_SLICE = 100;

/**
 * The words of every contact (name words first, then company words), read in the order given:
 * the sorted words, and each contact's words as ranks. Ranking contacts needs the ranks, and
 * the postings need the ranking.
 */
export class ContactWords {
  readonly sorted: SortedWords;
  /** Contact i's words are ranks rankOfId[ids[wordStart[i]…[i + 1]]]. */
  readonly ids: Int32Array;
  readonly wordStart: Int32Array;
  readonly rankOfId: Int32Array;
  /** How many of contact i's words are its name's (at most 255). */
  readonly nameLengths: Uint8Array;

  /** Sorts the words read. */
  private constructor(reader: WordReader) {
    this.ids = reader.ids.subarray(0, reader.count);
    this.wordStart = reader.wordStart;
    this.nameLengths = reader.nameLengths;
    const distinct = reader.folder.words;
    const wordOrder = Int32Array.from(distinct.keys()).sort((a, b) =>
      distinct[a]! < distinct[b]! ? -1 : 1,
    );
    this.rankOfId = new Int32Array(wordOrder.length);
    wordOrder.forEach((id, rank) => (this.rankOfId[id] = rank));
    this.sorted = new SortedWords(Array.from(wordOrder, (id) => distinct[id]!));
  }

  /** Reads the contacts' words, yielding after every `slice` contacts. */
  static *read(
    contacts: readonly DirectoryContact[],
    slice: number,
  ): Generator<void, ContactWords> {
    const reader = new WordReader(contacts);
    // The first slices run before V8 has compiled the reading: they start small and double.
    let step = slice < contacts.length ? Math.min(slice, FIRST_SLICE) : slice;
    for (let from = 0; from < contacts.length;) {
      const to = Math.min(contacts.length, from + step);
      reader.read(from, to);
      from = to;
      step = Math.min(slice, step * 2);
      if (from < contacts.length) yield;
    }
    return new ContactWords(reader);
  }

  /** Every contact's k-th name word as its rank + 1 (0 when its name has fewer words). */
  nameWords(k: number, into: Int32Array): void {
    const { ids, wordStart, rankOfId, nameLengths } = this;
    for (let i = 0; i < nameLengths.length; i++) {
      into[i] = k < nameLengths[i]! ? rankOfId[ids[wordStart[i]! + k]!]! + 1 : 0;
    }
  }
}

/** Reads the words of the contacts, contact by contact (see ContactWords). */
class WordReader {
  readonly folder = new WordFolder();
  ids: Int32Array;
  count = 0;
  readonly wordStart: Int32Array;
  readonly nameLengths: Uint8Array;
  readonly #contacts: readonly DirectoryContact[];
  /** Companies repeat: their words are read once. */
  readonly #companyWords = new Map<string, Int32Array>();

  constructor(contacts: readonly DirectoryContact[]) {
    const size = contacts.length;
    this.#contacts = contacts;
    this.ids = new Int32Array(size * 6);
    this.wordStart = new Int32Array(size + 1);
    this.nameLengths = new Uint8Array(size);
  }

  /** Reads contacts [from, to). */
  read(from: number, to: number): void {
    const folder = this.folder;
    for (let i = from; i < to; i++) {
      const contact = this.#contacts[i]!;
      const nameLength = folder.read(contact.display_name);
      this.#push(folder.ids, nameLength);
      this.nameLengths[i] = Math.min(nameLength, 255);
      let company = this.#companyWords.get(contact.company);
      if (!company) {
        company = folder.ids.slice(0, folder.read(contact.company));
        this.#companyWords.set(contact.company, company);
      }
      this.#push(company, company.length);
      this.wordStart[i + 1] = this.count;
    }
  }

  #push(ids: Int32Array, length: number): void {
    if (this.count + length > this.ids.length) {
      const grown = new Int32Array((this.count + length) * 2);
      grown.set(this.ids);
      this.ids = grown;
    }
    for (let k = 0; k < length; k++) this.ids[this.count++] = ids[k]!;
  }
}
