/**
 * One word per concept in each language, for every catalog (window, CLI, tray, notifications,
 * pages, errors, policies): what a person reads in one place is what they read everywhere else.
 * test/unit/shared/i18n/glossary.test.ts fails when a catalog of a language uses a word listed
 * under `avoid` for it. Not imported by the window: it is for translators and the test.
 *
 * A new term: add the concept to each language with the word to use and the words that mean the
 * same and must not appear; then fix every catalog the test names.
 */
export interface GlossaryEntry {
  /** What it is, in English, for whoever reads this file. */
  concept: string;
  /** The word (or words, with their abbreviation) to use. */
  use: string;
  /** Words that must not appear (whole words, case-sensitive) in the language's catalogs. */
  avoid: readonly string[];
  /**
   * Word stems that must not appear anywhere, any case, compounds included ("Plattform" in
   * "Plattform-API" or "Plattformportal").
   */
  avoidWithin?: readonly string[];
}

export const GLOSSARY: Record<'en' | 'de', readonly GlossaryEntry[]> = {
  en: [
    {
      concept: 'a line of the phone system that has its own short number (201)',
      use: 'extension (Ext. in the header)',
      avoid: ['Durchwahl', 'Nebenstelle', 'line number'],
    },
    {
      concept: "a contact's second phone number",
      use: 'second number',
      avoid: ['Alt.', 'alternative number', 'alternate number'],
    },
    {
      concept: 'one participant’s connection within a call (the platform’s call leg)',
      use: 'call leg',
      avoid: ['call branch'],
    },
    {
      concept: 'a short code that dials a contact (7777)',
      use: 'speed dial',
      avoid: ['quick dial', 'short dial'],
    },
    {
      concept: 'a list of contacts on the platform',
      use: 'phonebook',
      avoid: ['address book', 'Address book'],
    },
  ],
  de: [
    {
      concept: 'a line of the phone system that has its own short number (201)',
      use: 'Nebenstelle',
      avoid: ['Durchwahl', 'Durchwahlen', 'Extension', 'Ext.', 'Nst.'],
    },
    {
      concept: "a contact's second phone number",
      use: 'Zweitnummer',
      avoid: ['Alt.', 'Alternativnummer', 'Zweite Nummer'],
    },
    {
      concept: 'one participant’s connection within a call (the platform’s call leg)',
      use: 'Teilverbindung',
      avoid: ['Call-Leg', 'Call-Legs', 'CALL-LEGS', 'Leg', 'Legs'],
    },
    {
      concept: 'a short code that dials a contact (7777)',
      use: 'Kurzwahl',
      avoid: ['Schnellwahl', 'Speed-Dial', 'Speed Dial'],
    },
    {
      concept: 'a list of contacts on the platform',
      use: 'Telefonbuch',
      avoid: ['Adressbuch', 'Phonebook'],
    },
    {
      concept: 'the person or number on the other side of a call',
      use: 'Gesprächspartner',
      avoid: ['Party'],
    },
    {
      concept:
        'the business telephony platform the user connects to (its API, portal, events): what a German office calls its Telefonanlage',
      use: 'Telefonanlage',
      avoid: ['Plattform', 'Plattformen', 'TK-Anlage', 'PBX'],
      avoidWithin: ['plattform'],
    },
  ],
};
