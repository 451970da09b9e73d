/**
 * Search before the contact index is built: a linear scan over the contacts keeps those a query
 * could match (a cheap test that never leaves out a hit of the index: #hasWords, #holdsDigits), and a
 * contact index of those alone ranks them. The index's own matching and ranking decide every
 * hit, so the scan answers exactly as the index over all contacts would (a test compares them),
 * while the index of all contacts is built in slices between requests (the directory switches
 * to it once it is ready). A query few contacts could match costs one pass over the contacts'
 * folded names (folded once, on the first query) and the index of a few; one most contacts
 * could match ("a", "1") is left to the index (`search` says so by answering undefined).
 *
 * Why a subset ranks as the whole does: a hit's tier depends on the contact and the query alone
 * (its words and numbers, a typo judged word by word), and the ranking order of a subset is the
 * whole's order restricted to it (phonebook priority, name words, id). The index searches for
 * typos only when fewer than `limit` contacts match without one: the scan keeps every contact
 * that matches without a typo, so it can tell (`needsTypos`), and then keeps every contact one
 * typo could match. A call logged by number boosts the contact whose number ends the same way:
 * every contact sharing those last 7 digits is kept, so the subset's index picks the same one.
 */
import type { DirectoryContact, SearchHit } from '../../../src-shared/contract';
import type { PartyCalls } from './call-affinity';
import { ContactIndex, type ContactIndexOptions } from './contact-index';
import { DialingPlan } from './number-forms';
import { parseQuery, type ParsedQuery } from './parsed-query';
import { foldText } from './text-fold';

/** Above this share of all contacts kept, ranking them costs about what the whole index does. */
const MOST_CONTACTS = 1 / 3;
/** Typed words shorter than this never match with a typo (word-postings' shortest). */
const TYPO_MIN_LENGTH = 3;
/** The ending a call's number and a contact's number share to identify it (caller-suffixes'). */
const ENDING_DIGITS = 7;

export class ContactScan {
  readonly #contacts: readonly DirectoryContact[];
  readonly #options: ContactIndexOptions;
  readonly #plan: DialingPlan;
  #history: { parties: readonly PartyCalls[]; now: number } | undefined;
  /** Each contact's name and company, folded, on two lines (read on the first query). */
  #texts: string[] | undefined;
  /** Each contact's numbers as digit texts (index's forms), " "-joined. */
  #numbers: string[] | undefined;
  /** The contacts (in order) by the last 7 digits of each of their numbers (on first use). */
  #endings: Map<string, number[]> | undefined;

  constructor(contacts: readonly DirectoryContact[], options: ContactIndexOptions) {
    this.#contacts = contacts;
    this.#options = options;
    this.#plan = new DialingPlan(options.region);
  }

  /** The user's calls per party, as ContactIndex.setCallHistory takes them. */
  setCallHistory(parties: readonly PartyCalls[], now: number): void {
    this.#history = parties.length > 0 ? { parties, now } : undefined;
  }

  /**
   * The index's hits for `query`, or undefined when most contacts could match it (the index of
   * all of them answers that sooner).
   */
  search(query: string, limit = 50): SearchHit[] | undefined {
    const parsed = parseQuery(query);
    if (parsed.words.length === 0 && parsed.digits === '') return [];
    if (parsed.words.length === 0)
      return this.#indexOf(this.#holdsDigits(parsed))?.search(query, limit);
    // One word alone: when `limit` names start with it, those are the page's candidates (a name
    // starting with the query ranks before any other match of it).
    const [word] = parsed.words;
    const startsName =
      parsed.words.length === 1 && parsed.digitWords.length === 0 && !SURROGATE.test(word!)
        ? this.#startsName(word!)
        : undefined;
    const words = this.#indexOf(this.#hasWords(parsed, false), startsName && { limit, startsName });
    if (!words) return undefined;
    const typos = this.#needsTypos(words, parsed, limit);
    if (!typos && parsed.digitWords.length === 0) return words.search(query, limit);
    const test = this.#hasWords(parsed, typos);
    const numbers = parsed.digitWords.map((digits) => this.#holdsDigitWord(digits));
    return this.#indexOf((i) => test(i) && numbers.every((holds) => holds(i)))?.search(
      query,
      limit,
    );
  }

  /**
   * Caller identification as the index does it (numbers/number-match.ts's rule, among the
   * contacts whose numbers end in the same 7 digits): the index of those contacts answers.
   */
  lookupByNumber(number: string): DirectoryContact | undefined {
    const text = this.#plan.forms(number).text;
    if (text.length < ENDING_DIGITS) return undefined;
    const kept = (this.#byEnding().get(text.slice(-ENDING_DIGITS)) ?? []).map(
      (i) => this.#contacts[i]!,
    );
    return kept.length === 0
      ? undefined
      : ContactIndex.build(kept, this.#options).lookupByNumber(number);
  }

  /**
   * Whether the index searches `parsed` with typos: fewer than `limit` contacts match its words
   * without one (`index` holds every contact that does).
   */
  #needsTypos(index: ContactIndex, parsed: ParsedQuery, limit: number): boolean {
    if (!parsed.words.some((word) => word.length >= TYPO_MIN_LENGTH)) return false;
    const hits = index.search(parsed.words.join(' '), limit);
    return hits.length < limit || hits.some((hit) => hit.match === 'fuzzy');
  }

  /**
   * The index of the contacts `keep` says yes to (undefined: most contacts). With `narrower`: of
   * those whose name starts with the word alone, when they are `limit` or more (the others
   * cannot make the page). Contacts a call logged by number may name are always in.
   */
  #indexOf(
    keep: (contact: number) => boolean,
    narrower?: { limit: number; startsName: (contact: number) => boolean },
  ): ContactIndex | undefined {
    const boosted = this.#boostedContacts();
    const kept: DirectoryContact[] = [];
    const narrow: DirectoryContact[] = [];
    let namesStarting = 0;
    const most = this.#contacts.length * MOST_CONTACTS;
    for (let i = 0; i < this.#contacts.length; i++) {
      const called = boosted?.has(i) ?? false;
      const matches = keep(i);
      if (!called && !matches) continue;
      const contact = this.#contacts[i]!;
      kept.push(contact);
      const startsName = matches && narrower !== undefined && narrower.startsName(i);
      if (startsName) namesStarting++;
      if (called || startsName) narrow.push(contact);
    }
    const chosen = narrower && namesStarting >= narrower.limit ? narrow : kept;
    if (chosen.length > most) return undefined;
    const index = ContactIndex.build(chosen, this.#options);
    if (this.#history) index.setCallHistory(this.#history.parties, this.#history.now);
    return index;
  }

  /**
   * A test no contact the index matches for the words of `parsed` fails: every word starts one
   * of the contact's words; with `typos`, for each word of 3+ characters, its first half starts
   * a word or its second half is inside one (a typo at position i leaves the first i characters
   * starting a word and the characters from i + 2 on inside it).
   */
  #hasWords(parsed: ParsedQuery, typos: boolean): (contact: number) => boolean {
    const texts = this.#foldedTexts();
    const tests = parsed.words.map((word): ((text: string) => boolean) => {
      if (!typos || word.length < TYPO_MIN_LENGTH) return (text) => startsWord(text, word);
      const half = (word.length - 1) >> 1;
      const [head, tail] = [word.slice(0, half), word.slice(half + 1)];
      return (text) => text.includes(tail) || startsWord(text, head);
    });
    return (contact) => tests.every((test) => test(texts[contact]!));
  }

  /**
   * A test no contact the index matches for the digits of `parsed` fails: they are inside one of
   * its numbers, or from the second digit on (typed with a trunk prefix), or in international
   * form, or start its speed dial.
   */
  #holdsDigits(parsed: ParsedQuery): (contact: number) => boolean {
    const numbers = this.#numberTexts();
    const digits = parsed.digits;
    const inside = [digits.length > 1 ? digits.slice(1) : digits, this.#plan.forms(digits).text];
    return (contact) =>
      inside.some((part) => part !== '' && numbers[contact]!.includes(part)) ||
      this.#speedDialStarts(contact, digits);
  }

  /**
   * Exactly the index's filter by a word of digits next to letter words: one of the contact's
   * numbers holds them, or its speed dial starts with them. (Exact, not merely wide: the index
   * stops at a page of word matches before filtering them, so every contact kept must pass.)
   */
  #holdsDigitWord(digits: string): (contact: number) => boolean {
    const numbers = this.#numberTexts();
    return (contact) =>
      numbers[contact]!.includes(digits) || this.#speedDialStarts(contact, digits);
  }

  #speedDialStarts(contact: number, digits: string): boolean {
    const speedDial = this.#contacts[contact]!.speed_dial;
    return speedDial !== null && String(speedDial).startsWith(digits);
  }

  /** Whether the first word of the contact's name starts with `word`. */
  #startsName(word: string): (contact: number) => boolean {
    const texts = this.#foldedTexts();
    return (contact) => {
      const text = texts[contact]!;
      for (let at = 0; at < text.length; at++) {
        const code = text.charCodeAt(at);
        if (code === NEW_LINE) return false;
        if (isWordChar(text, at)) return text.startsWith(word, at);
      }
      return false;
    };
  }

  /** The last 7 digits of the numbers of calls not identified as a contact (or undefined). */
  #boostedContacts(): Set<number> | undefined {
    const contacts = new Set<number>();
    for (const party of this.#history?.parties ?? []) {
      if (party.contact_id !== undefined) continue;
      const text = this.#plan.forms(party.number).text;
      if (text.length < ENDING_DIGITS) continue;
      for (const i of this.#byEnding().get(text.slice(-ENDING_DIGITS)) ?? []) contacts.add(i);
    }
    return contacts.size > 0 ? contacts : undefined;
  }

  /**
   * Contacts by the last 7 digits of their numbers, made once: a call log of hundreds of
   * numbers looked up at start is hundreds of map reads, not hundreds of passes over them all.
   */
  #byEnding(): Map<string, number[]> {
    if (this.#endings) return this.#endings;
    const endings = new Map<string, number[]>();
    const texts = this.#numberTexts();
    for (let i = 0; i < texts.length; i++) {
      for (const text of texts[i]!.split(' ')) {
        if (text.length < ENDING_DIGITS) continue;
        const ending = text.slice(-ENDING_DIGITS);
        const contacts = endings.get(ending);
        if (!contacts) endings.set(ending, [i]);
        else if (contacts.at(-1) !== i) contacts.push(i);
      }
    }
    this.#endings = endings;
    return endings;
  }

  #foldedTexts(): string[] {
    if (this.#texts) return this.#texts;
    // Companies repeat: each is folded once.
    const companies = new Map<string, string>();
    this.#texts = this.#contacts.map((contact) => {
      let company = companies.get(contact.company);
      if (company === undefined) {
        company = foldText(contact.company);
        companies.set(contact.company, company);
      }
      // No line break in a folded name: it separates the name from the company.
      return `${foldText(contact.display_name).replaceAll('\n', ' ')}\n${company}`;
    });
    return this.#texts;
  }

  #numberTexts(): string[] {
    this.#numbers ??= this.#contacts.map((contact) =>
      [contact.number, contact.secondary_number ?? '']
        .filter((number) => number !== '')
        .map((number) => this.#plan.forms(number).text)
        .join(' '),
    );
    return this.#numbers;
  }
}

const WORD_CHAR = /[\p{L}\p{N}]/u;

/**
 * Whether a word of folded `text` starts with `part` (a word is a run of letters and digits, as
 * text-fold reads them; a character it cannot tell counts as a separator, which only keeps more).
 */
function startsWord(text: string, part: string): boolean {
  for (let at = text.indexOf(part); at >= 0; at = text.indexOf(part, at + 1)) {
    if (at === 0 || !isWordChar(text, at - 1)) return true;
  }
  return false;
}

const NEW_LINE = 10;
const SURROGATE = /[\uD800-\uDFFF]/;

/** Whether text[at] is a letter or digit (a surrogate counts as a separator). */
function isWordChar(text: string, at: number): boolean {
  const code = text.charCodeAt(at);
  return code < 128
    ? (code >= 48 && code <= 57) || (code >= 97 && code <= 122) || (code >= 65 && code <= 90)
    : WORD_CHAR.test(text[at]!);
}
