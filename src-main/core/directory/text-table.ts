/**
 * Many short texts (a field of every contact) as one run of UTF-8 bytes and where each ends:
 * entry e is `bytes[start(e), ends[e])`. It is what the directory cache stores and a start reads
 * in place (no string is made per contact, nor one for the whole run): a search over every entry
 * is one `indexOf` walk over the bytes, each match told to its entry by the ends, and an entry is
 * decoded to a string only when asked for.
 *
 * UTF-8 keeps a search exact: a well-formed text's encoding holds another's exactly where the
 * text holds it (a character's bytes never match in the middle of another's), so a match in the
 * bytes is a match in the text. (A lone surrogate, which has no UTF-8 form, is written as U+FFFD:
 * neither is a letter, digit or anything a typed word holds.)
 */
import { Buffer } from 'node:buffer';

export interface TextTable {
  /** Every entry's UTF-8 bytes, one after the other, no separator. */
  readonly bytes: Buffer;
  /** Where entry e ends in `bytes`; it starts where entry e - 1 ends (0 for e = 0). */
  readonly ends: Uint32Array;
}

/** Where entry `e` starts in the table's bytes. */
export function entryStart(table: TextTable, e: number): number {
  return e === 0 ? 0 : table.ends[e - 1]!;
}

/** Entry `e`'s text. */
export function entryText(table: TextTable, e: number): string {
  return table.bytes.toString('utf8', entryStart(table, e), table.ends[e]);
}

/** The table of `texts`, in order. */
export function textTable(texts: readonly string[]): TextTable {
  const ends = new Uint32Array(texts.length);
  let end = 0;
  for (let e = 0; e < texts.length; e++) {
    end += Buffer.byteLength(texts[e]!, 'utf8');
    ends[e] = end;
  }
  const bytes = Buffer.from(texts.join(''), 'utf8');
  // A lone surrogate counts 3 bytes in byteLength and is written as 3 (U+FFFD): the same.
  return { bytes, ends };
}

/**
 * Calls `found(e, at)` for every place `part` (not empty) stands whole inside an entry (never
 * across two), in order; a `found` that answers a position moves the walk on to it.
 */
function eachMatch(
  table: TextTable,
  part: Buffer,
  found: (e: number, at: number) => number | undefined,
): void {
  const { bytes, ends } = table;
  let e = 0;
  for (let at = bytes.indexOf(part); at >= 0;) {
    while (ends[e]! <= at) e++;
    let next = at + 1;
    if (at + part.length <= ends[e]!) next = found(e, at) ?? next;
    at = next < bytes.length ? bytes.indexOf(part, next) : -1;
  }
}

/** Marks (1) the entries holding `part` (every entry when it is empty). */
export function entriesHolding(table: TextTable, part: string): Uint8Array {
  const marks = new Uint8Array(table.ends.length);
  if (part === '') return marks.fill(1);
  eachMatch(table, Buffer.from(part, 'utf8'), (e) => {
    marks[e] = 1;
    return table.ends[e]!;
  });
  return marks;
}

/**
 * Marks (1) the entries where a word starts with `part`: it stands at the entry's start or after
 * a character that is no letter or digit (isWordCharBefore). Every entry when `part` is empty.
 */
export function entriesWithWordStarting(table: TextTable, part: string): Uint8Array {
  const marks = new Uint8Array(table.ends.length);
  if (part === '') return marks.fill(1);
  eachMatch(table, Buffer.from(part, 'utf8'), (e, at) => {
    if (at !== entryStart(table, e) && isWordCharBefore(table.bytes, at)) return undefined;
    marks[e] = 1;
    return table.ends[e]!;
  });
  return marks;
}

/**
 * Whether entry `e`'s first word (its first letter or digit on) starts with `part` (not empty,
 * no separator in it).
 */
export function firstWordStarts(table: TextTable, e: number, part: Buffer): boolean {
  const { bytes } = table;
  const end = table.ends[e]!;
  for (let at = entryStart(table, e); at < end;) {
    const width = charWidth(bytes, at, end);
    if (isWordCharAt(bytes, at, width)) return holdsAt(bytes, at, end, part);
    at += width;
  }
  return false;
}

/** Whether `part` stands at `at`, ending by `end` (a loop: a short part, asked thousands of times). */
function holdsAt(bytes: Buffer, at: number, end: number, part: Buffer): boolean {
  if (at + part.length > end) return false;
  for (let i = 0; i < part.length; i++) if (bytes[at + i] !== part[i]) return false;
  return true;
}

const WORD_CHAR = /[\p{L}\p{N}]/u;

/**
 * Whether the character ending just before byte `at` is a letter or digit. A character outside
 * the Basic Multilingual Plane counts as a separator, as a UTF-16 text read unit by unit tells
 * it (the scan's words were always told that way; it only keeps more).
 */
function isWordCharBefore(bytes: Buffer, at: number): boolean {
  let from = at - 1;
  // Back over continuation bytes (10xxxxxx) to the character's first byte, at most 3.
  while (from > 0 && at - from < 4 && (bytes[from]! & 0xc0) === 0x80) from--;
  return widthOf(bytes[from]!) === at - from && isWordCharAt(bytes, from, at - from);
}

/** The width a UTF-8 character starting with `lead` has. */
function widthOf(lead: number): number {
  return lead < 0xc0 ? 1 : lead < 0xe0 ? 2 : lead < 0xf0 ? 3 : 4;
}

/** The width of the UTF-8 character at `at` (1 for a byte that starts none). */
function charWidth(bytes: Buffer, at: number, end: number): number {
  const width = widthOf(bytes[at]!);
  if (at + width > end) return 1;
  for (let i = 1; i < width; i++) if ((bytes[at + i]! & 0xc0) !== 0x80) return 1;
  return width;
}

/** Whether the `width` bytes at `at` encode a letter or digit of the Basic Multilingual Plane. */
function isWordCharAt(bytes: Buffer, at: number, width: number): boolean {
  const lead = bytes[at]!;
  if (width === 1) {
    return (lead >= 48 && lead <= 57) || (lead >= 97 && lead <= 122) || (lead >= 65 && lead <= 90);
  }
  let point: number;
  if (width === 2 && lead >= 0xc2 && lead < 0xe0)
    point = ((lead & 0x1f) << 6) | (bytes[at + 1]! & 0x3f);
  else if (width === 3 && lead >= 0xe0 && lead < 0xf0) {
    point = ((lead & 0x0f) << 12) | ((bytes[at + 1]! & 0x3f) << 6) | (bytes[at + 2]! & 0x3f);
  } else return false;
  return WORD_CHAR.test(String.fromCharCode(point));
}
