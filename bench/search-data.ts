/**
 * A deterministic directory of realistic contacts for the search benchmark: names from several
 * languages (with accents), companies, numbers in international and national display formats,
 * secondary numbers, speed dials; and the keystroke queries typed against it.
 */
import type { DirectoryContact } from '../src-shared/contract';

/** A small seeded PRNG (mulberry32): the same seed gives the same directory everywhere. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const FIRST = (
  'Anne-Marie Anna Ana Anders Ángel Beatriz Björn Bogdan Camille Carlos Chloé Dagmar Daniel Dmitri ' +
  'Élodie Emma Enzo Erik François Friederike Gabriel Giulia Grzegorz Hanna Hélène Ines Ingrid Isabel ' +
  'Jan Javier Jérôme João Jörg Julia Jürgen Karin Katarzyna Klaus Laura Léa Lars Lucas Łukasz Małgorzata ' +
  'Marco María Mathilde Matteo Mehmet Mia Michał Nadia Nicolás Niklas Noémie Oliver Olga Paweł Pedro ' +
  'Pierre Priya Rafael Renée Ricardo Sofía Søren Stefan Sven Tomás Ulrike Valentina Wei Yusuf Zoë Zofia ' +
  'Adrián Agnieszka Alejandro Amélie Andreas Antoine Aurélie Benedikt Birgit Bruno Céline Chiara ' +
  'Cristina Dorota Eduardo Elif Emre Fabian Felipe Florian Françoise Gonçalo Gustav Hakan Henrik'
).split(' ');
const LAST = (
  'Smith Müller Schmidt García Martínez Rossi Russo Dubois Lefèvre Kowalski Nowak Wiśniewski Jansen ' +
  'de Vries Andersson Johansson Nielsen Hansen Søndergaard Novák Dvořák Horváth Nagy Popescu Ionescu ' +
  'Yılmaz Kaya Öztürk Papadopoulos Ivanov Petrov Kuznetsov Fernández González Rodríguez López Pérez ' +
  'Sánchez Gómez Fischer Weber Meyer Wagner Becker Schulz Hoffmann Schäfer Koch Bauer Richter Klein ' +
  'Wolf Schröder Neumann Schwarz Zimmermann Braun Krüger Hofmann Hartmann Lange Schmitt Werner Krause ' +
  'Lehmann Köhler Ferrari Esposito Bianchi Romano Colombo Ricci Marino Greco Bruno Gallo Conti Costa ' +
  'Giordano Mancini Rizzo Lombardi Moretti Bernard Thomas Petit Robert Richard Durand Leroy Moreau ' +
  'Simon Laurent Michel Garnier Faure Rousseau Blanc Guérin Müller-Lüdenscheidt Brown Taylor Wilson ' +
  'Johnson Davies Evans Thompson Wright Walker White Roberts Green Hall Wood Jackson Clarke Patel'
).split(' ');
const COMPANY_WORDS = (
  'Acme Globex Initech Umbrella Stark Wayne Hooli Vandelay Soylent Tyrell Cyberdyne Aperture Gringotts ' +
  'Nordwind Bäckerei Müllerei Électricité Transportes Ingeniería Logística Società Zakład Fabryka ' +
  'Brauerei Autohaus Kanzlei Praxis Atelier Studio Solutions Systems Consulting Partners Holding'
).split(' ');
const SUFFIX = ['GmbH', 'AG', 'SA', 'S.r.l.', 'Sp. z o.o.', 'Ltd', 'Inc.', 'BV', 'KG', ''];

interface Country {
  cc: string;
  trunk: string;
  area: () => string;
  subscriber: number;
  /** Display formats: international and national. */
  intl: (area: string, sub: string) => string;
  national: (area: string, sub: string) => string;
}

function digits(random: () => number, count: number): string {
  let text = '';
  for (let i = 0; i < count; i++) text += Math.floor(random() * 10);
  return text;
}

export interface GeneratedDirectory {
  contacts: DirectoryContact[];
  priorities: Map<number, number>;
}

/** `count` contacts (default seed 42); phonebooks 1–7 with the simulator's priorities. */
export function generateDirectory(count: number, seed = 42): GeneratedDirectory {
  const random = seededRandom(seed);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
  const countries: Country[] = [
    {
      cc: '49',
      trunk: '0',
      area: () => pick(['30', '40', '89', '221', '69', '711', '351']),
      subscriber: 7,
      intl: (a, s) => `+49 ${a} ${s}`,
      national: (a, s) => `0${a} ${s}`,
    },
    {
      cc: '1',
      trunk: '1',
      area: () => pick(['617', '212', '415', '312', '206']),
      subscriber: 7,
      intl: (a, s) => `+1 (${a}) ${s.slice(0, 3)}-${s.slice(3)}`,
      national: (a, s) => `(${a}) ${s.slice(0, 3)}-${s.slice(3)}`,
    },
    {
      cc: '44',
      trunk: '0',
      area: () => pick(['20', '161', '121', '131']),
      subscriber: 7,
      intl: (a, s) => `+44 ${a} ${s.slice(0, 4)} ${s.slice(4)}`,
      national: (a, s) => `0${a} ${s.slice(0, 4)} ${s.slice(4)}`,
    },
    {
      cc: '33',
      trunk: '0',
      area: () => pick(['1', '4', '6']),
      subscriber: 8,
      intl: (a, s) => `+33 ${a} ${s.replace(/(\d\d)(?=\d)/g, '$1 ')}`,
      national: (a, s) => `0${a} ${s.replace(/(\d\d)(?=\d)/g, '$1 ')}`,
    },
    {
      cc: '39',
      trunk: '',
      area: () => pick(['06', '02', '011']),
      subscriber: 7,
      intl: (a, s) => `+39 ${a} ${s}`,
      national: (a, s) => `${a} ${s}`,
    },
  ];
  const priorities = new Map([
    [1, 5],
    [2, 10],
    [3, 20],
    [4, 30],
    [5, 100],
    [6, 100],
    [7, 100],
  ]);
  const number = (home: boolean) => {
    const country = home ? countries[0]! : pick(countries);
    const area = country.area();
    const sub = digits(random, country.subscriber);
    // Home numbers are often kept in national format (as imported data would).
    return home && random() < 0.5 ? country.national(area, sub) : country.intl(area, sub);
  };
  const contacts: DirectoryContact[] = [];
  const speedDials = [...Array(10_000).keys()].filter(
    (value) => ((value >= 200 && value <= 999) || value >= 2000) && value !== 9191,
  );
  for (let id = 1; id <= count; id++) {
    const company = random() < 0.7 ? `${pick(COMPANY_WORDS)} ${pick(SUFFIX)}`.trim() : '';
    const first = pick(FIRST);
    const last = pick(LAST);
    const display = random() < 0.15 ? `${last}, ${first}` : `${first} ${last}`;
    const phonebook = 1 + Math.floor(random() * 7);
    contacts.push({
      id,
      phonebook,
      phonebook_name: `Phonebook ${phonebook}`,
      display_name: display,
      company,
      number: number(random() < 0.6),
      secondary_number: random() < 0.3 ? number(random() < 0.6) : null,
      // Unique per tenant: a 100k directory (several sources) keeps the first ones.
      speed_dial: id <= speedDials.length ? speedDials[id - 1]! : null,
    });
  }
  return { contacts, priorities };
}
