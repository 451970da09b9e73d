/**
 * A deterministic directory of varied contacts for the index's tests: accented, Greek (with the
 * capital sigma), Cyrillic, CJK and empty names; companies; numbers international, national, with
 * "00", bare extensions, junk and none; secondary numbers; speed dials; four phonebooks. And the
 * queries a person would type against it: name and company prefixes, whole names, typos, digit
 * fragments, national forms, speed dials, mixes of words and digits.
 */
import type { DirectoryContact } from '../../src-shared/contract';

/** A small seeded PRNG (mulberry32). */
function seeded(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const FIRST = [
  'Anne-Marie',
  'José',
  'Zoë',
  'Søren',
  'Łukasz',
  'Jürgen',
  'ΣΟΦΙΑ',
  'Σωκράτης',
  'Ольга',
  '美咲',
  'Émile',
  'Straße',
  'Ærø',
  'İsmail',
  'Mia',
  'O\u0301scar',
  'Björn',
  'Jan',
  'Anna',
  'Ana',
];
const LAST = [
  'Smith',
  'Müller',
  'Müller-Lüdenscheidt',
  'García',
  'Dvořák',
  'ΠΑΠΑΔΟΠΟΥΛΟΣ',
  'Öztürk',
  'Nguyễn',
  'Иванов',
  '山田',
  "O'Brien",
  'de Vries',
  'Wiśniewski',
  'Schäfer',
  'Lefèvre',
  'ΟΔΟΣ.Α',
];
const COMPANIES = ['', '', 'Initech', 'Électricité de Lyon', 'Bäckerei Groß GmbH', 'ACME Σ Ltd'];

export function generatedDirectory(count: number, seed = 31): DirectoryContact[] {
  const random = seeded(seed);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
  const digits = (length: number) =>
    Array.from({ length }, () => Math.floor(random() * 10)).join('');
  const number = (): string | null => {
    const kind = Math.floor(random() * 10);
    const area = pick(['30', '40', '89', '221']);
    if (kind === 0) return `+49 ${area} ${digits(7)}`;
    if (kind === 1) return `0${area} ${digits(7)}`;
    if (kind === 2) return `0049 (0)${area}-${digits(6)}`;
    if (kind === 3) return `+1 (${pick(['617', '212'])}) ${digits(3)}-${digits(4)}`;
    if (kind === 4) return `+44 20 ${digits(4)} ${digits(4)}`;
    if (kind === 5) return `+33 1 ${digits(2)} ${digits(2)} ${digits(2)} ${digits(2)}`;
    if (kind === 6) return digits(3 + Math.floor(random() * 3)); // an extension
    if (kind === 7) return pick(['n/a', '+', '', '00']);
    if (kind === 8) return `+39 06 ${digits(7)}`;
    return null;
  };
  const contacts: DirectoryContact[] = [];
  for (let id = 1; id <= count; id++) {
    const name =
      random() < 0.02
        ? ''
        : random() < 0.2
          ? `${pick(LAST)}, ${pick(FIRST)}`
          : `${pick(FIRST)} ${pick(LAST)}`;
    contacts.push({
      // Ids out of order, some far apart.
      id: random() < 0.1 ? id * 7919 : count * 10 - id,
      phonebook: 1 + Math.floor(random() * 4),
      phonebook_name: 'Directory',
      display_name: name,
      company: pick(COMPANIES),
      number: number() ?? '',
      secondary_number: random() < 0.3 ? number() : null,
      speed_dial: random() < 0.1 ? Math.floor(random() * 10_000) : null,
    });
  }
  return contacts;
}

/** Queries against `contacts`: fixed ones and ones taken from the contacts themselves. */
export function typedQueries(
  contacts: readonly DirectoryContact[],
  count: number,
  seed = 7,
): string[] {
  const random = seeded(seed);
  const queries = [
    'a',
    'an',
    'ann',
    'anne m',
    'mül',
    'muller',
    'mueller',
    'smtih',
    'σοφια',
    'σ',
    'οδος',
    'ivan',
    '山田',
    'straße',
    'strasse',
    'initech',
    'gmbh',
    'acme',
    'o brien',
    'nguyen',
    '0',
    '1',
    '49',
    '030',
    '0049',
    '+49 30',
    '617',
    '212 5',
    '00',
    '20',
    'anna 30',
    'x',
    'zz',
    '1 2 3',
  ];
  for (let i = 0; i < count; i++) {
    const contact = contacts[Math.floor(random() * contacts.length)]!;
    const words = contact.display_name.split(/[^\p{L}\p{N}]+/u).filter(Boolean);
    const word = words[Math.floor(random() * words.length)] ?? 'a';
    const digits = (contact.number ?? '').replace(/\D/g, '');
    const at = Math.floor(random() * Math.max(1, digits.length - 4));
    const kind = i % 6;
    if (kind === 0) queries.push(word.slice(0, 1 + Math.floor(random() * word.length)));
    else if (kind === 1) queries.push(contact.display_name);
    else if (kind === 2) queries.push(`${word.slice(0, 2)}${word.slice(3)}`); // one left out
    else if (kind === 3) queries.push(digits.slice(at, at + 3 + Math.floor(random() * 5)));
    else if (kind === 4) queries.push(contact.number ?? String(contact.speed_dial ?? 7));
    else queries.push(`${word.slice(0, 3)} ${digits.slice(-3)}`);
  }
  return queries;
}
