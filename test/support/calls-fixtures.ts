/** What the calls tests share: a directory contact. */
import type { DirectoryContact } from '../../src-shared/contract';

/** A phonebook contact, as the directory would hand it to calls. */
export const ada: DirectoryContact = {
  id: 77,
  phonebook: 2,
  phonebook_name: 'Customers',
  display_name: 'Ada Lovelace',
  company: 'Analytical Engines',
  number: '+442071234567',
  secondary_number: null,
  speed_dial: 7341,
};
