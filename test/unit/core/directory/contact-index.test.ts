/**
 * The search rules of the local index, on a fixed directory: word prefixes in any order, case and
 * accents, one typo, digits anywhere whatever the formatting, national ↔ international forms,
 * speed dials, ranking, highlighting, caller lookup.
 */
import { describe, expect, it } from 'vitest';
import type { DirectoryContact, SearchHit } from '../../../../src-shared/contract';
import { ContactIndex } from '../../../../src-main/core/directory/contact-index';

let nextId = 1;
function contact(fields: Partial<DirectoryContact> & { display_name: string }): DirectoryContact {
  const id = nextId++;
  return {
    id,
    phonebook: 1,
    phonebook_name: 'Company directory',
    company: '',
    number: `+44 20 7000 ${String(1000 + id)}`,
    secondary_number: null,
    speed_dial: null,
    ...fields,
  };
}

const anne = contact({
  display_name: 'Smith, Anne-Marie',
  company: 'Initech',
  number: '+49 30 1234567',
  speed_dial: 201,
});
const john = contact({
  display_name: 'John Smithers',
  number: '+1 (617) 555-0137',
  speed_dial: 2010,
});
const jose = contact({
  display_name: 'José Müller',
  company: 'Électricité de Lyon',
  number: '030 7654321',
});
const annika = contact({
  display_name: 'Annika Berg',
  phonebook: 2,
  number: '+46 8 123 456 78',
  speed_dial: 350,
});
const zoe = contact({
  display_name: 'Zoë Anders',
  phonebook: 2,
  company: 'Smithson & Co',
  number: '201',
  secondary_number: '+49 89 5550 1234',
});
const ann = contact({ display_name: 'Ann Lee', phonebook: 3, number: '+1 212 555 0100' });
const all = [anne, john, jose, annika, zoe, ann];

/** Phonebook 2 has the highest priority, then 1, then 3. */
const priorities = new Map([
  [1, 10],
  [2, 20],
  [3, 5],
]);
const index = ContactIndex.build(all, { region: 'de', priorityOf: (id) => priorities.get(id) });

const names = (hits: SearchHit[]) => hits.map((hit) => hit.contact.display_name);
const search = (query: string, limit?: number) => index.search(query, limit);

describe('names and companies', () => {
  it('matches word prefixes in any order, ignoring case and punctuation', () => {
    expect(names(search('ann smi'))).toEqual(['Smith, Anne-Marie']);
    expect(names(search('marie smith'))).toEqual(['Smith, Anne-Marie']);
    // "anne" is also one typo from the start of "Anders" (whose company is Smithson): that
    // fuzzy hit ranks after the real one.
    const hits = search('SMITH, ANNE');
    expect(hits.map((hit) => [hit.contact.display_name, hit.match])).toEqual([
      ['Smith, Anne-Marie', 'exact'],
      ['Zoë Anders', 'fuzzy'],
    ]);
  });

  it('ignores accents on either side', () => {
    expect(names(search('jose muller'))).toEqual(['José Müller']);
    expect(names(search('zoe'))).toEqual(['Zoë Anders']);
    expect(names(search('electricite'))).toEqual(['José Müller']);
    expect(names(search('Élec'))).toEqual(['José Müller']);
  });

  it('finds companies, and ranks them after names', () => {
    expect(names(search('initech'))).toEqual(['Smith, Anne-Marie']);
    // "smith": the start of Anne-Marie's name; a word of John Smithers's name (though Zoë's
    // phonebook ranks higher); the company Smithson last.
    const hits = search('smith');
    expect(names(hits)).toEqual(['Smith, Anne-Marie', 'John Smithers', 'Zoë Anders']);
    expect(hits.map((hit) => [hit.field, hit.match])).toEqual([
      ['display_name', 'exact'],
      ['display_name', 'prefix'],
      ['company', 'prefix'],
    ]);
  });

  it('tolerates one typo in words of four characters or more', () => {
    expect(names(search('smtih anne'))[0]).toBe('Smith, Anne-Marie');
    expect(names(search('jonh'))).toEqual(['John Smithers']);
    expect(names(search('anika'))).toEqual(['Annika Berg']);
    expect(names(search('muler'))).toEqual(['José Müller']);
    const [hit] = search('smithres');
    expect(hit?.match).toBe('fuzzy');
    // A word of four typed with one letter left out: only that typo, at three characters.
    expect(names(search('jon'))).toEqual(['John Smithers']);
    expect(search('jhn')[0]?.contact.display_name).toBe('John Smithers');
    expect(search('jnh')).toEqual([]);
    // Two typos are too many.
    expect(search('smtihres')).toEqual([]);
  });

  it('needs every word to match', () => {
    expect(search('anne berg')).toEqual([]);
  });

  it('highlights what matched, in the characters shown', () => {
    const [hit] = search('ann smi');
    expect(hit?.ranges).toEqual([
      { field: 'display_name', start: 7, end: 10 },
      { field: 'display_name', start: 0, end: 3 },
    ]);
    const [muller] = search('mull');
    expect(muller?.ranges).toEqual([{ field: 'display_name', start: 5, end: 9 }]);
    expect(muller!.contact.display_name.slice(5, 9)).toBe('Müll');
  });
});

describe('numbers', () => {
  it('matches digits anywhere, whatever the stored formatting', () => {
    expect(names(search('6175550137'))).toEqual(['John Smithers']);
    expect(names(search('555-0137'))).toEqual(['John Smithers']);
    // The README's example: "5550" is inside three numbers (one of them a secondary number).
    expect(names(search('5550'))).toEqual(['Zoë Anders', 'John Smithers', 'Ann Lee']);
    expect(names(search('0100'))).toEqual(['Ann Lee']);
  });

  it('reads national forms as international ones through the region (DE here)', () => {
    // "030 1234" is the national form of +49 30 1234567.
    const [hit] = search('030 1234');
    expect(hit?.contact.display_name).toBe('Smith, Anne-Marie');
    expect(hit?.match).toBe('prefix');
    // A number stored nationally is found by its international form, and the other way round.
    expect(names(search('+49 30 765'))).toEqual(['José Müller']);
    expect(names(search('0307654321'))).toEqual(['José Müller']);
    expect(search('0307654321')[0]?.match).toBe('exact');
  });

  it('reads a number typed with the region’s own prefix for calling abroad, as the reader does', () => {
    // Before, only a whole number typed with 00 was read so: "0049 30 1234" found nobody in
    // Germany, "011 49 30 1234" nobody in the US, "0011 …" in Australia, "009 …" in Colombia.
    for (const [region, typed] of [
      ['DE', '0049 30 1234'],
      ['US', '011 49 30 1234'],
      ['US', '011 49 30 1234567'],
      ['AU', '0011 49 30 1234'],
      ['CO', '009 49 30 1234'],
      ['SG', '0049 30 1234'],
    ] as const) {
      const abroad = ContactIndex.build(all, { region, priorityOf: () => 0 });
      const [hit, ...others] = abroad.search(typed);
      expect([hit?.contact.display_name, others.length], `${region} ${typed}`).toEqual([
        'Smith, Anne-Marie',
        0,
      ]);
      expect(hit?.match, `${region} ${typed}`).toBe(typed.endsWith('567') ? 'exact' : 'prefix');
      // Marked in the number shown ("030 1234567" at home, "+49 30 1234567" abroad).
      const { start, end } = hit!.ranges[0]!;
      const marked = typed.endsWith('567') ? '49 30 1234567' : '49 30 1234';
      expect(hit!.shown.number.slice(start, end), `${region} ${typed}`).toBe(
        region === 'DE' ? '30 1234' : marked,
      );
    }
    // A number stored so is read so too: found by its international digits, shown as one.
    const stored = contact({ display_name: 'Stored Abroad', number: '011 33 1 23 45 67 89' });
    const us = ContactIndex.build([stored], { region: 'US', priorityOf: () => 0 });
    expect(names(us.search('+33 1 23'))).toEqual(['Stored Abroad']);
    expect(us.search('331234')[0]?.match).toBe('prefix');
  });

  it('searches secondary numbers too, says which number matched, and that Enter dials it', () => {
    const [hit] = search('089 5550');
    expect(hit?.contact.display_name).toBe('Zoë Anders');
    expect(hit?.field).toBe('secondary_number');
    expect(hit?.dials).toBe('secondary_number');
    // Marked in the number as shown: national at home (DE here), with its trunk prefix.
    expect(hit?.shown).toEqual({ number: '201', secondary_number: '089 55501234' });
    expect(hit?.ranges).toEqual([{ field: 'secondary_number', start: 0, end: 8 }]);
    expect(hit!.shown.secondary_number!.slice(0, 8)).toBe('089 5550');
    expect(search('zoe')[0]?.dials).toBe('number');
  });

  it('highlights the matched digits with the separators between them, in the shown number', () => {
    const [hit] = search('5550137');
    // Abroad: the international form, as libphonenumber groups it.
    expect(hit?.shown.number).toBe('+1 617 555 0137');
    expect(hit?.ranges).toEqual([{ field: 'number', start: 7, end: 15 }]);
    expect(hit!.shown.number.slice(7, 15)).toBe('555 0137');
  });
});

describe('speed dials', () => {
  it('ranks an exact speed dial first, then whole numbers, then prefixes', () => {
    const hits = search('201');
    expect(hits.map((hit) => [hit.contact.display_name, hit.field, hit.match])).toEqual([
      // Anne-Marie's speed dial is 201: first, though Zoë's number is "201" and her phonebook
      // (priority 20) ranks higher.
      ['Smith, Anne-Marie', 'speed_dial', 'exact'],
      ['Zoë Anders', 'number', 'exact'],
      ['John Smithers', 'speed_dial', 'prefix'],
    ]);
  });

  it('finds a contact by speed-dial code', () => {
    expect(index.findBySpeedDial(350)?.display_name).toBe('Annika Berg');
    expect(index.findBySpeedDial(351)).toBeUndefined();
  });
});

describe('ranking', () => {
  it('ranks names starting with the query first, then names with a word starting with it', () => {
    // Names starting with "an": Annika (priority 20), Ann Lee (5); then a later word of the name:
    // Zoë Anders (20), Anne-Marie (10). Ties go by phonebook priority (higher first).
    expect(names(search('an'))).toEqual([
      'Annika Berg',
      'Ann Lee',
      'Zoë Anders',
      'Smith, Anne-Marie',
    ]);
    // "ann": a whole first word beats a first word starting with it, whatever the priority.
    expect(names(search('ann'))[0]).toBe('Ann Lee');
  });

  it('ranks the contacts the user calls more and lately ahead of equal matches', () => {
    const ranked = ContactIndex.build(all, {
      region: 'de',
      priorityOf: (id) => priorities.get(id),
    });
    const now = Date.parse('2026-06-01T12:00:00Z');
    const daysAgo = (days: number) => now - days * 24 * 60 * 60_000;
    ranked.setCallHistory(
      [
        // Ann Lee by her contact id, three calls this week; Annika by number, one call.
        { contact_id: ann.id, number: ann.number, calls: 3, last_ms: daysAgo(2) },
        { number: '+46 8 123 456 78', calls: 1, last_ms: daysAgo(1) },
        // Zoë: many calls, but months ago; not a contact: ignored.
        { number: zoe.number, calls: 2, last_ms: daysAgo(200) },
        { number: '+33 1 99 99 99 99', calls: 9, last_ms: daysAgo(1) },
      ],
      now,
    );
    // Names starting with "an": Ann Lee (3 calls) before Annika (1 call), though Annika's
    // phonebook ranks higher; the surname hits after them (Zoë's old calls first).
    expect(names(ranked.search('an'))).toEqual([
      'Ann Lee',
      'Annika Berg',
      'Zoë Anders',
      'Smith, Anne-Marie',
    ]);
    // Calls never lift a weaker match over a better one: "smith" still starts with Anne-Marie.
    expect(names(ranked.search('smith'))[0]).toBe('Smith, Anne-Marie');
    // Number fragments too: "555" is inside three numbers, Ann Lee's ranked last without calls.
    expect(names(search('555'))).toEqual(['Zoë Anders', 'John Smithers', 'Ann Lee']);
    expect(names(ranked.search('555'))).toEqual(['Ann Lee', 'Zoë Anders', 'John Smithers']);
  });

  it('returns at most `limit` hits, the best ones', () => {
    expect(names(search('an', 2))).toEqual(['Annika Berg', 'Ann Lee']);
  });

  it('answers an empty or punctuation-only query with nothing', () => {
    expect(search('')).toEqual([]);
    expect(search('  -, ')).toEqual([]);
  });
});

describe('lookupByNumber (caller identification)', () => {
  it('finds a number in national and international forms', () => {
    expect(index.lookupByNumber('+4930 1234567')?.id).toBe(anne.id);
    expect(index.lookupByNumber('030 1234567')?.id).toBe(anne.id);
    expect(index.lookupByNumber('0049301234567')?.id).toBe(anne.id);
    // Stored nationally, arriving internationally.
    expect(index.lookupByNumber('+49307654321')?.id).toBe(jose.id);
    expect(index.lookupByNumber('+16175550137')?.id).toBe(john.id);
    expect(index.lookupByNumber('201')?.id).toBe(zoe.id);
  });

  it('matches an ending only where one side has no country code, never across two', () => {
    // No country code, and no complete number of the region: its last 7+ digits may name.
    expect(index.lookupByNumber('1234567')?.id).toBe(anne.id);
    // Two known countries: the same ending names nobody (issue 41: +44 20 7123 4567 is not
    // +49 30 1234567), nor does a complete German number that ends like a US one.
    expect(index.lookupByNumber('+44 20 7123 4567')).toBeUndefined();
    expect(index.lookupByNumber('9 617 555 0137')).toBeUndefined();
    // Six digits in common are not enough.
    expect(index.lookupByNumber('+33 1 99 23 45 67')).toBeUndefined();
    expect(index.lookupByNumber('')).toBeUndefined();
  });

  it('names nobody when the number belongs to two people, and one person in two phonebooks', () => {
    const twice = ContactIndex.build(
      [
        { ...anne, id: 101 },
        { ...anne, id: 102, phonebook: 2, display_name: 'Anne-Marie Smith (reception)' },
        { ...john, id: 103 },
        { ...john, id: 104, phonebook: 2 },
      ],
      { region: 'DE', priorityOf: (book) => priorities.get(book) },
    );
    expect(twice.lookupByNumber('+49 30 1234567')).toBeUndefined();
    expect(twice.lookupByNumber('+1 617 555 0137')?.display_name).toBe('John Smithers');
  });
});

describe('an index for word queries alone (the scan’s, issue 45)', () => {
  const forWords = ContactIndex.buildForWords(all, { region: 'DE' });
  const whole = ContactIndex.build(all, { region: 'DE' });

  it('gives the hits of the whole index for words, typos and companies, in its order', () => {
    for (const query of ['smith', 'anne marie', 'jose muller', 'smiht', 'initech', 'lyon', 'j']) {
      for (const limit of [50, 1]) {
        expect(forWords.search(query, limit)).toEqual(whole.search(query, limit));
      }
    }
  });

  it('ranks by calls known as contacts', () => {
    const calls = [{ contact_id: john.id, number: john.number, calls: 3, last_ms: 1 }];
    forWords.setCallHistory(calls, 2);
    whole.setCallHistory(calls, 2);
    expect(forWords.search('smith')).toEqual(whole.search('smith'));
  });

  it('says it cannot answer digits, speed dials or callers rather than answer wrong', () => {
    expect(() => forWords.search('030')).toThrow(/word queries alone/);
    expect(() => forWords.search('anne 030')).toThrow(/word queries alone/);
    expect(() => forWords.lookupByNumber(anne.number)).toThrow(/word queries alone/);
    expect(() => forWords.findBySpeedDial(201)).toThrow(/word queries alone/);
    expect(() =>
      forWords.setCallHistory([{ number: anne.number, calls: 1, last_ms: 1 }], 2),
    ).toThrow(/word queries alone/);
  });
});
