/** What the calls tests share: a directory contact, an account, a dial target. */
import type { DialTarget, DirectoryContact } from '../../src-shared/contract';

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

/** The account whose calls the calls tests follow. */
export const ALICE = { tenant_id: 'acme', user_extension: '201', base_url: 'sim' };

/** A dial of a German number from a profile whose country is Germany. */
export const berlinTarget: DialTarget = {
  destination: '+49301234567',
  display: '030 1234567',
  kind: 'external',
  class: 'national',
  country: 'DE',
  e164: '+49301234567',
  description: 'This is a number in Germany.',
};
