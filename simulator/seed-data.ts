/**
 * The generated world: one main tenant with three users, shared and private phonebooks, N contacts
 * (deterministic from the seed), devices, a call queue, a call flow and voicemail boxes; and a
 * second, small tenant whose user has the same extension as one in the main tenant (extensions are
 * unique only inside a tenant).
 */
import { SeededRandom } from './random';
import { isSpeedDialInRange, World, type Phonebook } from './world';

export const MAIN_TENANT_ID = 'acme-7f3a';
export const SECOND_TENANT_ID = 'globex-19c2';

const FIRST_NAMES = [
  'Anna',
  'Ben',
  'Chiara',
  'Daniel',
  'Elif',
  'Farid',
  'Greta',
  'Hannes',
  'Ines',
  'Jonas',
  'Katarzyna',
  'Lukas',
  'Mia',
  'Nikolai',
  'Olga',
  'Paul',
  'Quentin',
  'Rosa',
  'Sophie',
  'Tobias',
  'Ulrike',
  'Valentin',
  'Wiebke',
  'Xaver',
  'Yasmin',
  'Zoë',
  'Amélie',
  'Björn',
  'Camille',
  'Dario',
  'Emma',
  'Felix',
  'Hana',
  'Ida',
  'Jakob',
  'Leonie',
  'Mateo',
  'Noah',
  'Priya',
  'Rafael',
  'Søren',
  'Theresa',
  'Wei',
  'Aiko',
  'Bruno',
  'Clara',
  'Emil',
  'Jörg',
  'Łukasz',
  'Marta',
  'Nora',
  'Oskar',
  'Pia',
  'Sven',
  'Tariq',
  'Vera',
  'José',
  'Fatima',
  'Kenji',
  'Linnea',
] as const;

const LAST_NAMES = [
  'Müller',
  'Schmidt',
  'Schneider',
  'Fischer',
  'Weber',
  'Meyer',
  'Wagner',
  'Becker',
  'Schulz',
  'Hoffmann',
  'Koch',
  'Richter',
  'Klein',
  'Wolf',
  'Schröder',
  'Neumann',
  'Schwarz',
  'Zimmermann',
  'Braun',
  'Krüger',
  'Hofmann',
  'Hartmann',
  'Lange',
  'Werner',
  'Krause',
  'Lehmann',
  'Köhler',
  'Maier',
  'Huber',
  'Kaiser',
  'Fuchs',
  'Peters',
  'Lang',
  'Scholz',
  'Möller',
  'Weiß',
  'Jung',
  'Hahn',
  'Vogel',
  'Friedrich',
  'Rossi',
  'García',
  'Nowak',
  'Jansen',
  'Dubois',
  'Smith',
  'Andersson',
  'Yılmaz',
  "O'Brien",
  'Nguyen',
  'Kowalski',
  'de Vries',
  'Martin',
  'Silva',
  'Tanaka',
  'Ivanova',
  'Larsen',
  'Costa',
  'Novak',
  'Popescu',
] as const;

const COMPANIES = [
  'Northwind Traders',
  'Contoso GmbH',
  'Fabrikam AG',
  'Adventure Works',
  'Tailspin Toys',
  'Wingtip Logistics',
  'Litware Inc.',
  'Proseware KG',
  'Lucerne Publishing',
  'Margie’s Travel',
  'Müller & Söhne GmbH',
  'Blue Yonder Airlines',
  'Coho Winery',
  'Fourth Coffee',
  'Graphic Design Institute',
  'Humongous Insurance',
  'Alpine Ski House',
  'Trey Research',
  'Woodgrove Bank',
  'Southridge Video',
  'Relecloud',
  'Bellows College',
  'Datum Corporation',
  'Consolidated Messenger',
  'Wide World Importers',
  'Nordlicht Energie',
  'Bäckerei Hansen',
  'Rheinblick Immobilien',
  'Elbe Maschinenbau',
  'Isar Software',
  'Havel Medizintechnik',
  'Spree Consulting',
  'Lakeshore Retail',
  'Oceanic Freight',
  'Pinecrest Dental',
] as const;

const DEPARTMENTS = [
  'Accounts payable',
  'Service desk',
  'Sales office',
  'Front desk',
  'Dispatch',
] as const;

const AREA_CODES_DE = ['30', '40', '89', '69', '221', '211', '711', '351'] as const;
const MOBILE_PREFIXES_DE = ['151', '152', '160', '162', '170', '171', '176', '179'] as const;
const LONG_MOBILE_PREFIXES: ReadonlySet<string> = new Set(['151', '152']);

interface PhonebookPlan {
  description: string;
  priority: number;
  isShared: boolean;
  owners: string[];
  weight: number;
}

const MAIN_PHONEBOOKS: PhonebookPlan[] = [
  {
    description: 'Company directory',
    priority: 10,
    isShared: true,
    owners: ['alice', 'bob', 'carol'],
    weight: 30,
  },
  { description: 'Customers', priority: 20, isShared: true, owners: ['alice', 'bob'], weight: 30 },
  { description: 'Suppliers', priority: 30, isShared: true, owners: ['carol'], weight: 15 },
  { description: 'Alice — personal', priority: 100, isShared: false, owners: ['alice'], weight: 5 },
  { description: 'Bob — personal', priority: 100, isShared: false, owners: ['bob'], weight: 5 },
  { description: 'Carol — personal', priority: 100, isShared: false, owners: ['carol'], weight: 5 },
  {
    description: 'Reception speed dials',
    priority: 5,
    isShared: true,
    owners: ['alice'],
    weight: 10,
  },
];

const EPOCH = Date.UTC(2023, 0, 9, 8, 30);
const DAY = 86_400_000;

/** How many contacts fit in a tenant's speed-dial space next to its other extensions. */
export function speedDialCapacity(world: World, tenantId: string): number {
  const reserved = world.reservedExtensions(tenantId);
  let free = 0;
  for (let value = 200; value <= 9999; value++) {
    if (isSpeedDialInRange(value) && !reserved.has(value)) free++;
  }
  return free;
}

export function buildWorld(seed: number, contactCount: number): World {
  const world = new World();
  const random = new SeededRandom(seed);
  world.tenants.push({ id: MAIN_TENANT_ID, name: 'Acme Telephony Demo' });
  world.tenants.push({ id: SECOND_TENANT_ID, name: 'Globex Corporation' });
  world.users.push(
    {
      id: 1,
      tenantId: MAIN_TENANT_ID,
      username: 'alice',
      password: 'alice-pw-201',
      fullName: 'Alice Archer',
      extension: '201',
      canViewAllPhonebooks: true,
    },
    {
      id: 2,
      tenantId: MAIN_TENANT_ID,
      username: 'bob',
      password: 'bob-pw-202',
      fullName: 'Bob Baker',
      extension: '202',
      canViewAllPhonebooks: false,
    },
    {
      id: 3,
      tenantId: MAIN_TENANT_ID,
      username: 'carol',
      password: 'carol-pw-203',
      fullName: 'Carol Chen',
      extension: '203',
      canViewAllPhonebooks: false,
    },
    {
      id: 4,
      tenantId: SECOND_TENANT_ID,
      username: 'zoe',
      password: 'zoe-pw-201',
      fullName: 'Zoë Zimmer',
      extension: '201',
      canViewAllPhonebooks: false,
    },
  );
  world.callQueues.push({
    id: 1,
    tenantId: MAIN_TENANT_ID,
    name: 'Sales queue',
    extension: 600,
    contactIds: [],
  });
  world.callFlows.push({
    id: 1,
    tenantId: MAIN_TENANT_ID,
    name: 'After-hours flow',
    extension: 700,
    contactIds: [],
  });
  world.voicemailBoxes.push(
    { id: 1, tenantId: MAIN_TENANT_ID, name: 'Main voicemail', extension: 800 },
    { id: 2, tenantId: MAIN_TENANT_ID, name: 'Support voicemail', extension: 801 },
    { id: 3, tenantId: SECOND_TENANT_ID, name: 'Globex voicemail', extension: 800 },
  );

  const capacity = speedDialCapacity(world, MAIN_TENANT_ID);
  if (!Number.isInteger(contactCount) || contactCount < 0 || contactCount > capacity) {
    throw new RangeError(
      `contacts must be an integer from 0 to ${capacity}: every contact needs a speed dial unique in the tenant (contract 2.5)`,
    );
  }

  const phonebooks = MAIN_PHONEBOOKS.map((plan) =>
    addPhonebook(world, random, MAIN_TENANT_ID, plan),
  );
  const totalWeight = MAIN_PHONEBOOKS.reduce((sum, plan) => sum + plan.weight, 0);
  const speedDials = freeSpeedDials(world, MAIN_TENANT_ID, random);
  const numbers = new Set<string>();
  for (let i = 0; i < contactCount; i++) {
    let roll = random.next() * totalWeight;
    let index = 0;
    while (index < MAIN_PHONEBOOKS.length - 1 && roll >= (MAIN_PHONEBOOKS[index]?.weight ?? 0)) {
      roll -= MAIN_PHONEBOOKS[index]?.weight ?? 0;
      index++;
    }
    const phonebook = phonebooks[index] as Phonebook;
    const company = random.chance(0.8) ? random.pick(COMPANIES) : '';
    const department = company && random.chance(0.06);
    const first = random.pick(FIRST_NAMES);
    const last = random.pick(LAST_NAMES);
    const displayName = department
      ? `${random.pick(DEPARTMENTS)} — ${company}`
      : random.chance(0.05)
        ? `Dr. ${first} ${last}`
        : `${first} ${last}`;
    world.addContact({
      phonebookId: phonebook.id,
      displayName,
      number: uniqueNumber(random, numbers, false),
      secondaryNumber: random.chance(0.25) ? uniqueNumber(random, numbers, true) : null,
      speedDial: speedDials[i] as number,
      company,
    });
  }

  // Contacts in use: two customers in the queue, one of them also in the flow with a supplier.
  const inBook = (description: string) =>
    [...world.contacts.values()]
      .filter((contact) => world.phonebooks.get(contact.phonebookId)?.description === description)
      .map((contact) => contact.id);
  const customers = inBook('Customers');
  const suppliers = inBook('Suppliers');
  const queue = world.callQueues[0];
  const flow = world.callFlows[0];
  if (queue) queue.contactIds.push(...customers.slice(0, 2));
  if (flow) flow.contactIds.push(...customers.slice(1, 2), ...suppliers.slice(0, 1));

  const reception = phonebooks.find((p) => p.description === 'Reception speed dials');
  const directory = phonebooks.find((p) => p.description === 'Company directory');
  if (reception && directory) {
    world.devices.push(
      {
        id: 1,
        tenantId: MAIN_TENANT_ID,
        name: 'Reception desk phone',
        mac: '80:5E:C0:1A:2B:3C',
        phonebookIds: [reception.id],
      },
      {
        id: 2,
        tenantId: MAIN_TENANT_ID,
        name: 'Lobby courtesy phone',
        mac: '80:5E:C0:4D:5E:6F',
        phonebookIds: [reception.id],
      },
      {
        id: 3,
        tenantId: MAIN_TENANT_ID,
        name: 'Warehouse DECT base',
        mac: '00:15:65:7A:8B:9C',
        phonebookIds: [directory.id, reception.id],
      },
    );
  }

  const globex = addPhonebook(world, random, SECOND_TENANT_ID, {
    description: 'Company directory',
    priority: 10,
    isShared: true,
    owners: ['zoe'],
    weight: 0,
  });
  const globexContacts: [string, string, number][] = [
    ['Hank Scorpio', '+15550100201', 2001],
    ['Frank Grimes', '+15550100202', 2002],
    ['Mindy Simmons', '+15550100203', 2003],
  ];
  for (const [displayName, number, speedDial] of globexContacts) {
    world.addContact({
      phonebookId: globex.id,
      displayName,
      number,
      secondaryNumber: null,
      speedDial,
      company: 'Globex Corporation',
    });
  }
  return world;
}

function addPhonebook(
  world: World,
  random: SeededRandom,
  tenantId: string,
  plan: PhonebookPlan,
): Phonebook {
  const created = EPOCH + random.int(0, 400) * DAY + random.int(0, DAY - 1);
  return world.addPhonebook({
    tenantId,
    description: plan.description,
    priority: plan.priority,
    isShared: plan.isShared,
    ownerIds: plan.owners.map((name) => {
      const user = world.userByUsername(name);
      if (!user) throw new Error(`unknown owner ${name}`);
      return user.id;
    }),
    created,
    modified: created + random.int(0, 90) * DAY + random.int(0, DAY - 1),
  });
}

function freeSpeedDials(world: World, tenantId: string, random: SeededRandom): number[] {
  const reserved = world.reservedExtensions(tenantId);
  const values: number[] = [];
  for (let value = 200; value <= 9999; value++) {
    if (isSpeedDialInRange(value) && !reserved.has(value)) values.push(value);
  }
  return random.shuffle(values);
}

/** A phone number in one of the formats a real directory holds, unique by its digits. */
function uniqueNumber(random: SeededRandom, taken: Set<string>, mobile: boolean): string {
  for (;;) {
    const number = phoneNumber(random, mobile);
    const digits = number.replace(/\D/g, '').replace(/^0(?=[1-9])/, '49');
    if (!taken.has(digits)) {
      taken.add(digits);
      return number;
    }
  }
}

function phoneNumber(random: SeededRandom, mobile: boolean): string {
  const roll = random.next();
  if (mobile || roll < 0.5) {
    // German numbers: E.164 compact, E.164 spaced, or national format.
    const isMobile = mobile || random.chance(0.3);
    const area = isMobile ? random.pick(MOBILE_PREFIXES_DE) : random.pick(AREA_CODES_DE);
    const drawn = random.digits(
      isMobile ? 7 + random.int(0, 1) : 9 - area.length + random.int(0, 1),
    );
    // 0151 and 0152 numbers have 8 digits after the prefix (Germany's numbering plan): a seventh
    // is followed by its first again, so every number is a real German one (the demo's region is
    // DE, issue 41) and the seed draws the same random values as before.
    const subscriber =
      isMobile && LONG_MOBILE_PREFIXES.has(area) && drawn.length === 7 ? drawn + drawn[0]! : drawn;
    const style = random.next();
    if (style < 0.5) return `+49${area}${subscriber}`;
    if (style < 0.75) return `+49 ${area} ${subscriber}`;
    return random.chance(0.5) ? `0${area} ${subscriber}` : `0${area}${subscriber}`;
  }
  if (roll < 0.6) return `+43 1 ${random.digits(7)}`;
  if (roll < 0.7) return `+41 44 ${random.digits(3)} ${random.digits(2)} ${random.digits(2)}`;
  if (roll < 0.8) return `+44 20 7946 0${random.digits(3)}`;
  if (roll < 0.9)
    return `+1 (${random.pick(['212', '415', '617', '312'])}) 555-01${random.digits(2)}`;
  if (roll < 0.95) return `+33${random.int(1, 5)}${random.digits(8)}`;
  return `+3120${random.digits(7)}`;
}
