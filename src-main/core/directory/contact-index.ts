/**
 * The local contact index: answers every keystroke of the search box from memory, in well under a
 * millisecond at 100,000 contacts, and identifies callers by number. It is four structures built
 * side by side from the same contacts, each in its own module:
 *
 * - word-postings: names and companies (sorted words, postings in ranking order, one typo);
 * - digit-grams: number fragments (3-digit-gram postings, short lists for 1–2 digits), over the
 *   numbers' digit texts (number-table);
 * - caller-suffixes: the last 7 digits of every number: a caller's candidates (the matching rule
 *   itself is numbers/number-match.ts's) and whole numbers;
 * - speed-dials: codes sorted by value.
 *
 * Hits rank by match quality first (ranked-candidates' tiers: an exact speed dial, the name
 * starting with the query, a word of the name, the company, a number fragment), then by the
 * user's own calls (call-affinity: given with setCallHistory, never read from the log here), then
 * by phonebook priority and A–Z. Contacts are numbered in that last order (ranking-order), so the
 * best hits of a tier are its few boosted contacts, then its smallest numbers: every walk goes in
 * that order and stops once later contacts cannot make the page. A query allocates little (a few
 * small arrays), so keystrokes seldom meet a garbage collection.
 *
 * The contacts of an index never change: a change (sync, or a contact written through Callbar)
 * builds a new one, which takes a few milliseconds at a tenant's size. Only the call history it
 * ranks by is replaced in place (setCallHistory).
 *
 * A build reads every contact's strings once, in the contacts' order in memory, into typed arrays
 * (numbers as character codes, words as ids of words folded once), so it makes almost no garbage;
 * buildGradually runs it in slices of about a thousand contacts, so a caller can answer requests
 * between them (at start, the 100,000-contact build runs cold, before V8 has optimised it).
 */
import type { DirectoryContact, SearchHit, ShownNumbers } from '../../../src-shared/contract';
import { frecency, type PartyCalls } from './call-affinity';
import { CallerSuffixes } from './caller-suffixes';
import { DigitGrams } from './digit-grams';
import { whoseNumber } from '../numbers/number-match';
import { NumberDisplay } from '../numbers/number-format';
import { DialingPlan } from './number-forms';
import { shownHit, shownNumbersOf } from './shown-hit';
import { NumberTable } from './number-table';
import { parseQuery, type ParsedQuery } from './parsed-query';
import { MATCH_NAMES, RankedCandidates } from './ranked-candidates';
import { rankingOrder, type PriorityOf } from './ranking-order';
import { SpeedDials } from './speed-dials';
import { ContactWords } from './contact-words';
import { WordPostings } from './word-postings';

export interface ContactIndexOptions {
  /** The user's region: numbers without a country code are its national numbers. */
  region: string;
  /** How hits show numbers (default: a new one for the region; the directory shares one). */
  shown?: NumberDisplay;
  /** A phonebook's priority: higher ranks first. Unknown phonebooks rank last. */
  priorityOf?: PriorityOf;
}

/** Options of a gradual build: those of a build, and the size of a slice. */
export interface GradualBuildOptions extends ContactIndexOptions {
  /**
   * About how many contacts (or numbers) a slice reads: a whole number ≥ 1 or Infinity (one
   * slice a phase); anything else means DEFAULT_SLICE.
   */
  slice?: number;
}

/** Contacts (or numbers) a slice of a gradual build reads by default (a few ms when cold). */
export const DEFAULT_SLICE = 1_000;

/**
 * The phases of a build, in order: a gradual build yields at the end of each (and within them,
 * between slices), so with an infinite slice it yields once a phase, after all but the last.
 */
export const BUILD_PHASES = [
  'words',
  'order',
  'word postings',
  'numbers',
  'digit grams',
  'caller suffixes + speed dials',
] as const;

/** The number structures of an index (none in an index built for word queries alone). */
interface NumberParts {
  numbers: NumberTable;
  grams: DigitGrams;
  suffixes: CallerSuffixes;
  speedDials: SpeedDials;
}

/** The structures of an index, built by ContactIndex.buildGradually. */
interface IndexParts {
  plan: DialingPlan;
  shown: NumberDisplay;
  contacts: DirectoryContact[];
  words: WordPostings;
  numberParts: NumberParts | undefined;
}

export class ContactIndex {
  readonly plan: DialingPlan;
  readonly #shown: NumberDisplay;
  /** Contacts in ranking order. */
  readonly #contacts: DirectoryContact[];
  readonly #candidates: RankedCandidates;
  readonly #words: WordPostings;
  readonly #numberParts: NumberParts | undefined;

  private constructor(parts: IndexParts) {
    this.plan = parts.plan;
    this.#shown = parts.shown;
    this.#contacts = parts.contacts;
    this.#candidates = new RankedCandidates(parts.contacts.length);
    this.#words = parts.words;
    this.#numberParts = parts.numberParts;
  }

  /** The number structures; an index built for words alone has none, and says so. */
  get #numbered(): NumberParts {
    if (!this.#numberParts) {
      throw new Error('this contact index was built for word queries alone (buildForWords)');
    }
    return this.#numberParts;
  }

  /**
   * An index of `contacts` that answers queries of words alone (no digits), with the hits and
   * order `build` gives them, and a call history whose parties are all contacts (contact_id): its
   * numbers are not read, so it is built in about half the time (the scan's indexes of the few
   * contacts a query keeps, before the directory's index is built). Anything else throws.
   */
  static buildForWords(
    contacts: readonly DirectoryContact[],
    options: ContactIndexOptions,
  ): ContactIndex {
    const building = ContactIndex.buildGradually(contacts, {
      ...options,
      slice: Number.POSITIVE_INFINITY,
      numbers: false,
    });
    for (;;) {
      const step = building.next();
      if (step.done) return step.value;
    }
  }

  /** Indexes `contacts` (any order; the index ranks them). */
  static build(contacts: readonly DirectoryContact[], options: ContactIndexOptions): ContactIndex {
    const building = ContactIndex.buildGradually(contacts, {
      ...options,
      slice: Number.POSITIVE_INFINITY,
    });
    for (;;) {
      const step = building.next();
      if (step.done) return step.value;
    }
  }

  /**
   * The same build as `build`, in slices: the generator yields between slices of work (about
   * `slice` contacts or numbers each, and after every phase of BUILD_PHASES), so a caller can
   * answer other requests between slices; its return value is the index.
   */
  static *buildGradually(
    contacts: readonly DirectoryContact[],
    options: GradualBuildOptions & { numbers?: boolean },
  ): Generator<void, ContactIndex> {
    // Whole contacts a slice; no number (NaN, 0, negative) falls back to the default.
    const asked = Math.floor(options.slice ?? DEFAULT_SLICE);
    const slice = asked >= 1 ? asked : DEFAULT_SLICE;
    const sliced = slice < contacts.length;
    const plan = new DialingPlan(options.region);
    const read = yield* ContactWords.read(contacts, slice);
    yield;
    // Ranking order: higher phonebook priority, then the name's words, then id.
    const { order, groupStart } = yield* rankingOrder(
      contacts,
      options.priorityOf,
      (k, into) => read.nameWords(k, into),
      read.sorted.length + 1,
      sliced,
    );
    if (sliced) yield;
    // Pushed: a packed array (a preallocated one is holey).
    const ranked: DirectoryContact[] = [];
    for (let index = 0; index < order.length; index++) ranked.push(contacts[order[index]!]!);
    yield;
    const words = yield* WordPostings.build(read, order, groupStart, slice);
    const shown =
      options.shown?.region === plan.region ? options.shown : new NumberDisplay(plan.region);
    if (options.numbers === false) {
      return new ContactIndex({ plan, shown, contacts: ranked, words, numberParts: undefined });
    }
    yield;
    const numbers = yield* NumberTable.read(contacts, order, plan, slice);
    yield;
    const grams = yield* DigitGrams.build(numbers, slice);
    yield;
    const suffixes = yield* CallerSuffixes.build(numbers, slice);
    const speedDials = yield* SpeedDials.build(ranked, slice);
    return new ContactIndex({
      plan,
      shown,
      contacts: ranked,
      words,
      numberParts: { numbers, grams, suffixes, speedDials },
    });
  }

  get size(): number {
    return this.#contacts.length;
  }

  /** Every contact, in ranking order. */
  get contacts(): readonly DirectoryContact[] {
    return this.#contacts;
  }

  /** The contacts with these ids, in ranking order. */
  withIds(ids: ReadonlySet<number>): DirectoryContact[] {
    return this.#contacts.filter((contact) => ids.has(contact.id));
  }

  /** Ranked hits for what the user typed, each saying which field and characters matched. */
  search(query: string, limit = 50): SearchHit[] {
    const parsed = parseQuery(query, this.plan);
    const ranked = this.rank(parsed, limit);
    const hits: SearchHit[] = [];
    for (const index of ranked) {
      const contact = this.#contacts[index]!;
      const match = MATCH_NAMES[this.#candidates.tierOf(index)]!;
      hits.push({ contact, match, ...shownHit(contact, parsed, this.plan, this.#shown) });
    }
    return hits;
  }

  /**
   * Whether `parsed` ranks fewer than `limit` contacts, or any by a typo: the hits' ranking alone,
   * none of them shown (what ContactScan asks before it searches with typos).
   */
  ranksFewOrFuzzy(parsed: ParsedQuery, limit: number): boolean {
    const ranked = this.rank(parsed, limit);
    return (
      ranked.length < limit ||
      ranked.some((index) => MATCH_NAMES[this.#candidates.tierOf(index)] === 'fuzzy')
    );
  }

  /** The ranked contact numbers alone (what the benchmark compares with other engines). */
  rank(parsed: ParsedQuery, limit: number): Int32Array {
    const candidates = this.#candidates;
    candidates.reset();
    if (parsed.words.length > 0) {
      this.#words.match(parsed.words, limit, candidates);
      for (const digits of parsed.digitWords) {
        candidates.retain((contact) => this.#hasDigits(contact, digits));
      }
    } else if (parsed.digits !== '') {
      for (const digits of [parsed.digits, ...parsed.international]) {
        this.#matchDigits(digits, limit);
      }
    } else return new Int32Array(0);
    return candidates.top(limit);
  }

  /**
   * The user's own calls, per party: contacts called more and lately rank first among hits of
   * the same match quality (call-affinity). Replaces what was given before; parties that are no
   * contact of this index are left out.
   */
  setCallHistory(parties: readonly PartyCalls[], now = Date.now()): void {
    const pull = new Map<number, { score: number; last: number }>();
    const credit = (contact: number, party: PartyCalls) => {
      const known = pull.get(contact) ?? { score: 0, last: 0 };
      known.score += frecency(party, now);
      known.last = Math.max(known.last, party.last_ms);
      pull.set(contact, known);
    };
    const byId = new Map<number, PartyCalls[]>();
    for (const party of parties) {
      if (party.contact_id === undefined) {
        const contact = this.#lookup(party.number);
        if (contact >= 0) credit(contact, party);
      } else byId.set(party.contact_id, [...(byId.get(party.contact_id) ?? []), party]);
    }
    if (byId.size > 0) {
      this.#contacts.forEach((contact, index) => {
        for (const party of byId.get(contact.id) ?? []) credit(index, party);
      });
    }
    // Best first; a tie goes to the one called last, then to the ranking order.
    const ranked = [...pull].sort(
      ([a, x], [b, y]) => y.score - x.score || y.last - x.last || a - b,
    );
    this.#candidates.boosted = Int32Array.from(ranked, ([contact]) => contact);
  }

  /**
   * Caller identification: the contact `number` belongs to by numbers/number-match.ts's rule
   * (the same number; an ending only where a side's country is unknown; nobody when two people
   * match), among the contacts with a number of the same ending.
   */
  lookupByNumber(number: string): DirectoryContact | undefined {
    return this.#contacts[this.#lookup(number)];
  }

  /** The contact (in ranking order) `number` belongs to, or -1. */
  #lookup(number: string): number {
    const text = this.plan.forms(number).text;
    if (text === '') return -1;
    const found = whoseNumber(
      number,
      this.#numbered.suffixes.candidates(text),
      this.plan.region,
      (contact) => [this.#contacts[contact]!.number, this.#contacts[contact]!.secondary_number],
      (contact) => this.#contacts[contact]!.display_name,
    );
    return found ?? -1;
  }

  /** A contact's numbers as a person reads them in the index's region. */
  shownNumbers(contact: Pick<DirectoryContact, 'number' | 'secondary_number'>): ShownNumbers {
    return shownNumbersOf(contact, this.#shown);
  }

  /** The contact with this speed-dial code. */
  findBySpeedDial(code: number): DirectoryContact | undefined {
    return this.#contacts[this.#numbered.speedDials.find(code)];
  }

  /** Whether one of the contact's numbers holds `digits`, or its speed dial starts with them. */
  #hasDigits(contact: number, digits: string): boolean {
    if (this.#numbered.numbers.contactHolds(contact, digits)) return true;
    const speedDial = this.#contacts[contact]!.speed_dial;
    return speedDial !== null && String(speedDial).startsWith(digits);
  }

  #matchDigits(digits: string, limit: number): void {
    const candidates = this.#candidates;
    const { numbers, grams, suffixes, speedDials } = this.#numbered;
    if (digits.length <= 4 && digits[0] !== '0') speedDials.match(digits, candidates);
    // Whole numbers, as typed or in their international form: all of them (they rank first).
    for (const whole of new Set([digits, this.plan.forms(digits).text])) {
      suffixes.matchWhole(whole, candidates);
    }
    // The fragment walks stop at `limit` contacts in order: the user's own calls first.
    for (const contact of candidates.boosted) {
      const tier = numbers.tierOf(contact, digits);
      if (tier >= 0) candidates.add(contact, tier);
    }
    grams.matchFragment(digits, limit, candidates);
    grams.matchNational(digits, limit, candidates);
  }
}
