import { describe, expect, it } from 'vitest';
import { numbersIn } from '../../../../browser-extension/src/content/number-finder';
import { callLabel } from '../../../../browser-extension/src/content/number-marks';

describe('numbers in a page’s text', () => {
  it('finds numbers in the user’s region, where they stand, in international form', () => {
    const text = 'Office (212) 555-0123, fax +1 646 555 0177.';
    expect(numbersIn(text, 'US')).toEqual([
      { start: 7, end: 21, e164: '+12125550123' },
      { start: 27, end: 42, e164: '+16465550177' },
    ]);
    // The same national digits read in another region are another country's number, or none.
    expect(numbersIn('Zentrale: 030 1234567', 'DE')).toEqual([
      { start: 10, end: 21, e164: '+49301234567' },
    ]);
    expect(numbersIn('Zentrale: 030 1234567', 'US')).toEqual([]);
  });

  it('passes over text without six digits close together, and dates, prices and ids', () => {
    expect(numbersIn('Line 12 of the price list, item 84 in stock', 'US')).toEqual([]);
    expect(numbersIn('Invoice 2026-11-29, total $1,234.56', 'US')).toEqual([]);
    expect(numbersIn('x'.repeat(20_000) + ' (212) 555-0123', 'US')).toEqual([]);
  });

  it('names a found number “Call <number>” in the user’s words', () => {
    expect(callLabel('Call {number}', '(212) 555-0123')).toBe('Call (212) 555-0123');
    expect(callLabel('{number} anrufen', '030 1234567')).toBe('030 1234567 anrufen');
  });
});
