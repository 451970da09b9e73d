/**
 * vCards as phones, older Outlook and CRMs write them (vCard 2.1, and 3.0 with 2.1's habits),
 * turned into the vCard 3.0 that ical.js reads, in one pass over the lines that keeps only what
 * an import uses: BEGIN, END, VERSION, FN, N, TEL, ORG and Callbar's speed dial. Everything else
 * (photos, addresses, notes, a program's own X- lines) is left out before ical.js sees it, so its
 * length or its oddities neither cost time nor refuse a file whose contacts are fine.
 *
 * - `ENCODING=QUOTED-PRINTABLE` (or the bare `QUOTED-PRINTABLE`): `=C3=BC` is a byte, `=` at a
 *   line's end continues the value on the next line (whatever that line starts with); the bytes
 *   are read in the line's CHARSET (UTF-8 when it names none or one Callbar does not know, else
 *   Windows-1252 when they are not UTF-8). A line break in the value becomes vCard 3.0's `\n`.
 * - `ENCODING=BASE64` (or `B`, or the bare `BASE64`): a photo, sound or key, left out with every
 *   line it continues on: indented ones, and in 2.1 also unindented lines without a `:` up to
 *   the blank line that ends it.
 * - 2.1's bare parameters (`TEL;CELL;PREF:`) become `TYPE=CELL;TYPE=PREF`; CHARSET and ENCODING
 *   are dropped (the value is text by then); a group (`item1.TEL`) is dropped; VERSION:2.1 reads as
 *   3.0.
 *
 * A kept line longer than MAX_VCARD_LINE_CHARS once its pieces are joined is refused, naming the
 * line it starts on; a left-out one is only skipped over, holding nothing. Lines are numbered as
 * checkVcardLines numbers them (by LF), which has checked every line of the file before this.
 */
import { CallbarError } from '../errors';
import { said } from '../text/said';
import { decodeWindows1252 } from './import-encoding';

/** Properties an import reads (lower case; the speed dial is contact-vcard.ts's). */
const KEPT = new Set(['begin', 'end', 'version', 'fn', 'n', 'tel', 'org', 'x-callbar-speed-dial']);

const SPACE = 0x20;
const TAB = 0x09;
const CR = 0x0d;
const QUOTE = 0x22;
const SEMICOLON = 0x3b;
const COLON = 0x3a;

interface Property {
  /** The line it starts on (1-based). */
  line: number;
  name: string;
  params: string[];
  charset?: string;
  encoding?: 'quoted-printable' | 'base64';
  kept: boolean;
  /** Its last line ended in a quoted-printable soft break (`=`). */
  softBreak: boolean;
  /** The value's pieces (a kept property's only). */
  pieces: string[];
  length: number;
}

/** How far the text before a property's `:` has been read (it may be folded over lines). */
interface Head {
  line: number;
  text: string;
  quoted: boolean;
  parameters: number;
}

/**
 * `text` (vCards of any version) as vCard 3.0 lines that ical.js reads, only the kept ones;
 * throws a CallbarError naming the line of one beyond `bounds`.
 */
export function legacyVcardsAsV3(
  text: string,
  bounds: { maxLineChars: number; maxParameters: number },
): string {
  const out: string[] = [];
  let head: Head | undefined;
  let property: Property | undefined;
  const tooLong = (line: number) =>
    new CallbarError(
      'import_unreadable',
      said('errors:import.vcardLineTooLong', { line, max: bounds.maxLineChars }),
    );
  const flush = () => {
    if (property?.kept && property.encoding !== 'base64') out.push(lineOf(property));
    property = undefined;
  };
  const add = (piece: string) => {
    const current = property!;
    current.softBreak = current.encoding === 'quoted-printable' && piece.endsWith('=');
    if (!current.kept) return;
    current.length += piece.length;
    if (current.length > bounds.maxLineChars) throw tooLong(current.line);
    current.pieces.push(piece);
  };
  /** Reads a piece of a property's start; once its `:` comes, the property begins. */
  const feed = (piece: string) => {
    const current = head!;
    let colon = -1;
    for (let index = 0; index < piece.length; index++) {
      const code = piece.charCodeAt(index);
      if (code === QUOTE) current.quoted = !current.quoted;
      else if (current.quoted) continue;
      else if (code === COLON) {
        colon = index;
        break;
      } else if (code === SEMICOLON && ++current.parameters > bounds.maxParameters) {
        throw new CallbarError(
          'import_unreadable',
          said('errors:import.vcardTooManyParameters', {
            line: current.line,
            max: bounds.maxParameters,
          }),
        );
      }
    }
    if (colon < 0) {
      current.text += piece;
      if (current.text.length > bounds.maxLineChars) throw tooLong(current.line);
      return;
    }
    head = undefined;
    const start = current.text + piece.slice(0, colon);
    property = propertyOf(start, current.line);
    // The line's length counts its start and `:` too.
    property.length = start.length + 1;
    add(piece.slice(colon + 1));
  };
  let number = 0;
  for (let at = 0; at < text.length;) {
    const newline = text.indexOf('\n', at);
    const end = newline < 0 ? text.length : newline;
    const line = text.slice(at, text.charCodeAt(end - 1) === CR ? end - 1 : end);
    at = end + 1;
    number++;
    const first = line.charCodeAt(0);
    const folded = first === SPACE || first === TAB;
    if (head) {
      if (folded) {
        feed(line.slice(1));
        continue;
      }
      // A line without a `:`: not a property, which ical.js refuses, quoting it.
      out.push(head.text);
      head = undefined;
    }
    if (property?.softBreak) {
      // `=` at the end: the value goes on with this line, whatever it starts with.
      const last = property.pieces.length - 1;
      if (last >= 0) property.pieces[last] = property.pieces[last]!.slice(0, -1);
      add(line);
      continue;
    }
    if (property && folded) {
      add(line.slice(1));
      continue;
    }
    // 2.1's base64 goes on over lines of its own up to a blank one (none has a `:`).
    if (property?.encoding === 'base64' && line.trim() !== '' && !line.includes(':')) continue;
    flush();
    if (line.trim() === '') continue;
    head = { line: number, text: '', quoted: false, parameters: 0 };
    feed(line);
  }
  if (head) out.push(head.text);
  flush();
  return `${out.join('\r\n')}\r\n`;
}

/** A property's name and parameters, from the text before its `:`. */
function propertyOf(head: string, line: number): Property {
  const parts = splitOutsideQuotes(head);
  const name = parts[0]!.slice(parts[0]!.lastIndexOf('.') + 1).toLowerCase();
  const property: Property = {
    line,
    name,
    params: [],
    kept: KEPT.has(name),
    softBreak: false,
    pieces: [],
    length: 0,
  };
  for (const part of parts.slice(1)) {
    const equals = part.indexOf('=');
    const key = (equals < 0 ? '' : part.slice(0, equals)).trim().toLowerCase();
    const value = (equals < 0 ? part : part.slice(equals + 1)).trim();
    const word = value.toLowerCase();
    if (key === 'encoding' || (key === '' && ENCODINGS.has(word))) {
      property.encoding = ENCODINGS.get(word);
      if (property.encoding === undefined) delete property.encoding;
    } else if (key === 'charset') property.charset = value.replace(/^"|"$/g, '');
    else if (key === '') {
      if (value !== '') property.params.push(`TYPE=${value}`);
    } else property.params.push(part);
  }
  return property;
}

const ENCODINGS = new Map<string, Property['encoding']>([
  ['quoted-printable', 'quoted-printable'],
  ['base64', 'base64'],
  ['b', 'base64'],
  ['8bit', undefined],
  ['7bit', undefined],
]);

function splitOutsideQuotes(head: string): string[] {
  const parts: string[] = [];
  let quoted = false;
  let from = 0;
  for (let index = 0; index < head.length; index++) {
    const char = head[index];
    if (char === '"') quoted = !quoted;
    else if (char === ';' && !quoted) {
      parts.push(head.slice(from, index));
      from = index + 1;
    }
  }
  parts.push(head.slice(from));
  return parts;
}

/** The property as one vCard 3.0 line. */
function lineOf(property: Property): string {
  let value = property.pieces.join('');
  if (property.encoding === 'quoted-printable') {
    value = decodeQuotedPrintable(value, property.charset).replace(/\r\n|\r|\n/g, '\\n');
  }
  if (property.name === 'version' && value.trim() === '2.1') value = '3.0';
  const head = [property.name.toUpperCase(), ...property.params].join(';');
  return `${head}:${value}`;
}

/** The `=XX` runs of `value` as text in `charset`; the rest of it is text already. */
export function decodeQuotedPrintable(value: string, charset: string | undefined): string {
  return value.replace(/=$/, '').replace(/(?:=[0-9A-Fa-f]{2})+/g, (run) => {
    const bytes = new Uint8Array(run.length / 3);
    for (let index = 0; index < bytes.length; index++) {
      bytes[index] = Number.parseInt(run.slice(index * 3 + 1, index * 3 + 3), 16);
    }
    return decodeBytes(bytes, charset);
  });
}

/** Labels WHATWG reads as Windows-1252. */
const WESTERN = new Set([
  'windows-1252',
  'cp1252',
  'x-cp1252',
  'iso-8859-1',
  'iso8859-1',
  'latin1',
  'l1',
  'us-ascii',
  'ascii',
]);

function decodeBytes(bytes: Uint8Array, charset: string | undefined): string {
  const label = charset?.trim().toLowerCase();
  // TextDecoder takes ISO-8859-1 for Windows-1252 (WHATWG) but reads 0x80–0x9F wrong in Node 20.
  if (label && WESTERN.has(label)) return decodeWindows1252(bytes);
  for (const encoding of label && label !== 'utf-8' ? [label, 'utf-8'] : ['utf-8']) {
    try {
      return new TextDecoder(encoding, { fatal: true }).decode(bytes);
    } catch {
      // An unknown label, or bytes that are not that encoding: the next one.
    }
  }
  return decodeWindows1252(bytes);
}
