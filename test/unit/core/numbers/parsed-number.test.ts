import { parsePhoneNumberFromString } from 'libphonenumber-js/max';
import { describe, expect, it } from 'vitest';
import { parsedNumber } from '../../../../src-main/core/numbers/parsed-number';

/**
 * The one kept reading of a number that showing and comparing share: separators change nothing,
 * a "+" does, the region does, and a reading is made once.
 */
describe('parsedNumber', () => {
  it('reads a number as libphonenumber does, whatever its separators', () => {
    for (const [text, region] of [
      ['+49 30 1234567', 'DE'],
      ['030 1234567', 'DE'],
      ['(617) 555-0137', 'US'],
      ['+1 617.555.0137', 'DE'],
      ['+44 20 7946 0205', 'US'],
    ] as const) {
      expect(parsedNumber(text, region)?.number, text).toBe(
        parsePhoneNumberFromString(text, { defaultCountry: region })?.number,
      );
    }
  });

  it('keeps one reading per digits, "+" and region', () => {
    expect(parsedNumber('030 1234567', 'DE')).toBe(parsedNumber('0301234567', 'DE'));
    expect(parsedNumber('+49 30 1234567', 'DE')).not.toBe(parsedNumber('49301234567', 'DE'));
    expect(parsedNumber('0301234567', 'DE')?.number).toBe('+49301234567');
    expect(parsedNumber('0301234567', 'AT')?.number).toBe('+43301234567');
  });

  it('reads nothing without digits or past 17 of them', () => {
    expect(parsedNumber(' - ', 'DE')).toBeUndefined();
    expect(parsedNumber('+49 30 1234567 1234567', 'DE')).toBeUndefined();
  });
});
