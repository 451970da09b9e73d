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
 * A zero byte is no character of a contact file: a file with one (a spreadsheet saved as .xlsx or
 * .xls, UTF-16 without its mark, anything binary) is refused as not text, rather than read as
 * rows of noise. The text is never longer, in characters, than the file is in bytes, so the size
 * bound on the bytes bounds it.
 */
import { CallbarError } from '../errors';
import { said } from '../text/said';

export type ImportEncoding = 'utf-8' | 'utf-16le' | 'utf-16be' | 'windows-1252';
export const IMPORT_ENCODINGS: readonly ImportEncoding[] = [
  'utf-8',
  'utf-16le',
  'utf-16be',
  'windows-1252',
];

export interface DecodedImport {
  text: string;
  encoding: ImportEncoding;
}

/** The byte-order marks, longest first. */
const MARKS: readonly { bytes: readonly number[]; encoding: ImportEncoding }[] = [
  { bytes: [0xef, 0xbb, 0xbf], encoding: 'utf-8' },
  { bytes: [0xff, 0xfe], encoding: 'utf-16le' },
  { bytes: [0xfe, 0xff], encoding: 'utf-16be' },
];

/** The text of `bytes` and the encoding read (see the module); throws a CallbarError if none fits. */
export function decodeImport(bytes: Uint8Array): DecodedImport {
  const marked = MARKS.find((mark) => mark.bytes.every((byte, index) => bytes[index] === byte));
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
    return { text: checkedText(text), encoding: marked.encoding };
  }
  try {
    return { text: checkedText(decodeStrictly(bytes, 'utf-8')), encoding: 'utf-8' };
  } catch (error) {
    if (error instanceof CallbarError) throw error;
  }
  return { text: checkedText(decodeWindows1252(bytes)), encoding: 'windows-1252' };
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
};

function decodeStrictly(bytes: Uint8Array, encoding: ImportEncoding): string {
  if (encoding === 'utf-16be') {
    // Byte pairs swapped, the little-endian decoder reads it (it is in every Node, ICU or not).
    if (bytes.length % 2 !== 0) throw new RangeError('odd length');
    const swapped = Buffer.from(bytes);
    swapped.swap16();
    return decodeStrictly(swapped, 'utf-16le');
  }
  // The mark (if any) was taken off already: ignoreBOM keeps a second one as a character.
  return new TextDecoder(encoding, { fatal: true, ignoreBOM: true }).decode(bytes);
}

function checkedText(text: string): string {
  if (text.includes('\0')) {
    throw new CallbarError('import_unreadable', said('errors:import.notText'));
  }
  return text;
}
