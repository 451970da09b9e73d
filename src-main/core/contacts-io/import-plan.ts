/**
 * What an import will do with each row, decided before anything is sent: every row is checked
 * against the contract's rules (a name and a number; numbers in E.164 with the default region;
 * the number unique in the phonebook; a speed dial in 200–999 or 2000–9999 and not 9191, held by
 * no other row or contact of the phonebook) and against Callbar's bounds (cell lengths, no control
 * characters). A row whose number the phonebook already has is skipped, or updated when the person
 * chose so (and skipped as unchanged when it would change nothing), so importing the same file
 * twice changes nothing. Rows without a speed dial get a free one (speed-dial-pool.ts).
 *
 * A row's numbers come from its phone columns in order: the number's, the secondary number's,
 * then any phone column mapped to nothing (a third phone of an Outlook export, a vCard's third
 * TEL). The first filled one is the number, the next with another number the secondary number
 * (readNumbers); a phone with no room left is not imported, and the row's reason says so.
 */
import type { CountryCode } from 'libphonenumber-js/max';
import { IncompleteListError } from '../api/page-walk';
import type { PhonebookApi } from '../api/phonebook-api';
import type { Contact } from '../api/schemas';
import { readContactNumber } from '../numbers/contact-number';
import { CallbarError } from '../errors';
import { said, type Said, type SaidValue } from '../text/said';
import { holdSentences, inEnglish } from '../text/translators';
import { otherPhoneColumns, type ColumnMapping } from './column-mapping';
import { FIELD_HEADINGS, recordOf, type ContactRecord, type RecordField } from './contact-record';
import { IMPORT_LIMITS, type ImportTable } from './import-file';
import { SpeedDialPool } from './speed-dial-pool';

export type OnDuplicate = 'skip' | 'update';
export type RowAction = 'create' | 'update' | 'skip' | 'fail';

export interface PlannedRow {
  /** 1-based: the file's first contact is row 1. */
  row: number;
  /**
   * The cells as the file has them, by field (for the preview and the failures report); the
   * number and secondary number as the row's phone columns fill them (readNumbers).
   */
  cells: Record<RecordField, string>;
  action: RowAction;
  /** What is sent (create, update), or what was read (skip). */
  record?: ContactRecord;
  /** The phonebook's contact with this number (update, skip). */
  existing?: Contact;
  /** Why a row is skipped or fails, in a sentence (English, said by key: worded again where shown). */
  reason?: string;
  /** The speed dial was chosen by Callbar (another one may be chosen if the platform refuses it). */
  assignedSpeedDial?: boolean;
}

/** What the platform's numbers cannot hold (an extension after a number), said per row. */
class RowNotes {
  readonly notes: Said[] = [];
}

export interface ImportPlan {
  phonebook: number;
  rows: PlannedRow[];
  pool: SpeedDialPool;
}

export interface PlanOptions {
  phonebook: number;
  /** The phonebook's contacts now. */
  existing: readonly Contact[];
  region: CountryCode;
  onDuplicate: OnDuplicate;
  /** Speed dials known to be held elsewhere (the local directory's). */
  takenSpeedDials?: Iterable<number>;
}

/** Control and invisible format characters, which no name, company or number holds. */
const CONTROL = /[\p{Cc}\p{Cf}\u2028\u2029]/u;

/** A field as a row's sentence names it ("the name", "the secondary number"). */
const FIELD_WORDS: Record<RecordField, Said> = {
  display_name: said('errors:import.field.display_name'),
  number: said('errors:import.field.number'),
  secondary_number: said('errors:import.field.secondary_number'),
  speed_dial: said('errors:import.field.speed_dial'),
  company: said('errors:import.field.company'),
};

/** A row that cannot be imported, with the phrase why (said by key). */
class RowProblem extends Error {
  readonly phrase: Said;

  constructor(phrase: Said) {
    super(inEnglish(phrase));
    this.phrase = phrase;
  }
}

/** A row's phrases as its reason: one sentence, capitalised, in English (said by key). */
function rowReason(phrases: readonly Said[]): string {
  return inEnglish(
    said('errors:import.rowReason', { phrases: { capitalised: { joined: phrases, by: '; ' } } }),
  );
}

/**
 * The phonebook's contacts now (its id checked first, so a wrong one fails clearly), every one
 * the platform counts (page-walk.ts), or nothing is planned: a row already there but missed would
 * be created twice.
 */
export async function phonebookContacts(api: PhonebookApi, phonebook: number): Promise<Contact[]> {
  const book = await api.getPhonebook(phonebook);
  const contacts: Contact[] = [];
  try {
    for await (const contact of api.allContacts({ phonebook })) contacts.push(contact);
  } catch (error) {
    if (!(error instanceof IncompleteListError)) throw error;
    throw new CallbarError(
      'import_incomplete',
      said('errors:import.incomplete', { why: error.ofPhonebook(book.description) }),
    );
  }
  return contacts;
}

export function planImport(
  table: ImportTable,
  mapping: ColumnMapping,
  options: PlanOptions,
): ImportPlan {
  for (const field of ['display_name', 'number'] as const) {
    if (mapping[field] === undefined) {
      throw new CallbarError(
        'import_unmapped',
        said('errors:import.unmapped', {
          field: FIELD_WORDS[field],
          columns: table.headers.map((h) => `"${h}"`).join(', '),
          heading: FIELD_HEADINGS[field],
        }),
      );
    }
  }
  const byNumber = new Map<string, Contact>();
  for (const contact of options.existing)
    byNumber.set(comparable(contact.number, options), contact);
  const speedDialHolders = new Map<number, string>();
  for (const contact of options.existing) {
    if (contact.speed_dial) speedDialHolders.set(contact.speed_dial, contact.display_name);
  }
  const pool = new SpeedDialPool([...(options.takenSpeedDials ?? []), ...speedDialHolders.keys()]);
  const numbersInFile = new Map<string, number>();
  const speedDialsInFile = new Map<number, number>();
  // The columns a row's numbers come from, in the order they fill the number and the secondary
  // number: the mapped ones, then the phone columns mapped to nothing. A person who unmapped the
  // secondary number gets none.
  const phoneColumns = [
    mapping.number!,
    mapping.secondary_number,
    ...otherPhoneColumns(table.headers, mapping),
  ].filter((column) => column !== undefined);
  const slots = mapping.secondary_number === undefined ? 1 : 2;

  // Each row's reason is kept as soon as it is said: the window words it again later.
  const hold = holdSentences('import plan');
  const held = (planned: PlannedRow) => {
    hold(planned.reason);
    return planned;
  };
  const rows = table.rows.map((cellsInRow, index): PlannedRow => held(planRow(cellsInRow, index)));
  function planRow(cellsInRow: readonly string[], index: number): PlannedRow {
    const row = index + 1;
    const cells = cellsOf(cellsInRow, mapping);
    const phones = phoneColumns
      .map((column) => ({
        heading: table.headers[column]!,
        text: (cellsInRow[column] ?? '').trim(),
      }))
      .filter((phone) => phone.text !== '');
    const notes = new RowNotes();
    try {
      const record = readRecord(cells, phones, slots, options, notes);
      const existing = byNumber.get(record.number);
      // A number the phonebook has, with duplicates skipped: every row of it is skipped as
      // already there (none is refused as a copy of another row that is not imported either).
      if (existing && options.onDuplicate === 'skip') {
        return duplicateRow(row, cells, record, existing, 'skip');
      }
      // Only a row that is imported (created, updated) takes its number: a later row is not
      // refused as a copy of one that is skipped or refused itself.
      const first = numbersInFile.get(record.number);
      if (first !== undefined)
        throw new RowProblem(said('errors:import.row.sameNumber', { row: first }));
      if (record.speed_dial !== null) {
        const other = speedDialsInFile.get(record.speed_dial);
        if (other !== undefined) {
          throw new RowProblem(
            said('errors:import.row.sameSpeedDial', { row: other, code: record.speed_dial }),
          );
        }
        const holder = speedDialHolders.get(record.speed_dial);
        if (holder !== undefined && existing?.speed_dial !== record.speed_dial) {
          throw new RowProblem(
            said('errors:import.row.speedDialTaken', { code: record.speed_dial, holder }),
          );
        }
        speedDialsInFile.set(record.speed_dial, row);
        pool.markTaken(record.speed_dial);
      }
      const planned = existing
        ? duplicateRow(row, cells, record, existing, options.onDuplicate)
        : { row, cells, action: 'create' as const, record };
      if (planned.action !== 'skip') numbersInFile.set(record.number, row);
      if (notes.notes.length === 0 || planned.action === 'skip') return planned;
      return { ...planned, reason: rowReason(notes.notes) };
    } catch (error) {
      if (!(error instanceof RowProblem)) throw error;
      return { row, cells, action: 'fail', reason: rowReason([error.phrase]) };
    }
  }
  // Speed dials for the rows without one, once every code the file gives is known.
  for (const planned of rows) {
    const needsOne = planned.action === 'create' || planned.action === 'update';
    if (!needsOne || planned.record!.speed_dial !== null) continue;
    const code = pool.take();
    if (code === undefined) {
      Object.assign(planned, {
        action: 'fail',
        reason: inEnglish(said('errors:import.noSpeedDialLeft')),
      });
      delete planned.record;
      continue;
    }
    planned.record = { ...planned.record!, speed_dial: code };
    planned.assignedSpeedDial = true;
  }
  return { phonebook: options.phonebook, rows, pool };
}

function duplicateRow(
  row: number,
  cells: Record<RecordField, string>,
  record: ContactRecord,
  existing: Contact,
  onDuplicate: OnDuplicate,
): PlannedRow {
  if (onDuplicate === 'skip') {
    return {
      row,
      cells,
      action: 'skip',
      record,
      existing,
      reason: inEnglish(said('errors:import.alreadyThere', { name: existing.display_name })),
    };
  }
  const wanted: ContactRecord = {
    ...record,
    speed_dial: record.speed_dial ?? existing.speed_dial ?? null,
  };
  const current = recordOf(existing);
  const unchanged = (Object.keys(wanted) as RecordField[]).every(
    (field) => wanted[field] === current[field],
  );
  return unchanged
    ? {
        row,
        cells,
        action: 'skip',
        record: wanted,
        existing,
        reason: inEnglish(said('errors:import.unchanged')),
      }
    : { row, cells, action: 'update', record: wanted, existing };
}

function cellsOf(cells: readonly string[], mapping: ColumnMapping): Record<RecordField, string> {
  const at = (field: RecordField) => {
    const index = mapping[field];
    return index === undefined ? '' : (cells[index] ?? '').trim();
  };
  return {
    display_name: at('display_name'),
    number: at('number'),
    secondary_number: at('secondary_number'),
    speed_dial: at('speed_dial'),
    company: at('company'),
  };
}

/** A filled cell of a phone column: its heading and text. */
interface PhoneCell {
  heading: string;
  text: string;
}

/**
 * The row as the contact to send; a RowProblem says what is wrong with it, `notes` what of it the
 * platform cannot keep. `phones` are its filled phone cells in the order they fill the number and
 * (`slots` 2) the secondary number.
 */
function readRecord(
  cells: Record<RecordField, string>,
  phones: readonly PhoneCell[],
  slots: 1 | 2,
  options: { region: CountryCode },
  notes: RowNotes,
): ContactRecord {
  // The row's cells name the numbers it will have (the preview, a failures file fixed and
  // imported again), also when a row fails before they are read.
  cells.number = phones[0]?.text ?? '';
  cells.secondary_number = slots === 2 ? (phones[1]?.text ?? '') : '';
  for (const field of Object.keys(cells) as RecordField[]) checkCell(field, cells[field]);
  if (cells.display_name === '') throw new RowProblem(said('errors:import.row.noName'));
  if (cells.number === '') throw new RowProblem(said('errors:import.row.noNumber'));
  const [number, secondary] = readNumbers(cells, phones, slots, options, notes);
  return {
    display_name: cells.display_name,
    number: number!,
    secondary_number: secondary ?? null,
    speed_dial: speedDial(cells.speed_dial),
    company: cells.company,
  };
}

function checkCell(field: RecordField, value: string): void {
  if (value.length > IMPORT_LIMITS.maxCellChars) {
    throw new RowProblem(
      said('errors:import.row.tooLong', {
        field: FIELD_WORDS[field],
        max: IMPORT_LIMITS.maxCellChars,
      }),
    );
  }
  if (CONTROL.test(value)) {
    throw new RowProblem(
      said('errors:import.row.controlCharacters', { field: FIELD_WORDS[field] }),
    );
  }
}

/**
 * The row's numbers: the first filled phone cell is the number (a row whose number column is
 * empty takes its secondary number's, or a phone column mapped to nothing), the next one with
 * another number the secondary number; a cell that repeats the number adds nothing. Each is read
 * as the contact editor reads it, and `cells` says which text became which. A phone the contact
 * has no room for is not imported, and `notes` says so, with its column and text.
 */
function readNumbers(
  cells: Record<RecordField, string>,
  phones: readonly PhoneCell[],
  slots: 1 | 2,
  options: { region: CountryCode },
  notes: RowNotes,
): string[] {
  const numbers: string[] = [];
  let next = 0;
  for (; next < phones.length && numbers.length < slots; next++) {
    const phone = phones[next]!;
    const field = numbers.length === 0 ? 'number' : 'secondary_number';
    cells[field] = phone.text;
    checkCell(field, phone.text);
    const number = phoneNumber(phone.text, field, options, notes);
    if (!numbers.includes(number)) numbers.push(number);
  }
  if (numbers.length < 2) cells.secondary_number = '';
  for (const phone of phones.slice(next)) {
    notes.notes.push(
      said('errors:import.row.phoneLeftOut', { heading: phone.heading, text: phone.text }),
    );
  }
  return numbers;
}

/**
 * The number as the contact editor stores it too (numbers/contact-number.ts: E.164 in the user's
 * region, an extension as is), refused for the same reason. An extension written after a number
 * ("ext. 12", ";ext=12", "x12") cannot be kept: the platform's numbers are digits only (contract
 * 2.5: E.164), so the number is imported without it and `notes` says so for the row.
 */
function phoneNumber(
  text: string,
  field: 'number' | 'secondary_number',
  options: { region: CountryCode },
  notes?: RowNotes,
): string {
  let read;
  try {
    read = readContactNumber(text, options.region, field);
  } catch (error) {
    // The editor's reason, word for word; only dial advice ("turn on vanity numbers…") does not
    // apply to a file.
    const reason = error instanceof CallbarError ? error.said?.values?.why : undefined;
    const dialAdvice =
      typeof reason === 'object' &&
      'key' in reason &&
      reason.key === 'errors:number.advised' &&
      (reason.values?.advice as Said | undefined)?.key === 'errors:number.turnOnVanity';
    const why: SaidValue =
      typeof reason !== 'object'
        ? said('errors:import.row.unreadable')
        : dialAdvice
          ? reason.values!.problem!
          : reason;
    throw new RowProblem(
      said('errors:import.row.notANumber', { field: FIELD_WORDS[field], text, why }),
    );
  }
  if (read.droppedExtension) {
    notes?.notes.push(
      said('errors:import.row.extensionDropped', {
        field: FIELD_WORDS[field],
        extension: read.droppedExtension,
        number: read.number,
      }),
    );
  }
  return read.number;
}

function speedDial(text: string): number | null {
  if (text === '') return null;
  const code = /^\d{1,5}$/.test(text) ? Number(text) : NaN;
  if (!SpeedDialPool.allows(code)) {
    throw new RowProblem(said('errors:import.row.badSpeedDial', { text }));
  }
  return code;
}

/** A stored number in the form imported rows are compared in. */
function comparable(number: string, options: { region: CountryCode }): string {
  try {
    return phoneNumber(number, 'number', options);
  } catch {
    return number;
  }
}
