/**
 * Which column of a file to import holds which contact field, guessed from its headings in any
 * case, spacing or punctuation, with the synonyms address books and spreadsheets use, in English
 * and German ("Full name", "Mobile", "Organisation", "Speed-dial", "Phone 1 - Value" of a Google
 * export, "Telefon geschäftlich", "Firma" of a German Outlook). A field no heading names stays
 * unmapped; the first column that names a field wins it, except the secondary number: a file
 * with two number columns ("Business Phone", "Mobile Phone") gets the second as the secondary
 * number unless a heading names one (guessMapping). The person can change the guess (the
 * window's preview, the CLI's --map).
 *
 * Outlook's and Google's CSV exports have no name column, only its parts ("First Name", "Last
 * Name"): withComposedName adds one, headed by the parts it joins ("First Name + Last Name").
 */
import { CallbarError } from '../errors';
import { said } from '../text/said';
import { RECORD_FIELDS, type RecordField } from './contact-record';

/** Field → column index in the table. */
export type ColumnMapping = Partial<Record<RecordField, number>>;

/**
 * Headings of phones that are neither the number nor named as the secondary number (Outlook's
 * "Home Phone", "Other Phone", "Business Phone 2", German "Telefon (privat)", "Weiteres Telefon"):
 * the secondary number's column when the file has no better one (secondaryColumn).
 */
const OTHER_PHONES = [
  'otherphone',
  'othernumber',
  'homephone',
  'homephone2',
  'businessphone2',
  'carphone',
  'companymainphone',
  'weiterestelefon',
  'telefonprivat',
  'telefonprivat2',
  'telefongeschaftlich2',
  'autotelefon',
  'telefonfirma',
] as const;

/** "Phone 3", Google's "Phone 3 - Value", "Telefon 4": a further phone (an other phone). */
const FURTHER_PHONE =
  /^(phone|telephone|tel|number|telefon|nummer|rufnummer)([3-9]|[1-9]\d)(value)?$/;

/** Headings folded (lower case, letters and digits only) to the field they name. */
const SYNONYMS: Record<RecordField, readonly string[]> = {
  display_name: [
    'name',
    'fullname',
    'displayname',
    'contact',
    'contactname',
    'fn',
    'vollstandigername',
    'anzeigename',
  ],
  number: [
    'number',
    'phone',
    'phonenumber',
    'telephone',
    'tel',
    'mobile',
    'mobilenumber',
    'mobilephone',
    'cell',
    'cellphone',
    'primarynumber',
    'primaryphone',
    'businessphone',
    'workphone',
    // Google Contacts' export: "Phone 1 - Value".
    'phone1value',
    'nummer',
    'telefon',
    'telefonnummer',
    'rufnummer',
    'mobil',
    'mobiltelefon',
    'mobilnummer',
    'handy',
    'handynummer',
    // German Outlook: "Telefon geschäftlich", "Haupttelefon".
    'telefongeschaftlich',
    'haupttelefon',
  ],
  secondary_number: [
    'secondarynumber',
    'secondary',
    'secondphone',
    'alternatenumber',
    'alternativenumber',
    'phone2',
    'number2',
    'phone2value',
    'zweitnummer',
    'telefon2',
    // OTHER_PHONES: a secondary number only when no heading names one and no second number column.
    ...OTHER_PHONES,
  ],
  speed_dial: [
    'speeddial',
    'speeddialnumber',
    'speeddialcode',
    'shortcode',
    'shortdial',
    'kurzwahl',
  ],
  company: [
    'company',
    'companyname',
    'organisation',
    'organization',
    'org',
    'business',
    'employer',
    // Google Contacts' export: "Organization Name" (older ones "Organization 1 - Name").
    'organizationname',
    'organization1name',
    'firma',
    'firmenname',
    'unternehmen',
  ],
};

/** The parts of a name some exports have instead of a name, in the order they are joined. */
const NAME_PARTS: readonly (readonly string[])[] = [
  ['firstname', 'givenname', 'vorname'],
  ['middlename', 'additionalname', 'weiterevornamen', 'zweitervorname'],
  ['lastname', 'familyname', 'surname', 'nachname'],
];

/** How a composed name column's heading joins the headings of its parts. */
const JOINED = ' + ';

const FIELD_OF = new Map<string, RecordField>(
  RECORD_FIELDS.flatMap((field) => SYNONYMS[field].map((synonym) => [synonym, field] as const)),
);

/** "Full Name" → "fullname"; "Speed-dial #" → "speeddial". */
function fold(heading: string): string {
  return heading
    .normalize('NFKD')
    .toLowerCase()
    .replace(/[^a-z0-9]/g, '');
}

/** Which part of a name a heading names (0 given, 1 middle, 2 family), if any. */
function namePart(heading: string): number {
  const folded = fold(heading);
  return NAME_PARTS.findIndex((synonyms) => synonyms.includes(folded));
}

/** "First Name + Last Name": a column withComposedName made. */
function isComposedName(heading: string): boolean {
  const parts = heading.split(JOINED);
  return parts.length > 1 && parts.every((part) => namePart(part) >= 0);
}

/** The field a heading names, when it names one. */
function fieldOf(heading: string): RecordField | undefined {
  return (
    FIELD_OF.get(fold(heading)) ??
    (isComposedName(heading) ? 'display_name' : undefined) ??
    (FURTHER_PHONE.test(fold(heading)) ? 'secondary_number' : undefined)
  );
}

/**
 * How a phone column ranks for the secondary number: 0 named so ("Secondary number", "Phone 2 -
 * Value"), 1 another number ("Mobile Phone" after "Business Phone"), 2 an other phone ("Home
 * Phone", "Telefon (privat)", "Phone 3"); undefined for a column that is no phone.
 */
function secondaryRank(heading: string): number | undefined {
  const folded = fold(heading);
  const field = fieldOf(heading);
  if (field === 'number') return 1;
  if (field !== 'secondary_number') return undefined;
  return (OTHER_PHONES as readonly string[]).includes(folded) || FURTHER_PHONE.test(folded) ? 2 : 0;
}

/**
 * The field each heading names, when it names one; the first column that names a field wins it.
 * The secondary number is the first column named so, else the second column naming a number
 * ("Business Phone", "Mobile Phone": the mobile), else the first other phone ("Home Phone").
 */
export function guessMapping(headers: readonly string[]): ColumnMapping {
  const mapping: ColumnMapping = {};
  headers.forEach((heading, index) => {
    const field = fieldOf(heading);
    if (field && field !== 'secondary_number' && mapping[field] === undefined) {
      mapping[field] = index;
    }
  });
  let best: number | undefined;
  headers.forEach((heading, index) => {
    const rank = secondaryRank(heading);
    if (rank === undefined || index === mapping.number) return;
    if (best === undefined || rank < secondaryRank(headers[best]!)!) best = index;
  });
  if (best !== undefined) mapping.secondary_number = best;
  return mapping;
}

/**
 * The phone columns no field is mapped to (a third phone of an Outlook export, a vCard's third
 * TEL): an import fills an empty number or secondary number from them, and says of each number in
 * them it leaves out that it is not imported.
 */
export function otherPhoneColumns(headers: readonly string[], mapping: ColumnMapping): number[] {
  const mapped = new Set(Object.values(mapping));
  return headers.flatMap((heading, index) =>
    !mapped.has(index) && secondaryRank(heading) !== undefined ? [index] : [],
  );
}

/**
 * A table whose headings name no name column but at least two of a name's parts (Outlook's and
 * Google's "First Name", "Middle Name", "Last Name"; German "Vorname", "Nachname") gets one more
 * column, "First Name + Last Name", each row's parts joined by a space; any other table is
 * returned as it is.
 */
export function withComposedName<T extends { headers: string[]; rows: string[][] }>(table: T): T {
  if (table.headers.some((heading) => fieldOf(heading) === 'display_name')) return table;
  const columns: number[] = [];
  for (let part = 0; part < NAME_PARTS.length; part++) {
    const column = table.headers.findIndex((heading) => namePart(heading) === part);
    if (column >= 0) columns.push(column);
  }
  if (columns.length < 2) return table;
  const heading = columns.map((column) => table.headers[column]!).join(JOINED);
  const name = (row: string[]) =>
    columns
      .map((column) => (row[column] ?? '').trim())
      .filter((part) => part !== '')
      .join(' ');
  return {
    ...table,
    headers: [...table.headers, heading],
    rows: table.rows.map((row) => [...row, name(row)]),
  };
}

/**
 * The guess with the person's changes: `field=Heading` pairs (a heading in any case, or a
 * 1-based column number; `field=` unmaps it). Unknown fields or headings are refused by name.
 */
export function adjustMapping(
  headers: readonly string[],
  guess: ColumnMapping,
  changes: Readonly<Record<string, string>>,
): ColumnMapping {
  const mapping = { ...guess };
  for (const [field, heading] of Object.entries(changes)) {
    if (!(RECORD_FIELDS as readonly string[]).includes(field)) {
      throw new CallbarError(
        'invalid_input',
        said('errors:import.notAField', { field, fields: RECORD_FIELDS.join(', ') }),
      );
    }
    const key = field as RecordField;
    if (heading.trim() === '') {
      delete mapping[key];
      continue;
    }
    const byNumber = /^\d+$/.test(heading.trim()) ? Number(heading) - 1 : -1;
    const index =
      byNumber >= 0 && byNumber < headers.length
        ? byNumber
        : headers.findIndex((each) => fold(each) === fold(heading));
    if (index < 0) {
      throw new CallbarError(
        'invalid_input',
        said('errors:import.noColumn', {
          heading,
          columns: headers.map((each) => `"${each}"`).join(', '),
        }),
      );
    }
    mapping[key] = index;
  }
  return mapping;
}
