/**
 * What the scan (contact-scan) reads of every contact to answer before the index is built: its
 * name folded, its company folded (each distinct company once) and its numbers' digit texts.
 * They are made from the contacts once (folding 100,000 names and reading 150,000 numbers), and
 * the directory cache stores them, so a start reads them instead (directory-cache).
 *
 * Stored texts are used only when they were made the way this code makes them: `stamp` names the
 * region the digit texts were read for, a version, the runtime's Unicode version, and a
 * fingerprint of the folding and of the number reading over sample texts (a change to either, in
 * a later version of Callbar, changes the fingerprint: an older cache's texts are then made
 * again, never trusted).
 */
import type { DirectoryContact } from '../../../src-shared/contract';
import { DialingPlan } from './number-forms';
import { textTable, type TextTable } from './text-table';
import { foldText } from './text-fold';

export interface SearchTexts {
  /** Contact c's name, folded (a line break in it made a space). */
  names: TextTable;
  /** The distinct companies, folded. */
  companies: TextTable;
  /** Contact c's company: its entry in `companies`. */
  companyOf: Uint32Array;
  /** Contact c's numbers' digit texts (number-forms), " "-joined. */
  numbers: TextTable;
  /** How they were made (searchTextsStamp): for which region, by which folding and reading. */
  stamp: string;
}

/** Changed by hand when the texts change in a way the fingerprint's samples would not show. */
const VERSION = 1;

/** Texts whose folding shows how folding works (ASCII, accents, special letters, scripts). */
const FOLD_SAMPLES = [
  'Ada LOVELACE',
  'Müller-Lüdenscheidt, Anne-Marie',
  'ÉMILE Zoë Ångström',
  'Straße Æsir Øre Œuvre Đorđe Łukasz Þór Iİıi',
  'ΟΔΥΣΣΕΥΣ Σοφία',
  'Иван Петров',
  '王小明 ﬁle ǅemal Ǆ',
  'naïve café résumé ñandú',
  '𝐀𝐝𝐚 👩‍💻',
];

/** Numbers whose digit texts show how numbers are read (national, international, short). */
const NUMBER_SAMPLES = [
  '+49 30 1234567',
  '030 1234567',
  '0049 (30) 123-4567',
  '011 49 30 1234567',
  '0011 49 30 1234567',
  '009 1 212 555 0188',
  '+1 617 555 0137',
  '(617) 555-0137',
  '+44 20 7123 4567',
  '07700 900123',
  '+7 495 123 45 67',
  '8 800 555 35 35',
  '+39 06 1234 5678',
  '+352 12 34 56',
  '201',
  '110',
  '+',
  '00',
];

/** What texts made here and now for `region` are stamped with (a few microseconds). */
export function searchTextsStamp(plan: DialingPlan): string {
  let hash = 0x811c9dc5;
  const add = (text: string) => {
    for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193);
    hash = Math.imul(hash ^ 0x1f, 0x01000193);
  };
  for (const sample of FOLD_SAMPLES) add(foldText(sample));
  for (const sample of NUMBER_SAMPLES) add(plan.forms(sample).text);
  // Folding follows the runtime's Unicode tables: a process of another Unicode version (the CLI
  // on the system's Node beside the app's) makes its own texts.
  const unicode = process.versions.unicode ?? '';
  return `${plan.region}/${VERSION}/${unicode}/${(hash >>> 0).toString(16).padStart(8, '0')}`;
}

/** A contact's name as the scan reads it. */
export function foldedName(displayName: string): string {
  // No line break in a folded name (it used to separate the name from the company).
  return foldText(displayName).replaceAll('\n', ' ');
}

/** A contact's numbers as the scan reads them. */
export function numberTexts(contact: DirectoryContact, plan: DialingPlan): string {
  const { number, secondary_number } = contact;
  const first = number === '' ? undefined : plan.forms(number).text;
  const second =
    secondary_number === null || secondary_number === ''
      ? undefined
      : plan.forms(secondary_number).text;
  return first === undefined ? (second ?? '') : second === undefined ? first : `${first} ${second}`;
}

/** The names and companies of `contacts`, folded (each distinct company once). */
export function foldedWordsOf(
  contacts: readonly DirectoryContact[],
): Pick<SearchTexts, 'names' | 'companies' | 'companyOf'> {
  const companyIds = new Map<string, number>();
  const companies: string[] = [];
  const companyOf = new Uint32Array(contacts.length);
  const names = new Array<string>(contacts.length);
  for (let c = 0; c < contacts.length; c++) {
    const contact = contacts[c]!;
    let id = companyIds.get(contact.company);
    if (id === undefined) {
      id = companies.length;
      companies.push(foldText(contact.company));
      companyIds.set(contact.company, id);
    }
    companyOf[c] = id;
    names[c] = foldedName(contact.display_name);
  }
  return { names: textTable(names), companies: textTable(companies), companyOf };
}

/** The numbers of `contacts` as digit texts. */
export function numberTextsOf(contacts: readonly DirectoryContact[], plan: DialingPlan): TextTable {
  const texts = new Array<string>(contacts.length);
  for (let c = 0; c < contacts.length; c++) texts[c] = numberTexts(contacts[c]!, plan);
  return textTable(texts);
}

/** Every search text of `contacts`, for `region`. */
export function searchTextsOf(contacts: readonly DirectoryContact[], region: string): SearchTexts {
  const plan = new DialingPlan(region);
  return {
    ...foldedWordsOf(contacts),
    numbers: numberTextsOf(contacts, plan),
    stamp: searchTextsStamp(plan),
  };
}
