/**
 * The one model of a phone number (issue 41): the same text reads to the same number on every
 * path (a contact's number in the editor and on import alike), two numbers match only by the
 * rule (E.164 equality; an ending only where one side's country is unknown; nobody when two
 * people match), a number is shown national at home and international abroad, and a short digit
 * string is an extension only where the tenant's numbering says so.
 */
import { describe, expect, it } from 'vitest';
import type { CountryCode } from 'libphonenumber-js/max';
import { CallbarError } from '../../../../src-main/core/errors';
import { readContactNumber } from '../../../../src-main/core/numbers/contact-number';
import { NumberDisplay, shownNumber } from '../../../../src-main/core/numbers/number-format';
import {
  comparableNumber,
  numberMatch,
  sameNumber,
  whoseNumber,
} from '../../../../src-main/core/numbers/number-match';
import { readNumber } from '../../../../src-main/core/numbers/number-reading';
import { fitsNumbering, numberingOf } from '../../../../src-main/core/numbers/numbering';

interface Person {
  name: string;
  numbers: string[];
}
const hanna: Person = { name: 'Hanna Berg', numbers: ['+49 30 1234567', '+49 171 2345678'] };
const zoe: Person = { name: 'Zoë Zimmer', numbers: ['+41 44 123 45 67', '+49 171 2345678'] };
const whose = (number: string, people: Person[], region: CountryCode = 'DE') =>
  whoseNumber(
    number,
    people,
    region,
    (person) => person.numbers,
    (person) => person.name,
  )?.name;

describe('reading a number', () => {
  it('reads a national number in the user region, and refuses it elsewhere with one sentence', () => {
    const read = readNumber('0171 2345678', { region: 'DE' });
    expect(read).toMatchObject({ kind: 'external' });
    expect(read.kind === 'external' && read.number.number).toBe('+491712345678');
    expect(() => readNumber('0171 2345678', { region: 'US' })).toThrow(
      /not a complete number in region US; add the country code/,
    );
  });

  it('refuses a national number no number of the region can be, whatever its length', () => {
    // Before, ten digits were a US number by length alone: Berlin's "030 1234567" (or a German
    // contact's "(0)30 1234567" in an import) was dialled and stored as +1 030 123 4567, a
    // number nobody has; the same happened in Canada.
    for (const [text, region] of [
      ['030 1234567', 'US'],
      ['(0)30 1234567', 'US'],
      ['0301234567', 'CA'],
      ['123 456 7890', 'US'],
    ] as const) {
      expect(() => readNumber(text, { region }), `${region} ${text}`).toThrow(
        new RegExp(`not a complete number in region ${region}; add the country code`),
      );
      expect(() => readContactNumber(text, region), `${region} ${text}`).toThrow(CallbarError);
    }
    // A number of the region's plan still reads, in use or not yet in libphonenumber's ranges.
    for (const [text, region, e164] of [
      ['(212) 555-0188', 'US', '+12125550188'],
      ['030 1234567', 'DE', '+49301234567'],
      ['011 49 30 1234567', 'US', '+49301234567'],
    ] as const) {
      const read = readNumber(text, { region });
      expect(read.kind === 'external' && read.number.number, text).toBe(e164);
    }
  });

  it('reads the digits libphonenumber reads: Arabic-Indic and Eastern Arabic-Indic as full-width', () => {
    // A number copied from an Arabic or Persian page: before, "it contains “٠”" (a digit).
    for (const written of [
      '٠٣٠ ١٢٣٤٥٦٧',
      '۰۳۰ ۱۲۳۴۵۶۷',
      '０３０ １２３４５６７',
      '+٤٩ ٣٠ ١٢٣٤٥٦٧',
    ]) {
      const read = readNumber(written, { region: 'DE' });
      expect(read.kind === 'external' && read.number.number, written).toBe('+49301234567');
    }
    expect(readNumber('١١٢', { region: 'DE' })).toEqual({ kind: 'emergency', digits: '112' });
    expect(readNumber('+49 30 1234567 x ١٢', { region: 'DE' })).toMatchObject({ extension: '12' });
    expect(readContactNumber('٠١٧١ ٢٣٤٥٦٧٨', 'DE')).toEqual({ number: '+491712345678' });
    // Digits of other scripts libphonenumber does not read stay refused, naming the character.
    expect(() => readNumber('०३० १२३४५६७', { region: 'DE' })).toThrow(/it contains “०”/);
  });

  it('reads the region’s own international call prefix, and 00 where it is none', () => {
    const e164 = (text: string, region: CountryCode) => {
      const read = readNumber(text, { region });
      return read.kind === 'external' ? read.number.number : read.kind;
    };
    // Colombia dials abroad through 009: this is New York, not India's +91 212 555 0188.
    expect(e164('009 1 212 555 0188', 'CO')).toBe('+12125550188');
    // Australia's 0011, Korea's 00700, Kenya's 000: before, refused or another country.
    expect(e164('0011 49 30 1234567', 'AU')).toBe('+49301234567');
    expect(e164('00700 49 30 1234567', 'KR')).toBe('+49301234567');
    expect(e164('000 49 30 1234567', 'KE')).toBe('+49301234567');
    // 00 stays the international prefix where the region's reading is no number.
    for (const region of ['DE', 'AU', 'SG', 'TH', 'CO', 'HK', 'US'] as const) {
      expect(e164('0049 30 1234567', region), region).toBe('+49301234567');
    }
    expect(e164('00 1 617 555 0137', 'HK')).toBe('+16175550137');
    // Matched and shown alike.
    expect(sameNumber('009 1 212 555 0188', '+1 212 555 0188', 'CO')).toBe(true);
    expect(sameNumber('009 1 212 555 0188', '+91 212 555 0188', 'CO')).toBe(false);
    expect(shownNumber('0011 49 30 1234567', 'AU')).toBe('+49 30 1234567');
    expect(shownNumber('009 1 212 555 0188', 'CO')).toBe('+1 212 555 0188');
  });

  it('tells short numbers, emergency numbers and service codes apart', () => {
    expect(readNumber('201', { region: 'DE' })).toEqual({ kind: 'short', digits: '201' });
    expect(readNumber('112', { region: 'DE' })).toEqual({ kind: 'emergency', digits: '112' });
    expect(readNumber('*21*0301234567#', { region: 'DE' })).toEqual({
      kind: 'code',
      code: '*21*0301234567#',
    });
  });
});

describe('a contact’s number, however it enters', () => {
  it('is stored in E.164 in the user region (the editor, the CLI and an import alike)', () => {
    expect(readContactNumber('0171 2345678', 'DE')).toEqual({ number: '+491712345678' });
    expect(readContactNumber('+49 (0)30 123 45 67', 'DE')).toEqual({ number: '+49301234567' });
    expect(readContactNumber('201', 'DE')).toEqual({ number: '201' });
    expect(readContactNumber('+1 202 555 0188 x12', 'US')).toEqual({
      number: '+12025550188',
      droppedExtension: '12',
    });
  });

  it('is refused with the reader’s sentence, naming the field', () => {
    const refusal = (text: string, field?: 'number' | 'secondary_number') => {
      try {
        readContactNumber(text, 'US', field);
      } catch (error) {
        expect(error).toBeInstanceOf(CallbarError);
        return { message: (error as CallbarError).message, field: (error as CallbarError).field };
      }
      throw new Error(`${text} was read`);
    };
    // A conference's PIN after a pause is for the person to press, never stored as the number.
    expect(refusal('+1 646 558 8656,,81234567890#')).toEqual({
      message:
        'That is not a phone number: +1 646 558 8656,,81234567890# (it is followed by keys to press once a call is answered (81234567890#); a contact’s number holds the number only).',
      field: 'number',
    });
    expect(refusal('0171 2345678', 'secondary_number')).toEqual({
      message:
        'That is not a phone number: 0171 2345678 (it is not a complete number in region US; add the country code (+…)).',
      field: 'secondary_number',
    });
    expect(refusal('*21*123#').message).toMatch(/service code/);
  });
});

describe('matching numbers', () => {
  it('never names a stranger whose number only ends the same (issue 41: +44 20 7123 4567)', () => {
    expect(whose('+44 20 7123 4567', [hanna])).toBeUndefined();
    expect(whose('+44 20 7123 4567', [hanna], 'US')).toBeUndefined();
    expect(sameNumber('+44 20 7123 4567', '+49 30 1234567', 'DE')).toBe(false);
  });

  it('matches E.164 equality after reading both in the user region', () => {
    expect(whose('+49301234567', [hanna])).toBe('Hanna Berg');
    expect(whose('030 1234567', [hanna])).toBe('Hanna Berg');
    expect(whose('0049 30 1234567', [hanna], 'US')).toBe('Hanna Berg');
    expect(sameNumber('030 1234567', '+49 30 1234567', 'DE')).toBe(true);
  });

  it('matches an ending only where one side has no country code (7 digits at least)', () => {
    // A caller id without area code is no complete German number: its ending may name.
    const withoutArea = comparableNumber('1234567', 'DE');
    expect(withoutArea.e164).toBeUndefined();
    expect(numberMatch(withoutArea, comparableNumber('+49 30 1234567', 'DE'))).toBe(7);
    expect(whose('1234567', [hanna])).toBe('Hanna Berg');
    // Stored in another country's national form, unknown in the user's region.
    expect(whose('+49 30 1234567', [{ name: 'Kai', numbers: ['030 1234567'] }], 'US')).toBe('Kai');
    expect(
      numberMatch(comparableNumber('234567', 'DE'), comparableNumber('+4930234567', 'DE')),
    ).toBe(0);
  });

  it('names nobody when the number is two people’s, and the one person in two phonebooks', () => {
    expect(whose('+49 171 2345678', [hanna, zoe])).toBeUndefined();
    expect(whose('+49 171 2345678', [hanna, { ...hanna }])).toBe('Hanna Berg');
    // The same number beats an ending: the exact match alone names.
    expect(whose('+49 30 1234567', [{ name: 'Ending', numbers: ['1234567'] }, hanna])).toBe(
      'Hanna Berg',
    );
  });

  it('matches extensions only to the same extension', () => {
    expect(sameNumber('201', '201', 'DE')).toBe(true);
    expect(sameNumber('201', '+49 30 201', 'DE')).toBe(false);
  });
});

describe('showing numbers', () => {
  it('shows national at home and international abroad, by libphonenumber', () => {
    expect(shownNumber('+49404706540', 'DE')).toBe('040 4706540');
    expect(shownNumber('0301351061', 'DE')).toBe('030 1351061');
    expect(shownNumber('+44 20 7946 0205', 'DE')).toBe('+44 20 7946 0205');
    expect(shownNumber('+442079460205', 'GB')).toBe('020 7946 0205');
    expect(shownNumber('+1 (617) 555-0137', 'US')).toBe('(617) 555-0137');
    expect(shownNumber('0049 30 1234567', 'US')).toBe('+49 30 1234567');
  });

  it('leaves extensions and text that is no number as they are', () => {
    expect(shownNumber('201', 'DE')).toBe('201');
    expect(shownNumber(' Reception ', 'DE')).toBe('Reception');
    expect(shownNumber('0301', 'DE')).toBe('0301');
  });

  it('remembers the numbers shown for one region', () => {
    const display = new NumberDisplay('DE', 2);
    expect(display.of('+49301234567')).toBe('030 1234567');
    expect(display.of('+49301234567')).toBe('030 1234567');
    expect(display.of('+442079460205')).toBe('+44 20 7946 0205');
    expect(display.of('+491712345678')).toBe('0171 2345678');
  });
});

describe('the tenant’s numbering (issue 41: "7946 02" is no extension)', () => {
  it('knows extension lengths from the own extension, the calls and the speed dials', () => {
    const numbering = numberingOf(['201', 7341, null, '+49301234567', '0301', undefined]);
    expect([...numbering.lengths].sort()).toEqual([3, 4]);
    expect(fitsNumbering('202', numbering)).toBe(true);
    expect(fitsNumbering('794602', numbering)).toBe(false);
    expect(fitsNumbering('20', numberingOf([]))).toBe(false);
  });
});
