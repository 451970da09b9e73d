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
 * typo could match. A call logged by number alone boosts the contact the index's lookup names for
 * it: the scan names it by an index of the contacts whose numbers end the same way (all of them,
 * so it picks the one the whole index would), once per call history and only when a contact the
 * query keeps has a number of that ending (no other can be named), and gives the subsets' indexes
 * that history by contact, so they need no numbers and no contact the query does not match.
 *
 * What it reads of every contact are search-texts' tables (folded names and companies, digit
 * texts), each tested by one walk over its bytes (text-table); a cache read at start gives them
 * as stored, so a start's first query folds nothing, and only the contacts a query keeps are made
 * (contact-list).
 */
import { Buffer } from 'node:buffer';
import type { DirectoryContact, SearchHit } from '../../../src-shared/contract';
import type { PartyCalls } from './call-affinity';
import { ContactIndex, type ContactIndexOptions } from './contact-index';
import { ContactList } from './contact-list';
import { DialingPlan } from './number-forms';
import { parseQuery, type ParsedQuery } from './parsed-query';
import { contactsKeyed, endingKey, keysOf, NumberEndings } from './number-endings';
import { foldedWordsOf, numberTextsOf, searchTextsStamp, type SearchTexts } from './search-texts';
import {
  entriesHolding,
  entriesWithWordStarting,
  firstWordStarts,
  type TextTable,
} from './text-table';

/** Above this share of all contacts kept, ranking them costs about what the whole index does. */
const MOST_CONTACTS = 1 / 3;
/** Typed words shorter than this never match with a typo (word-postings' shortest). */
const TYPO_MIN_LENGTH = 3;

type FoldedWords = Pick<SearchTexts, 'names' | 'companies' | 'companyOf'>;

export class ContactScan {
  readonly #contacts: ContactList;
  readonly #options: ContactIndexOptions;
  readonly #plan: DialingPlan;
  #history: { parties: readonly PartyCalls[]; now: number } | undefined;
  /**
   * The contact's id each number of #history's parties known by number alone was named (null:
   * nobody), for those named so far (#historyFor).
   */
  #named = new Map<string, number | null>();
  /** The ending key of each number of #history's parties known by number alone (#historyFor). */
  #keys: Map<string, number> | undefined;
  /** The contacts' folded names and companies (given, or made on the first query). */
  #words: FoldedWords | undefined;
  /** Each contact's numbers as digit texts (index's forms), " "-joined (idem). */
  #numbers: TextTable | undefined;
  /** The contacts (in order) by the last 7 digits of each of their numbers (on first use). */
  #endings: NumberEndings | undefined;
  /** Whether it reads the search texts it was given (not texts of its own). */
  readonly readsGivenTexts: boolean;

  /**
   * `texts`: the contacts' search texts as stored (directory-cache), read when they were made as
   * this process makes them for `options.region` (their stamp says so); else it makes its own.
   */
  constructor(
    contacts: ContactList | readonly DirectoryContact[],
    options: ContactIndexOptions,
    texts?: SearchTexts,
  ) {
    this.#contacts = contacts instanceof ContactList ? contacts : ContactList.of(contacts);
    this.#options = options;
    this.#plan = new DialingPlan(options.region);
    this.readsGivenTexts =
      texts !== undefined &&
      texts.names.ends.length === this.#contacts.length &&
      texts.stamp === searchTextsStamp(this.#plan);
    if (this.readsGivenTexts) {
      this.#words = texts;
      this.#numbers = texts!.numbers;
    }
  }

  /** The user's calls per party, as ContactIndex.setCallHistory takes them. */
  setCallHistory(parties: readonly PartyCalls[], now: number): void {
    this.#history = parties.length > 0 ? { parties, now } : undefined;
    this.#named = new Map();
    this.#keys = undefined;
  }

  /**
   * The index's hits for `query`, or undefined when most contacts could match it (the index of
   * all of them answers that sooner).
   */
  search(query: string, limit = 50): SearchHit[] | undefined {
    const parsed = parseQuery(query, this.#plan);
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
    // Words alone: the kept contacts' numbers are not read (the calls are named by contact).
    const forWords = parsed.digitWords.length === 0;
    const words = this.#indexOf(
      this.#hasWords(parsed, false),
      startsName && { limit, startsName },
      forWords,
    );
    if (!words) return undefined;
    const typos = this.#needsTypos(words, parsed, limit);
    if (!typos && parsed.digitWords.length === 0) return words.search(query, limit);
    const test = this.#hasWords(parsed, typos);
    const numbers = parsed.digitWords.map((digits) => this.#holdsDigitWord(digits));
    return this.#indexOf(
      (i) => test(i) && numbers.every((holds) => holds(i)),
      undefined,
      forWords,
    )?.search(query, limit);
  }

  /**
   * Caller identification as the index does it (numbers/number-match.ts's rule, among the
   * contacts whose numbers end in the same 7 digits): the index of those contacts answers.
   */
  lookupByNumber(number: string): DirectoryContact | undefined {
    const kept = this.#endingsOf()
      .contacts(this.#plan.forms(number).text)
      .map((i) => this.#contacts.at(i));
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
    return index.ranksFewOrFuzzy(parseQuery(parsed.words.join(' ')), limit);
  }

  /**
   * The index of the contacts `keep` says yes to (undefined: most contacts). With `narrower`: of
   * those whose name starts with the word alone, when they are `limit` or more (the others
   * cannot make the page). Only the contacts chosen are made. `forWords`: an index for word
   * queries alone (buildForWords).
   */
  #indexOf(
    keep: (contact: number) => boolean,
    narrower?: { limit: number; startsName: (contact: number) => boolean },
    forWords = false,
  ): ContactIndex | undefined {
    const kept: number[] = [];
    const narrow: number[] = [];
    const count = this.#contacts.length;
    const most = count * MOST_CONTACTS;
    for (let i = 0; i < count; i++) {
      if (!keep(i)) continue;
      kept.push(i);
      if (narrower?.startsName(i)) narrow.push(i);
    }
    const chosen = narrower && narrow.length >= narrower.limit ? narrow : kept;
    if (chosen.length > most) return undefined;
    const made = chosen.map((i) => this.#contacts.at(i));
    const index = forWords
      ? ContactIndex.buildForWords(made, this.#options)
      : ContactIndex.build(made, this.#options);
    const history = this.#historyFor(chosen);
    if (history) index.setCallHistory(history.parties, history.now);
    return index;
  }

  /**
   * The call history for an index of the contacts `kept`, with each party known by number alone
   * named by the contact's id the whole index's lookup gives it (numbers/number-match.ts's rule,
   * among every contact with a number of the same ending: an index of those alone ranks and picks
   * them as the whole would), and left out when that is nobody (the index credits nobody) or when
   * no kept contact has a number of its ending (none of them can be named). Each number is named
   * once per history.
   */
  #historyFor(
    kept: readonly number[],
  ): { parties: readonly PartyCalls[]; now: number } | undefined {
    const history = this.#history;
    if (!history?.parties.some((party) => party.contact_id === undefined)) return history;
    const numbers = this.#numberTexts();
    const keptKeys = keysOf(numbers, kept);
    this.#keys ??= new Map(
      history.parties.flatMap((party) => {
        const text = party.contact_id === undefined ? this.#plan.forms(party.number).text : '';
        return text === '' ? [] : [[party.number, endingKey(text)] as const];
      }),
    );
    const unnamed = [...this.#keys].filter(
      ([number, key]) => keptKeys.has(key) && !this.#named.has(number),
    );
    if (unnamed.length > 0) {
      const sharing = ContactIndex.build(
        contactsKeyed(numbers, new Set(unnamed.map(([, key]) => key))).map((i) =>
          this.#contacts.at(i),
        ),
        this.#options,
      );
      for (const [number] of unnamed) {
        this.#named.set(number, sharing.lookupByNumber(number)?.id ?? null);
      }
    }
    const parties = history.parties.flatMap((party) => {
      if (party.contact_id !== undefined) return [party];
      const id = this.#named.get(party.number);
      return id === undefined || id === null ? [] : [{ ...party, contact_id: id }];
    });
    return { parties, now: history.now };
  }

  /**
   * A test no contact the index matches for the words of `parsed` fails: every word starts one
   * of the contact's words; with `typos`, for each word of 3+ characters, its first half starts
   * a word or its second half is inside one (a typo at position i leaves the first i characters
   * starting a word and the characters from i + 2 on inside it).
   */
  #hasWords(parsed: ParsedQuery, typos: boolean): (contact: number) => boolean {
    const { names, companies, companyOf } = this.#foldedWords();
    const passes = new Uint8Array(this.#contacts.length).fill(1);
    for (const word of parsed.words) {
      const marks = (table: TextTable): Uint8Array => {
        if (!typos || word.length < TYPO_MIN_LENGTH) return entriesWithWordStarting(table, word);
        const half = (word.length - 1) >> 1;
        const inside = entriesHolding(table, word.slice(half + 1));
        const starts = entriesWithWordStarting(table, word.slice(0, half));
        for (let e = 0; e < inside.length; e++) inside[e]! |= starts[e]!;
        return inside;
      };
      const byName = marks(names);
      const byCompany = marks(companies);
      for (let i = 0; i < passes.length; i++) passes[i]! &= byName[i]! | byCompany[companyOf[i]!]!;
    }
    return (contact) => passes[contact] === 1;
  }

  /**
   * A test no contact the index matches for the digits of `parsed` fails: they (or they as
   * typed with "+" for an international call prefix) are inside one of its numbers, or from the
   * second digit on (typed with a trunk prefix), or in international form, or start its speed
   * dial.
   */
  #holdsDigits(parsed: ParsedQuery): (contact: number) => boolean {
    const numbers = this.#numberTexts();
    const typed = [parsed.digits, ...parsed.international];
    const holds = new Uint8Array(this.#contacts.length);
    for (const digits of typed) {
      for (const part of [
        digits.length > 1 ? digits.slice(1) : digits,
        this.#plan.forms(digits).text,
      ]) {
        if (part === '') continue;
        const marks = entriesHolding(numbers, part);
        for (let i = 0; i < holds.length; i++) holds[i]! |= marks[i]!;
      }
    }
    return (contact) =>
      holds[contact] === 1 || typed.some((digits) => this.#speedDialStarts(contact, digits));
  }

  /**
   * Exactly the index's filter by a word of digits next to letter words: one of the contact's
   * numbers holds them, or its speed dial starts with them. (Exact, not merely wide: the index
   * stops at a page of word matches before filtering them, so every contact kept must pass.)
   */
  #holdsDigitWord(digits: string): (contact: number) => boolean {
    const holds = entriesHolding(this.#numberTexts(), digits);
    return (contact) => holds[contact] === 1 || this.#speedDialStarts(contact, digits);
  }

  #speedDialStarts(contact: number, digits: string): boolean {
    const speedDial = this.#contacts.speedDial(contact);
    return speedDial !== null && String(speedDial).startsWith(digits);
  }

  /** Whether the first word of the contact's name starts with `word`. */
  #startsName(word: string): (contact: number) => boolean {
    const { names } = this.#foldedWords();
    const part = Buffer.from(word, 'utf8');
    return (contact) => firstWordStarts(names, contact, part);
  }

  /** Contacts by the last 7 digits of their numbers, made once (hundreds of lookups at start). */
  #endingsOf(): NumberEndings {
    this.#endings ??= NumberEndings.of(this.#numberTexts());
    return this.#endings;
  }

  #foldedWords(): FoldedWords {
    this.#words ??= foldedWordsOf(this.#contacts.all());
    return this.#words;
  }

  #numberTexts(): TextTable {
    this.#numbers ??= numberTextsOf(this.#contacts.all(), this.#plan);
    return this.#numbers;
  }
}

const SURROGATE = /[\uD800-\uDFFF]/;
