/**
 * A contact as it leaves Callbar and comes back: the contract's writable fields of a phonebook
 * contact (2.5) without the ids, which mean nothing in another phonebook. Both export formats
 * carry exactly these fields, and import reads them back, so an export imported into an empty
 * phonebook reproduces it field for field.
 */
import type { Contact } from '../api/schemas';

export interface ContactRecord {
  display_name: string;
  number: string;
  secondary_number: string | null;
  speed_dial: number | null;
  company: string;
}

/** The fields an import maps columns to, in the order exports write them. */
export const RECORD_FIELDS = [
  'display_name',
  'number',
  'secondary_number',
  'speed_dial',
  'company',
] as const;
export type RecordField = (typeof RECORD_FIELDS)[number];

/** The column headings exports write (import recognises them, in any case). */
export const FIELD_HEADINGS: Record<RecordField, string> = {
  display_name: 'Name',
  number: 'Number',
  secondary_number: 'Secondary number',
  speed_dial: 'Speed dial',
  company: 'Company',
};

/**
 * The heading of a vCard's further TEL read as a column: "Phone 3", "Phone 4" … (`position` 3 or
 * more), which import recognises as a phone mapped to no field (column-mapping.ts).
 */
export function furtherPhoneHeading(position: number): string {
  return `Phone ${position}`;
}

export function recordOf(contact: Contact): ContactRecord {
  return {
    display_name: contact.display_name,
    number: contact.number,
    secondary_number: contact.secondary_number,
    speed_dial: contact.speed_dial ?? null,
    company: contact.company,
  };
}
