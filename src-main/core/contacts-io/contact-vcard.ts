/**
 * Contacts as vCards, with ical.js (Mozilla's RFC 6350 / vCard 3.0 parser and writer).
 *
 * Written: vCard 4.0, one card per contact: FN (the name), ORG (the company), TEL with PREF=1
 * (the number) and a second TEL (the secondary number), and the speed dial as
 * X-CALLBAR-SPEED-DIAL (a vCard has no field for it; other programs keep or ignore it).
 *
 * Read: vCard 2.1, 3.0 and 4.0. The name is FN, else N put together; the number is the TEL marked
 * preferred (PREF=1, or TYPE=pref in 3.0), else the first; the secondary number is the next TEL;
 * a `tel:` URI loses its scheme. Cards are turned into a table with the export's headings, so an
 * import maps them like a CSV whose columns it knows; a card with more TELs adds columns "Phone 3",
 * "Phone 4" … (at most MAX_VCARD_MORE_PHONES; the last holds any rest), which an import uses for
 * a number that repeats another and otherwise names as not imported (import-plan.ts).
 *
 * Before ical.js sees a file, one pass over its lines (vcard-legacy.ts) keeps only the properties
 * read here, as vCard 3.0 (2.1's quoted-printable values decoded, its bare parameters named, its
 * base64 photos left out), and checks each line's start against MAX_VCARD_PARAMETERS and each
 * kept line (a folded one counted whole) against MAX_VCARD_LINE_CHARS: ical.js takes time
 * quadratic in a line's parameters (a 3.5 MB line of 917,000 kept `contacts import` busy for
 * 24 s), so a line beyond either bound is refused with its number before anything is parsed. A
 * photo or note left out is skipped over whatever its length.
 */
import ICAL from 'ical.js';
import { CallbarError, errorMessage } from '../errors';
import { said } from '../text/said';
import type { CsvTable } from './contact-csv';
import {
  FIELD_HEADINGS,
  furtherPhoneHeading,
  RECORD_FIELDS,
  type ContactRecord,
} from './contact-record';
import { legacyVcardsAsV3 } from './vcard-legacy';

const SPEED_DIAL_PROPERTY = 'x-callbar-speed-dial';

/** The longest line read (unfolded; of the properties read, a photo's is only skipped over). */
export const MAX_VCARD_LINE_CHARS = 1024 * 1024;
/** Parameters of one line (`TEL;TYPE=work;PREF=1:…` has two); address books write a handful. */
export const MAX_VCARD_PARAMETERS = 64;
/** Columns for a card's TELs after the second ("Phone 3" …); the last holds any rest, joined. */
export const MAX_VCARD_MORE_PHONES = 8;

/** One contact as a vCard 4.0 (CRLF line ends, long lines folded). */
export function vcardOf(record: ContactRecord): string {
  const tel = (number: string, preferred: boolean): JcardProperty => [
    'tel',
    preferred ? { type: 'voice', pref: '1' } : { type: 'voice' },
    'text',
    number,
  ];
  const properties: JcardProperty[] = [
    ['version', {}, 'text', '4.0'],
    ['fn', {}, 'text', record.display_name],
    // ORG is structured (organisation; unit; …): one unit, so a ";" in it is escaped.
    ...(record.company ? [['org', {}, 'text', [record.company]] satisfies JcardProperty] : []),
    tel(record.number, true),
    ...(record.secondary_number ? [tel(record.secondary_number, false)] : []),
    ...(record.speed_dial === null
      ? []
      : [[SPEED_DIAL_PROPERTY, {}, 'unknown', String(record.speed_dial)] satisfies JcardProperty]),
  ];
  return `${new ICAL.Component(['vcard', properties, []]).toString()}\r\n`;
}

/** A property in jCard form (RFC 7095): name, parameters, value type, value. */
type JcardProperty = [string, Record<string, string>, string, string | string[]];

/** The vCards in `text` as a table with the export's headings (at most `maxRows` cards). */
export function parseVcards(text: string, maxRows: number): CsvTable {
  const cards = legacyVcardsAsV3(text, {
    maxLineChars: MAX_VCARD_LINE_CHARS,
    maxParameters: MAX_VCARD_PARAMETERS,
  });
  let parsed: unknown;
  try {
    parsed = ICAL.parse(cards);
  } catch (error) {
    throw new CallbarError(
      'import_unreadable',
      said('errors:import.vcardMalformed', { problem: errorMessage(error) }),
    );
  }
  // One card parses as one jCard, several as a list of them.
  const jcards = (Array.isArray(parsed) && Array.isArray(parsed[0]) ? parsed : [parsed]) as [];
  if (jcards.length > maxRows) {
    throw new CallbarError(
      'import_too_large',
      said('errors:import.tooManyContacts', { max: maxRows }),
    );
  }
  const rows = jcards.map((jcard) => {
    const card = new ICAL.Component(jcard);
    if (card.name !== 'vcard') {
      throw new CallbarError(
        'import_unreadable',
        said('errors:import.notVcards', { name: card.name }),
      );
    }
    const { record, more } = recordOfCard(card);
    return [...RECORD_FIELDS.map((field) => record[field]), ...morePhones(more)];
  });
  const width = rows.reduce((most, row) => Math.max(most, row.length - RECORD_FIELDS.length), 0);
  for (const row of rows) while (row.length < RECORD_FIELDS.length + width) row.push('');
  const more = Array.from({ length: width }, (_, index) => furtherPhoneHeading(index + 3));
  return { headers: [...RECORD_FIELDS.map((field) => FIELD_HEADINGS[field]), ...more], rows };
}

/** A card's TELs after the second as cells, at most MAX_VCARD_MORE_PHONES (the last the rest). */
function morePhones(more: readonly string[]): string[] {
  if (more.length <= MAX_VCARD_MORE_PHONES) return [...more];
  const kept = more.slice(0, MAX_VCARD_MORE_PHONES - 1);
  return [...kept, more.slice(kept.length).join(', ')];
}

/**
 * A TEL's value as the number reader takes it: a plain tel: URI ("tel:+1-202-555-0143") as its
 * number, shown as people write it; one with parameters or escapes (";phone-context=+49",
 * ";ext=12", "%20") whole, as a link, for the reader (numbers/dial-link.ts) to read as links are
 * read: cut off, the rest was read as typed text and refused.
 */
function telText(value: string): string {
  const rest = value.replace(/^tel:/i, '');
  return rest !== value && /[;%]/.test(rest) ? value : rest;
}

function recordOfCard(card: ICAL.Component): {
  record: Record<(typeof RECORD_FIELDS)[number], string>;
  more: string[];
} {
  const numbers = card
    .getAllProperties('tel')
    .map((property, order) => ({
      number: telText(textOf(property.getFirstValue())),
      rank: preference(property),
      order,
    }))
    .filter((tel) => tel.number.trim() !== '')
    .sort((a, b) => a.rank - b.rank || a.order - b.order);
  return {
    record: {
      display_name: textOf(card.getFirstPropertyValue('fn')) || nameOf(card),
      number: numbers[0]?.number ?? '',
      secondary_number: numbers[1]?.number ?? '',
      speed_dial: textOf(card.getFirstPropertyValue(SPEED_DIAL_PROPERTY)),
      company: textOf(card.getFirstPropertyValue('org')),
    },
    more: numbers.slice(2).map((tel) => tel.number),
  };
}

/** 1 for the preferred number (PREF=1, or TYPE=pref in 3.0), up to 100; 101 for the others. */
function preference(property: ICAL.Property): number {
  const pref = Number(textOf(property.getParameter('pref')));
  if (Number.isInteger(pref) && pref >= 1 && pref <= 100) return pref;
  const types = property.getParameter('type');
  const list = Array.isArray(types) ? types : [types];
  return list.some((type) => textOf(type).toLowerCase() === 'pref') ? 1 : 101;
}

/** N (family; given; additional; prefixes; suffixes) as "prefix given additional family suffix". */
function nameOf(card: ICAL.Component): string {
  const n = card.getFirstPropertyValue('n');
  if (!Array.isArray(n)) return textOf(n);
  const [family, given, additional, prefix, suffix] = n.map(textOf);
  return [prefix, given, additional, family, suffix].filter(Boolean).join(' ');
}

/** A property value as text: structured values (ORG's units, N's parts) joined. */
function textOf(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (Array.isArray(value)) return value.map(textOf).filter(Boolean).join(', ');
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  // Dates, times and other typed values of ical.js print as their vCard text.
  const typed: { toString(): string } = value;
  return typed.toString();
}
