/**
 * Says, for one hit, which field matched and which characters (for highlighting). Only the hits
 * shown are described, so this reads the contact's own text rather than the index.
 */
import type { DirectoryContact, MatchField, MatchRange } from '../../../src-preload/contract';
import type { DialingPlan } from './number-forms';
import type { ParsedQuery } from './parsed-query';
import { originalEnd, wordsOf } from './text-fold';

export interface HitDescription {
  field: MatchField;
  ranges: MatchRange[];
}

/** 0 exact, 1 prefix, 2 infix, 3 one typo away; -1 no match. */
type Quality = number;

/** Whether `word` is one edit (Damerau) from `term`, or starts with something that is. */
function withinOneTypo(term: string, word: string): boolean {
  if (word.startsWith(term)) return true;
  for (let i = 0; i < term.length; i++) {
    const head = term.slice(0, i);
    if (!word.startsWith(head)) return false;
    const tails = [
      term.slice(i + 1), // the user typed an extra character
      term[i + 1] !== undefined ? term[i + 1]! + term[i]! + term.slice(i + 2) : undefined,
    ];
    const rest = word.slice(i);
    if (tails.some((tail) => tail !== undefined && rest.startsWith(tail))) return true;
    // Substitution or a missing character.
    if (rest.slice(1).startsWith(term.slice(i + 1)) || rest.slice(1).startsWith(term.slice(i))) {
      return true;
    }
  }
  return false;
}

function describeWords(contact: DirectoryContact, words: string[]): HitDescription {
  const fields = [
    { field: 'display_name' as const, text: contact.display_name },
    { field: 'company' as const, text: contact.company },
  ].map((entry) => ({ ...entry, words: wordsOf(entry.text) }));
  const ranges: MatchRange[] = [];
  const matchesPerField = new Map<MatchField, number>();
  for (const term of words) {
    let best: { quality: Quality; field: MatchField; start: number; end: number } | undefined;
    for (const { field, text, words: fieldWords } of fields) {
      for (const word of fieldWords) {
        const quality: Quality =
          word.folded === term
            ? 0
            : word.folded.startsWith(term)
              ? 1
              : term.length >= 4 && withinOneTypo(term, word.folded)
                ? 3
                : -1;
        if (quality < 0 || (best && best.quality <= quality)) continue;
        const end = quality === 3 ? word.end : originalEnd(text, word, term.length);
        best = { quality, field, start: word.start, end };
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

/** Where `digits` matches a stored number, as a quality and the matched stored characters. */
function describeNumber(
  stored: string,
  digits: string,
  plan: DialingPlan,
): { quality: Quality; start: number; end: number } | undefined {
  const forms = plan.forms(stored);
  const text = forms.text;
  const storedDigits: number[] = [];
  for (let i = 0; i < stored.length; i++)
    if (stored[i]! >= '0' && stored[i]! <= '9') storedDigits.push(i);
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
