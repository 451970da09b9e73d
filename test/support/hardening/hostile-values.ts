/**
 * Building blocks of the fuzzers: the seed (the simulator's SeededRandom, so the same seed gives
 * the same inputs and a failure replays; CALLBAR_FUZZ_SEED overrides it) and values an attacker
 * would try.
 */
import { SeededRandom } from '../../../simulator/random';

export const FUZZ_SEED = Number(process.env.CALLBAR_FUZZ_SEED ?? 19);

export function fuzzRandom(salt: number): SeededRandom {
  return new SeededRandom(FUZZ_SEED * 7919 + salt);
}

const PRINTABLE = ' !"#$%&\'()*+,-./0123456789:;<=>?@ABCXYZ[\\]^_`abcxyz{|}~';
const CONTROL = ['\0', '\n', '\r', '\t', '\u001b', '\u007f', '\u0085', '\u2028', '\u202e'];
const UNICODE = ['é', 'ß', '日本', '🙂', '\ud800', '\ufeff', '\u200b', 'İ', '٣', '０'];

/** A string of `length` characters: printable ASCII, control characters and awkward unicode. */
export function randomText(random: SeededRandom, length: number): string {
  let text = '';
  for (let i = 0; i < length; i++) {
    const roll = random.next();
    text += roll < 0.8 ? random.pick([...PRINTABLE]) : random.pick(roll < 0.9 ? CONTROL : UNICODE);
  }
  return text;
}

/** A JSON value nested `depth` levels deep (arrays and objects alternating). */
export function deeplyNested(depth: number): string {
  return '{"a":['.repeat(depth) + '1' + ']}'.repeat(depth);
}

/**
 * Values no request field accepts: every JSON type, and a string longer than any field allows
 * (the strings are at most 512 characters, numbers are bounded, booleans are booleans).
 */
export const WRONG_FOR_EVERY_FIELD: readonly unknown[] = [
  null,
  0,
  -1,
  1e308,
  0.5,
  [],
  ['a'],
  {},
  { toString: 'x' },
  'x'.repeat(100_000),
];

/** Keys that pollute a prototype when code merges objects carelessly. */
export const POLLUTING_KEYS = ['__proto__', 'constructor', 'prototype'] as const;

/** `text` percent-encoded for a URL (a lone surrogate becomes U+FFFD first, as a browser does). */
export function percentEncoded(text: string): string {
  return encodeURIComponent(Buffer.from(text, 'utf8').toString('utf8'));
}
