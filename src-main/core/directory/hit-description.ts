/**
 * Says, for one hit, which field matched and which characters (for highlighting). Only the hits
 * shown are described, so this reads the contact's own text rather than the index.
 */
import type { DirectoryContact, MatchField, MatchRange } from '../../../src-shared/contract';
import type { DialingPlan, NumberForms } from './number-forms';
import type { ParsedQuery } from './parsed-query';
import { originalEnd, wordsOf } from './text-fold';

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

function describeWords(contact: DirectoryContact, terms: string[]): HitDescription {
  const fields = [
    {
      field: 'display_name' as const,
      text: contact.display_name,
      words: wordsOf(contact.display_name),
    },
    { field: 'company' as const, text: contact.company, words: wordsOf(contact.company) },
  ];
  const ranges: MatchRange[] = [];
  let companyMatches = 0;
  for (const term of terms) {
    let bestQuality: Quality = -1;
    let best: MatchRange | undefined;
    // Exact or prefix first; a typo only when no word starts with the term.
    for (const { field, text, words } of fields) {
      for (const word of words) {
        if (!word.folded.startsWith(term)) continue;
        const quality = word.folded === term ? 0 : 1;
        if (best && bestQuality <= quality) continue;
        bestQuality = quality;
        best = { field, start: word.start, end: originalEnd(text, word, term.length) };
      }
    }
    if (!best && term.length >= 3) {
      search: for (const { field, words } of fields) {
        for (const word of words) {
          if (withinOneTypo(term, word.folded)) {
            best = { field, start: word.start, end: word.end };
            break search;
          }
        }
      }
    }
    if (!best) continue;
    ranges.push(best);
    if (best.field === 'company') companyMatches++;
  }
  const field = companyMatches > ranges.length - companyMatches ? 'company' : 'display_name';
  return { field, ranges };
}

/** Positions of a stored number's digits, reused by every description (no allocation per hit). */
const storedDigits: number[] = [];

/**
 * The stored characters showing the digits [from, to) of `forms.text` (plus `extraFirst`, a
 * stored character shown before them), as one [start, end) span; undefined when none is shown.
 */
function storedSpan(
  stored: string,
  forms: NumberForms,
  from: number,
  to: number,
  quality: Quality,
  extraFirst = -1,
): { quality: Quality; start: number; end: number } | undefined {
  // Digits map to stored characters in order: the first shown one starts the span, the last ends it.
  let start = extraFirst;
  let end = extraFirst;
  for (let i = from; i < to; i++) {
    const j = i - forms.ccLen + forms.nsnStart;
    if (j < 0 || j >= storedDigits.length || stored[storedDigits[j]!] !== forms.text[i]) continue;
    if (start < 0) start = storedDigits[j]!;
    end = storedDigits[j]!;
  }
  return start < 0 ? undefined : { quality, start, end: end + 1 };
}

/** Where `digits` matches a stored number, as a quality and the matched stored characters. */
function describeNumber(
  stored: string,
  digits: string,
  plan: DialingPlan,
): { quality: Quality; start: number; end: number } | undefined {
  const forms = plan.forms(stored);
  storedDigits.length = 0;
  for (let i = 0; i < stored.length; i++) {
    const code = stored.charCodeAt(i);
    if (code >= 48 && code <= 57) storedDigits.push(i);
  }
  const text = forms.text;
  for (let at = 0; at <= forms.ccLen; at += forms.ccLen || 1) {
    if (text.startsWith(digits, at)) {
      const end = at + digits.length;
      return storedSpan(stored, forms, at, end, end === text.length ? 0 : 1);
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
      trunkDigit !== undefined && stored[trunkDigit] === digits[0] ? trunkDigit : -1;
    const end = forms.ccLen + digits.length - 1;
    return storedSpan(stored, forms, forms.ccLen, end, end === text.length ? 0 : 1, trunkShown);
  }
  const at = text.indexOf(digits);
  return at < 0 ? undefined : storedSpan(stored, forms, at, at + digits.length, 2);
}

/** The best match of the digits typed, or of them as typed with "+" (ParsedQuery.international). */
function describeDigits(
  contact: DirectoryContact,
  query: ParsedQuery,
  plan: DialingPlan,
): HitDescription {
  let best: { quality: Quality; field: MatchField; start: number; end: number } | undefined;
  for (const digits of [query.digits, ...query.international]) {
    const found = bestMatch(contact, digits, plan);
    if (found && (!best || found.quality < best.quality)) best = found;
  }
  if (!best) return { field: 'number', ranges: [] };
  return { field: best.field, ranges: [{ field: best.field, start: best.start, end: best.end }] };
}

function bestMatch(
  contact: DirectoryContact,
  digits: string,
  plan: DialingPlan,
): { quality: Quality; field: MatchField; start: number; end: number } | undefined {
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
  return best;
}

export function describeHit(
  contact: DirectoryContact,
  query: ParsedQuery,
  plan: DialingPlan,
): HitDescription {
  if (query.words.length > 0) return describeWords(contact, query.words);
  return describeDigits(contact, query, plan);
}
