/**
 * Which column of a file to import holds which contact field, guessed from its headings in any
 * case, spacing or punctuation, with the synonyms address books and spreadsheets use ("Full
 * name", "Mobile", "Organisation", "Speed-dial"). A field no heading names stays unmapped; the
 * first column that names a field wins it. The person can change the guess (the window's preview,
 * the CLI's --map).
 */
import { CallbarError } from '../errors';
import { said } from '../text/said';
import { RECORD_FIELDS, type RecordField } from './contact-record';

/** Field → column index in the table. */
export type ColumnMapping = Partial<Record<RecordField, number>>;

/** Headings folded (lower case, letters and digits only) to the field they name. */
const SYNONYMS: Record<RecordField, readonly string[]> = {
  display_name: ['name', 'fullname', 'displayname', 'contact', 'contactname', 'fn'],
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
    'businessphone',
    'workphone',
  ],
  secondary_number: [
    'secondarynumber',
    'secondary',
    'secondphone',
    'otherphone',
    'othernumber',
    'alternatenumber',
    'alternativenumber',
    'phone2',
    'number2',
    'homephone',
  ],
  speed_dial: ['speeddial', 'speeddialnumber', 'speeddialcode', 'shortcode', 'shortdial'],
  company: [
    'company',
    'companyname',
    'organisation',
    'organization',
    'org',
    'business',
    'employer',
  ],
};

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

/** The field each heading names, when it names one. */
export function guessMapping(headers: readonly string[]): ColumnMapping {
  const mapping: ColumnMapping = {};
  headers.forEach((heading, index) => {
    const field = FIELD_OF.get(fold(heading));
    if (field && mapping[field] === undefined) mapping[field] = index;
  });
  return mapping;
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
