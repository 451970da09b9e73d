/**
 * The text of a file to import, from its bytes, in the encodings the programs that write contact
 * files use:
 *
 * - a byte-order mark names the encoding: UTF-8, UTF-16 little-endian (Excel's "Unicode Text",
 *   tab-separated) or big-endian; the file must then be that encoding throughout, or it is refused;
 * - else UTF-8 when the bytes are UTF-8 (ASCII is);
 * - else Windows-1252, what Outlook and Excel on Western Windows write as "CSV" (`M\xfcller`,
 *   `\x80` for €). Every byte is a character there, so any file reads; the encoding read is part
 *   of the result, and the CLI and the window say it before anything is sent.
 *
 * That last one is a guess: a Polish, Czech or Russian Windows, or an old Mac, writes its own
 * encoding, whose letters Windows-1252 reads as others ("£ód¿" for "Łódź"). So the person may name
 * the encoding instead (`--encoding`, the import dialog's choice): a file is then read in it, a
 * UTF-8 or UTF-16 file strictly (a byte that is not one of it refuses the file), and a file whose
 * byte-order mark names another encoding is refused, since the mark decides. UTF-16 without its
 * mark reads only when chosen.
 *
 * A zero byte is no character of a contact file: a file with one (a spreadsheet saved as .xlsx or
 * .xls, UTF-16 without its mark, anything binary) is refused as not text, rather than read as
 * rows of noise. The text is never longer, in characters, than the file is in bytes, so the size
 * bound on the bytes bounds it.
 */
import { ImportEncoding } from '../../../src-shared/contract/imports';
import { CallbarError } from '../errors';
import { said } from '../text/said';

export { ImportEncoding };

/** Every encoding a file may be read in, as `--encoding` names them. */
export const IMPORT_ENCODINGS: readonly ImportEncoding[] = ImportEncoding.options;

export interface DecodedImport {
  text: string;
  encoding: ImportEncoding;
  /** Whether the encoding was the one asked for (false: found by the rules above). */
  chosen: boolean;
}

/** The byte-order marks, longest first. */
const MARKS: readonly { bytes: readonly number[]; encoding: ImportEncoding }[] = [
  { bytes: [0xef, 0xbb, 0xbf], encoding: 'utf-8' },
  { bytes: [0xff, 0xfe], encoding: 'utf-16le' },
  { bytes: [0xfe, 0xff], encoding: 'utf-16be' },
];

/**
 * The text of `bytes` and the encoding read (see the module): in `chosen` when given, else the
 * one the rules find. Throws a CallbarError when the bytes are not text in it.
 */
export function decodeImport(bytes: Uint8Array, chosen?: ImportEncoding): DecodedImport {
  const marked = MARKS.find((mark) => mark.bytes.every((byte, index) => bytes[index] === byte));
  if (chosen !== undefined) return { ...decodeChosen(bytes, chosen, marked), chosen: true };
  if (marked) {
    const body = bytes.subarray(marked.bytes.length);
    let text: string;
    try {
      text = decodeStrictly(body, marked.encoding);
    } catch {
      throw new CallbarError(
        'import_unreadable',
        said('errors:import.notMarkedEncoding', { encoding: encodingName(marked.encoding) }),
      );
    }
    return { text: checkedText(text), encoding: marked.encoding, chosen: false };
  }
  try {
    return { text: checkedText(decodeStrictly(bytes, 'utf-8')), encoding: 'utf-8', chosen: false };
  } catch (error) {
    if (error instanceof CallbarError) throw error;
  }
  return { text: checkedText(decodeWindows1252(bytes)), encoding: 'windows-1252', chosen: false };
}

/** `bytes` read in the encoding the person chose (a byte-order mark must agree with it). */
function decodeChosen(
  bytes: Uint8Array,
  chosen: ImportEncoding,
  marked: (typeof MARKS)[number] | undefined,
): { text: string; encoding: ImportEncoding } {
  if (marked && marked.encoding !== chosen) {
    throw new CallbarError(
      'import_unreadable',
      said('errors:import.markSaysOther', {
        marked: encodingName(marked.encoding),
        chosen: encodingName(chosen),
      }),
    );
  }
  const body = marked ? bytes.subarray(marked.bytes.length) : bytes;
  let text: string;
  try {
    text = chosen === 'windows-1252' ? decodeWindows1252(body) : decodeStrictly(body, chosen);
  } catch {
    throw new CallbarError(
      'import_unreadable',
      said('errors:import.notInChosen', { encoding: encodingName(chosen) }),
    );
  }
  return { text: checkedText(text), encoding: chosen };
}

/**
 * Windows-1252: ISO-8859-1 but for 0x80–0x9F, which hold € ‚ ƒ „ … † ‡ ˆ ‰ Š ‹ Œ Ž ‘ ’ “ ” • – —
 * ˜ ™ š › œ ž Ÿ (the five it leaves free stay C1 controls, as WHATWG reads them). Done here: Node
 * 20's TextDecoder('windows-1252') reads those bytes as ISO-8859-1's controls, so "€" was lost.
 */
export function decodeWindows1252(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)
    .toString('latin1')
    .replace(/[\u0080-\u009f]/g, (char) => WINDOWS_1252_HIGH[char.charCodeAt(0) - 0x80]!);
}

const WINDOWS_1252_HIGH =
  '\u20ac\u0081\u201a\u0192\u201e\u2026\u2020\u2021\u02c6\u2030\u0160\u2039\u0152\u008d\u017d\u008f' +
  '\u0090\u2018\u2019\u201c\u201d\u2022\u2013\u2014\u02dc\u2122\u0161\u203a\u0153\u009d\u017e\u0178';

/** The encoding's usual name (the same in every language). */
export function encodingName(encoding: ImportEncoding): string {
  return ENCODING_NAMES[encoding];
}

const ENCODING_NAMES: Record<ImportEncoding, string> = {
  'utf-8': 'UTF-8',
  'utf-16le': 'UTF-16 LE',
  'utf-16be': 'UTF-16 BE',
  'windows-1252': 'Windows-1252',
  'windows-1250': 'Windows-1250',
  'windows-1251': 'Windows-1251',
  macintosh: 'MacRoman',
};

/**
 * `bytes` in `encoding`: a Unicode one refuses a byte that is not of it (throws); a single-byte
 * one (Windows-1250, Windows-1251, Mac Roman: ICU's, which Node and Electron carry) maps every
 * byte, the few it leaves free to U+FFFD.
 */
function decodeStrictly(bytes: Uint8Array, encoding: ImportEncoding): string {
  if (encoding === 'utf-16be') {
    // Byte pairs swapped, the little-endian decoder reads it (it is in every Node, ICU or not).
    if (bytes.length % 2 !== 0) throw new RangeError('odd length');
    const swapped = Buffer.from(bytes);
    swapped.swap16();
    return decodeStrictly(swapped, 'utf-16le');
  }
  // The mark (if any) was taken off already: ignoreBOM keeps a second one as a character.
  const unicode = encoding === 'utf-8' || encoding === 'utf-16le';
  return new TextDecoder(encoding, { fatal: unicode, ignoreBOM: true }).decode(bytes);
}

function checkedText(text: string): string {
  if (text.includes('\0')) {
    throw new CallbarError('import_unreadable', said('errors:import.notText'));
  }
  return text;
}
