import { describe, expect, it } from 'vitest';
import { numbersIn } from '../../../../browser-extension/src/content/number-finder';
import { callLabel } from '../../../../browser-extension/src/content/number-marks';

describe('numbers in a page’s text', () => {
  it('finds numbers in the user’s region, where they stand; the link carries them as written', () => {
    // Written without a country code, the link carries the page's digits: Callbar reads them in
    // the region it has when the number is clicked, which may have changed since the page was
    // marked. With one, the international form, the same in every region.
    const text = 'Office (212) 555-0123, fax +1 646 555 0177.';
    expect(numbersIn(text, 'US')).toEqual([
      { start: 7, end: 21, link: 'tel:2125550123' },
      { start: 27, end: 42, link: 'tel:+16465550177' },
    ]);
    expect(numbersIn('Hotline 1-900-555-0100', 'US')).toEqual([
      { start: 8, end: 22, link: 'tel:19005550100' },
    ]);
    // The same national digits read in another region are another country's number, or none.
    expect(numbersIn('Zentrale: 030 1234567', 'DE')).toEqual([
      { start: 10, end: 21, link: 'tel:0301234567' },
    ]);
    expect(numbersIn('Zentrale: 030 1234567', 'US')).toEqual([]);
    // An international call prefix is a country code too, kept for Callbar to read; "(0)" of an
    // international number is dropped with the rest of its reading.
    expect(numbersIn('Berlin: 0049 30 1234567', 'DE')[0]?.link).toBe('tel:0049301234567');
    expect(numbersIn('Berlin: +49 (0)30 1234567', 'DE')[0]?.link).toBe('tel:+49301234567');
    // An extension the text names is not dialled.
    expect(numbersIn('Office (212) 555-0123 ext. 45', 'US')[0]?.link).toBe('tel:2125550123');
  });

  it('takes the keys a meeting invitation writes after a pause, never a second number', () => {
    // Before, the link was the number alone: the PIN was lost on the way to Callbar.
    expect(numbersIn('Dial in: +1 646 558 8656,,81234567890# US', 'US')[0]?.link).toBe(
      'tel:+16465588656,,81234567890%23',
    );
    expect(numbersIn('Einwahl: 069 365067155,,123456789#,,,,1234#', 'DE')[0]?.link).toBe(
      'tel:069365067155,,123456789%23,,,,1234%23',
    );
    // A list of numbers is two numbers. Before, libphonenumber took ", 030" for the first one's
    // extension and marked "7654321" alone, which dialled a stranger: +49 7654 321.
    expect(numbersIn('030 1234567, 030 7654321', 'DE').map((found) => found.link)).toEqual([
      'tel:0301234567',
      'tel:0307654321',
    ]);
  });

  it('finds numbers written in Arabic-Indic or full-width digits, as the core reader reads them', () => {
    // Before, the first glance wanted six ASCII digits: these pages had no number to click,
    // though Callbar dials each of them when typed or pasted.
    for (const text of [
      'هاتف: ٠٣٠ ١٢٣٤٥٦٧',
      'تلفن: ۰۳۰ ۱۲۳۴۵۶۷',
      'Tel: ０３０ １２３４５６７',
      'Tel: ０３０－１２３４５６７',
    ]) {
      const [found, ...more] = numbersIn(text, 'DE');
      expect([found?.link, text.slice(found?.start, found?.end).length, more], text).toEqual([
        'tel:0301234567',
        text.length - (text.indexOf(':') + 2),
        [],
      ]);
    }
    expect(numbersIn('Tel: +٤٩ ٣٠ ١٢٣٤٥٦٧,,١٢٣#', 'US')[0]?.link).toBe('tel:+49301234567,,123%23');
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
