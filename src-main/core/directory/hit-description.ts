/**
 * Says, for one hit, which field matched and which characters (for highlighting). Only the hits
 * shown are described, so this reads the contact's own text rather than the index.
 */
import type { DirectoryContact, MatchField, MatchRange } from '../../../src-preload/contract';
import type { DialingPlan, NumberForms } from './number-forms';
import type { ParsedQuery } from './parsed-query';
import { originalEnd, wordsOf, type Word } from './text-fold';

export interface HitDescription {
  field: MatchField;
  ranges: MatchRange[];
}

/** 0 exact, 1 prefix, 2 infix, 3 one typo away; -1 no match. */
type Quality = number;

/** Whether `term` from `at` equals `word` from `wordAt` for the rest of `term`. */
function restMatches(term: string, at: number, word: string, wordAt: number): boolean {
  if (word.length - wordAt < term.length - at) return false;
  for (let i = at; i < term.length; i++) if (term[i] !== word[wordAt + i - at]) return false;
  return true;
}

/** Whether the start of `word` is at most one edit (Damerau) from `term`. */
function withinOneTypo(term: string, word: string): boolean {
  let i = 0;
  while (i < term.length && i < word.length && term[i] === word[i]) i++;
  if (i === term.length) return true;
  return (
    restMatches(term, i + 1, word, i + 1) || // substitution
    restMatches(term, i + 1, word, i) || // an extra character typed
    restMatches(term, i, word, i + 1) || // a character left out
    (term[i] === word[i + 1] && term[i + 1] === word[i] && restMatches(term, i + 2, word, i + 2))
  );
}

/** Words of recently shown texts: typing re-describes the same contacts keystroke after keystroke. */
const wordsCache = new Map<string, Word[]>();
const WORDS_CACHE_SIZE = 5000;

function cachedWords(text: string): Word[] {
  let words = wordsCache.get(text);
  if (!words) {
    if (wordsCache.size >= WORDS_CACHE_SIZE) wordsCache.clear();
    words = wordsOf(text);
    wordsCache.set(text, words);
  }
  return words;
}

function describeWords(contact: DirectoryContact, terms: string[]): HitDescription {
  const fields = [
    { field: 'display_name' as const, text: contact.display_name },
    { field: 'company' as const, text: contact.company },
  ].map((entry) => ({ ...entry, words: cachedWords(entry.text) }));
  const ranges: MatchRange[] = [];
  const matchesPerField = new Map<MatchField, number>();
  for (const term of terms) {
    let best: { quality: Quality; field: MatchField; start: number; end: number } | undefined;
    // Exact or prefix first; a typo only when no word starts with the term.
    for (const { field, text, words } of fields) {
      for (const word of words) {
        if (!word.folded.startsWith(term)) continue;
        const quality = word.folded === term ? 0 : 1;
        if (best && best.quality <= quality) continue;
        best = { quality, field, start: word.start, end: originalEnd(text, word, term.length) };
      }
    }
    if (!best && term.length >= 3) {
      search: for (const { field, words } of fields) {
        for (const word of words) {
          if (withinOneTypo(term, word.folded)) {
            best = { quality: 3, field, start: word.start, end: word.end };
            break search;
          }
        }
      }
    }
    if (!best) continue;
    ranges.push({ field: best.field, start: best.start, end: best.end });
    matchesPerField.set(best.field, (matchesPerField.get(best.field) ?? 0) + 1);
  }
  const field =
    (matchesPerField.get('company') ?? 0) > (matchesPerField.get('display_name') ?? 0)
      ? 'company'
      : 'display_name';
  return { field, ranges };
}

const numbersCache = new Map<string, { forms: NumberForms; storedDigits: number[] }>();

/** A stored number's digit forms and where its digits stand (cached: typing re-reads them). */
function readNumber(stored: string, plan: DialingPlan) {
  const key = `${plan.region}:${stored}`;
  let read = numbersCache.get(key);
  if (!read) {
    const storedDigits: number[] = [];
    for (let i = 0; i < stored.length; i++) {
      if (stored[i]! >= '0' && stored[i]! <= '9') storedDigits.push(i);
    }
    if (numbersCache.size >= WORDS_CACHE_SIZE) numbersCache.clear();
    read = { forms: plan.forms(stored), storedDigits };
    numbersCache.set(key, read);
  }
  return read;
}

/** Where `digits` matches a stored number, as a quality and the matched stored characters. */
function describeNumber(
  stored: string,
  digits: string,
  plan: DialingPlan,
): { quality: Quality; start: number; end: number } | undefined {
  const { forms, storedDigits } = readNumber(stored, plan);
  const text = forms.text;
  // A digit of `text` as a character of `stored`, when the stored form shows it.
  const charOf = (i: number): number | undefined => {
    const j = i - forms.ccLen + forms.nsnStart;
    return j >= 0 && stored[storedDigits[j]!] === text[i] ? storedDigits[j] : undefined;
  };
  const span = (from: number, to: number, quality: Quality, extraFirst?: number) => {
    const chars: number[] = [];
    if (extraFirst !== undefined) chars.push(extraFirst);
    for (let i = from; i < to; i++) {
      const at = charOf(i);
      if (at !== undefined) chars.push(at);
    }
    if (chars.length === 0) return undefined;
    return { quality, start: Math.min(...chars), end: Math.max(...chars) + 1 };
  };
  const starts = forms.ccLen > 0 ? [0, forms.ccLen] : [0];
  for (const at of starts) {
    if (text.startsWith(digits, at)) {
      return span(at, at + digits.length, at + digits.length === text.length ? 0 : 1);
    }
  }
  // National form: trunk prefix + significant number.
  if (
    forms.ccLen > 0 &&
    forms.trunk === digits[0] &&
    text.startsWith(digits.slice(1), forms.ccLen)
  ) {
    const trunkDigit = storedDigits[forms.nsnStart - 1];
    const trunkShown =
      trunkDigit !== undefined && stored[trunkDigit] === digits[0] ? trunkDigit : undefined;
    const end = forms.ccLen + digits.length - 1;
    return span(forms.ccLen, end, end === text.length ? 0 : 1, trunkShown);
  }
  const at = text.indexOf(digits);
  return at < 0 ? undefined : span(at, at + digits.length, 2);
}

function describeDigits(
  contact: DirectoryContact,
  digits: string,
  plan: DialingPlan,
): HitDescription {
  let best: { quality: Quality; field: MatchField; start: number; end: number } | undefined;
  const speedDial = contact.speed_dial === null ? '' : String(contact.speed_dial);
  if (speedDial.startsWith(digits)) {
    best = {
      quality: speedDial === digits ? 0 : 1,
      field: 'speed_dial',
      start: 0,
      end: digits.length,
    };
  }
  for (const field of ['number', 'secondary_number'] as const) {
    const stored = contact[field];
    if (!stored) continue;
    const found = describeNumber(stored, digits, plan);
    if (found && (!best || found.quality < best.quality)) best = { ...found, field };
  }
  if (!best) return { field: 'number', ranges: [] };
  return { field: best.field, ranges: [{ field: best.field, start: best.start, end: best.end }] };
}

export function describeHit(
  contact: DirectoryContact,
  query: ParsedQuery,
  plan: DialingPlan,
): HitDescription {
  if (query.words.length > 0) return describeWords(contact, query.words);
  return describeDigits(contact, query.digits, plan);
}
